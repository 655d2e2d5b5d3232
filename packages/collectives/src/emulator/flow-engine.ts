import { EventHeap } from './event-heap.ts';

/** What the engine calls back: a collective's program reacts to its flows and timers. */
export interface FlowProgram {
  onTimer(engine: FlowEngine, tag: number): void;
  onFlowDone(engine: FlowEngine, tag: number): void;
}

/**
 * The discrete-event core: flows of bytes on paths of links, link bandwidth shared max-min fairly
 * among the flow copies crossing it (a flow may stand for `weight` identical copies on a link; a
 * flow may also carry its own rate cap), computed by progressive filling (see `rerate`). Two event
 * kinds: a timer (latency, a dependency) and a flow completion. When a flow starts or ends, only
 * the flows on the links it crosses (and, while rates fall, their neighbours) get a new rate and
 * finish time (an indexed heap `update`), so an event costs O(links touched × flows on them ×
 * log flows). Memory: typed arrays grown by doubling and recycled
 * through free lists, bounded by links and flows in flight.
 */
export class FlowEngine {
  now = 0;
  events = 0;
  readonly linkBandwidth: Float64Array;
  readonly linkLoad: Float64Array;
  /** Bytes × copies carried per link, for utilisation. */
  readonly linkBytes: Float64Array;
  private readonly linkHead: Int32Array;

  // Flow slots.
  private flowRemaining = new Float64Array(256);
  private flowRate = new Float64Array(256);
  private flowLast = new Float64Array(256);
  private flowCap = new Float64Array(256);
  private flowEntry = new Int32Array(256);
  private flowLength = new Int32Array(256);
  private flowProgram = new Int32Array(256);
  private flowTag = new Int32Array(256);
  private flowStamp = new Int32Array(256);
  private flowOldRate = new Float64Array(256);
  private flowFrozen = new Int32Array(256);
  private freeFlows: number[] = [];
  private flowCount = 0;

  // Path entries (flow, link, weight), linked per link; blocks of MAX_PATH per flow slot.
  private static readonly MAX_PATH = 16;
  private entLink = new Int32Array(256 * FlowEngine.MAX_PATH);
  private entWeight = new Float64Array(256 * FlowEngine.MAX_PATH);
  private entNext = new Int32Array(256 * FlowEngine.MAX_PATH);
  private entPrev = new Int32Array(256 * FlowEngine.MAX_PATH);

  // Timers.
  private timerProgram = new Int32Array(256);
  private timerTag = new Int32Array(256);
  private freeTimers: number[] = [];
  private timerCount = 0;

  private readonly flows = new EventHeap();
  private readonly timers = new EventHeap();
  private readonly programs: FlowProgram[] = [];
  private stamp = 0;
  private touched = new Int32Array(64);
  /** Rounds of progressive filling after the first, as flows whose rate fell pull in their neighbours. */
  private static readonly MAX_ROUNDS = 3;
  // Progressive-filling scratch, per link.
  private readonly linkStamp: Int32Array;
  private readonly linkCapacity: Float64Array;
  private readonly linkWeight: Float64Array;
  private fillLinks = new Int32Array(64);
  private fillStamp = 0;

  constructor(linkBandwidth: Float64Array) {
    this.linkBandwidth = linkBandwidth;
    this.linkLoad = new Float64Array(linkBandwidth.length);
    this.linkBytes = new Float64Array(linkBandwidth.length);
    this.linkHead = new Int32Array(linkBandwidth.length).fill(-1);
    this.linkStamp = new Int32Array(linkBandwidth.length);
    this.linkCapacity = new Float64Array(linkBandwidth.length);
    this.linkWeight = new Float64Array(linkBandwidth.length);
  }

  addProgram(program: FlowProgram): number {
    this.programs.push(program);
    return this.programs.length - 1;
  }

  /** Fires `program.onTimer(tag)` at now + delay. */
  timer(program: number, tag: number, delaySeconds: number): void {
    const id = this.freeTimers.pop() ?? this.timerCount++;
    if (id >= this.timerProgram.length) {
      this.timerProgram = grow(this.timerProgram, id); this.timerTag = grow(this.timerTag, id);
    }
    this.timerProgram[id] = program;
    this.timerTag[id] = tag;
    this.timers.set(id, this.now + delaySeconds);
  }

  /**
   * Starts a flow of `bytes` over `path[0..length)` now; `weights[i]` copies of it cross link
   * path[i] (1 for an ordinary flow). `capBytesPerSecond` bounds its rate (Infinity: links only).
   */
  flow(program: number, tag: number, bytes: number, path: Int32Array, length: number,
    weights: Float64Array | null, capBytesPerSecond: number): void {
    if (length > FlowEngine.MAX_PATH) throw new RangeError(`a path has at most ${FlowEngine.MAX_PATH} links`);
    const id = this.freeFlows.pop() ?? this.flowCount++;
    if (id >= this.flowRemaining.length) this.growFlows(id);
    this.flowRemaining[id] = bytes;
    this.flowLast[id] = this.now;
    this.flowRate[id] = 0;
    this.flowCap[id] = capBytesPerSecond;
    this.flowProgram[id] = program;
    this.flowTag[id] = tag;
    const first = id * FlowEngine.MAX_PATH;
    this.flowEntry[id] = first;
    this.flowLength[id] = length;
    const stamp = ++this.stamp;
    let touched = 0;
    for (let i = 0; i < length; i++) {
      const e = first + i;
      const link = path[i] as number;
      const weight = weights === null ? 1 : (weights[i] as number);
      this.entLink[e] = link;
      this.entWeight[e] = weight;
      this.linkLoad[link] = (this.linkLoad[link] as number) + weight;
      // Mark the flows already on this link for a new rate, then link the entry in.
      for (let o = this.linkHead[link] as number; o >= 0; o = this.entNext[o] as number) {
        const other = (o / FlowEngine.MAX_PATH) | 0;
        if (this.flowStamp[other] !== stamp) { this.flowStamp[other] = stamp; touched = this.mark(touched, other); }
      }
      const head = this.linkHead[link] as number;
      this.entNext[e] = head;
      this.entPrev[e] = -1;
      if (head >= 0) this.entPrev[head] = e;
      this.linkHead[link] = e;
    }
    this.flowStamp[id] = stamp;
    touched = this.mark(touched, id);
    this.rerate(touched);
  }

  private mark(touched: number, id: number): number {
    if (touched >= this.touched.length) {
      const next = new Int32Array(this.touched.length * 2); next.set(this.touched); this.touched = next;
    }
    this.touched[touched] = id;
    return touched + 1;
  }

  /** Moves a flow's progress up to now at its current rate (bytes on its links for utilisation). */
  private advance(id: number): void {
    const now = this.now;
    const rate = this.flowRate[id] as number;
    const elapsed = now - (this.flowLast[id] as number);
    if (rate > 0 && elapsed > 0) {
      const moved = Math.min(rate * elapsed, this.flowRemaining[id] as number);
      this.flowRemaining[id] = (this.flowRemaining[id] as number) - moved;
      const first = this.flowEntry[id] as number;
      const end = first + (this.flowLength[id] as number);
      for (let e = first; e < end; e++) {
        const link = this.entLink[e] as number;
        this.linkBytes[link] = (this.linkBytes[link] as number) + moved * (this.entWeight[e] as number);
      }
    }
    this.flowLast[id] = now;
  }

  /**
   * Max-min fair rates for the flows a change touched (Bertsekas & Gallager, Data Networks, 2nd ed.,
   * §6.5.2, progressive filling): on the links those flows cross, the capacity left by the flows
   * not touched is shared; all unfrozen flows rise together until a link fills or a flow meets its
   * own cap, those freeze, and the rest rise on. A flow whose rate fell leaves capacity on its other
   * links, so the flows there join and the filling runs again (at most MAX_ROUNDS times; past that
   * the untouched flows keep rates that are feasible, possibly below their max-min share).
   * Touched flows are in `touched[0..count)`, stamped with `this.stamp`.
   */
  private rerate(count: number): void {
    const stamp = this.stamp;
    for (let t = 0; t < count; t++) {
      const id = this.touched[t] as number;
      this.advance(id);
      this.flowOldRate[id] = this.flowRate[id] as number;
    }
    let done = 0;
    for (let round = 0; ; round++) {
      this.fill(count, stamp);
      if (round >= FlowEngine.MAX_ROUNDS) break;
      // Flows whose rate fell free capacity: the flows sharing their links may now rise.
      const before = count;
      for (let t = done; t < before; t++) {
        const id = this.touched[t] as number;
        if ((this.flowRate[id] as number) >= (this.flowOldRate[id] as number) * (1 - 1e-9)) continue;
        const first = this.flowEntry[id] as number;
        const end = first + (this.flowLength[id] as number);
        for (let e = first; e < end; e++) {
          for (let o = this.linkHead[this.entLink[e] as number] as number; o >= 0; o = this.entNext[o] as number) {
            const other = (o / FlowEngine.MAX_PATH) | 0;
            if (this.flowStamp[other] === stamp) continue;
            this.flowStamp[other] = stamp;
            count = this.mark(count, other);
            this.advance(other);
            this.flowOldRate[other] = this.flowRate[other] as number;
          }
        }
      }
      done = before;
      if (count === before) break;
    }
    const now = this.now;
    for (let t = 0; t < count; t++) {
      const id = this.touched[t] as number;
      const rate = this.flowRate[id] as number;
      const remaining = this.flowRemaining[id] as number;
      this.flows.set(id, remaining <= 0 ? now : rate > 0 ? now + remaining / rate : Number.POSITIVE_INFINITY);
    }
  }

  /** One progressive filling over touched[0..count); see `rerate`. */
  private fill(count: number, stamp: number): void {
    // The links the touched flows cross, each with the capacity the untouched flows leave and the
    // weight of touched (unfrozen) flows on it.
    let links = 0;
    const linkStamp = ++this.fillStamp;
    for (let t = 0; t < count; t++) {
      const id = this.touched[t] as number;
      this.flowFrozen[id] = 0;
      const first = this.flowEntry[id] as number;
      const end = first + (this.flowLength[id] as number);
      for (let e = first; e < end; e++) {
        const link = this.entLink[e] as number;
        if (this.linkStamp[link] !== linkStamp) {
          this.linkStamp[link] = linkStamp;
          if (links >= this.fillLinks.length) {
            const next = new Int32Array(this.fillLinks.length * 2); next.set(this.fillLinks); this.fillLinks = next;
          }
          this.fillLinks[links++] = link;
          let capacity = this.linkBandwidth[link] as number;
          for (let o = this.linkHead[link] as number; o >= 0; o = this.entNext[o] as number) {
            const other = (o / FlowEngine.MAX_PATH) | 0;
            if (this.flowStamp[other] !== stamp) capacity -= (this.entWeight[o] as number) * (this.flowRate[other] as number);
          }
          this.linkCapacity[link] = capacity > 0 ? capacity : 0;
          this.linkWeight[link] = 0;
        }
        this.linkWeight[link] = (this.linkWeight[link] as number) + (this.entWeight[e] as number);
      }
    }
    let unfrozen = count;
    while (unfrozen > 0) {
      let level = Number.POSITIVE_INFINITY;
      for (let i = 0; i < links; i++) {
        const link = this.fillLinks[i] as number;
        const weight = this.linkWeight[link] as number;
        if (weight > 1e-12) {
          const share = (this.linkCapacity[link] as number) / weight;
          if (share < level) level = share;
        }
      }
      for (let t = 0; t < count; t++) {
        const id = this.touched[t] as number;
        if (this.flowFrozen[id] === 0 && (this.flowCap[id] as number) < level) level = this.flowCap[id] as number;
      }
      if (!(level >= 0)) level = 0;
      const threshold = level * (1 + 1e-12);
      // Freeze every flow at the level that meets its cap or crosses a link that is now full.
      let frozenNow = 0;
      for (let t = 0; t < count; t++) {
        const id = this.touched[t] as number;
        if (this.flowFrozen[id] !== 0) continue;
        let freeze = (this.flowCap[id] as number) <= threshold;
        const first = this.flowEntry[id] as number;
        const end = first + (this.flowLength[id] as number);
        for (let e = first; !freeze && e < end; e++) {
          const link = this.entLink[e] as number;
          freeze = (this.linkCapacity[link] as number) <= threshold * (this.linkWeight[link] as number);
        }
        if (freeze) { this.flowFrozen[id] = 2; frozenNow++; }
      }
      if (frozenNow === 0) break; // unreachable: the level is some link's share or some flow's cap
      for (let t = 0; t < count; t++) {
        const id = this.touched[t] as number;
        if (this.flowFrozen[id] !== 2) continue;
        this.flowFrozen[id] = 1;
        this.flowRate[id] = level;
        const first = this.flowEntry[id] as number;
        const end = first + (this.flowLength[id] as number);
        for (let e = first; e < end; e++) {
          const link = this.entLink[e] as number;
          const weight = this.entWeight[e] as number;
          const capacity = (this.linkCapacity[link] as number) - weight * level;
          this.linkCapacity[link] = capacity > 0 ? capacity : 0;
          this.linkWeight[link] = (this.linkWeight[link] as number) - weight;
        }
      }
      unfrozen -= frozenNow;
    }
  }

  private finishFlow(id: number): void {
    this.advance(id);
    const first = this.flowEntry[id] as number;
    const length = this.flowLength[id] as number;
    // Whatever rounding left unmoved is carried now: the flow is done.
    const rest = this.flowRemaining[id] as number;
    const stamp = ++this.stamp;
    this.flowStamp[id] = stamp;
    this.flowRate[id] = 0;
    let touched = 0;
    for (let e = first; e < first + length; e++) {
      const link = this.entLink[e] as number;
      const weight = this.entWeight[e] as number;
      if (rest > 0) this.linkBytes[link] = (this.linkBytes[link] as number) + rest * weight;
      const load = (this.linkLoad[link] as number) - weight;
      this.linkLoad[link] = load < 1e-9 ? 0 : load;
      const prev = this.entPrev[e] as number;
      const next = this.entNext[e] as number;
      if (prev >= 0) this.entNext[prev] = next; else this.linkHead[link] = next;
      if (next >= 0) this.entPrev[next] = prev;
      for (let o = this.linkHead[link] as number; o >= 0; o = this.entNext[o] as number) {
        const other = (o / FlowEngine.MAX_PATH) | 0;
        if (this.flowStamp[other] !== stamp) { this.flowStamp[other] = stamp; touched = this.mark(touched, other); }
      }
    }
    this.flows.remove(id);
    this.freeFlows.push(id);
    this.rerate(touched);
  }

  /**
   * Runs until no event is left or `eventBudget` events have run. Returns false when the budget
   * stopped it (the caller reports the limit).
   */
  run(eventBudget: number): boolean {
    const flows = this.flows;
    const timers = this.timers;
    while (flows.size > 0 || timers.size > 0) {
      if (this.events >= eventBudget) return false;
      this.events++;
      const flowAt = flows.size > 0 ? flows.topKey() : Number.POSITIVE_INFINITY;
      const timerAt = timers.size > 0 ? timers.topKey() : Number.POSITIVE_INFINITY;
      if (timerAt <= flowAt) {
        const id = timers.topId();
        timers.pop();
        this.now = timerAt;
        const program = this.timerProgram[id] as number;
        const tag = this.timerTag[id] as number;
        this.freeTimers.push(id);
        (this.programs[program] as FlowProgram).onTimer(this, tag);
      } else {
        if (flowAt === Number.POSITIVE_INFINITY) throw new Error('flows are stalled on zero-bandwidth links');
        const id = flows.topId();
        this.now = flowAt;
        const program = this.flowProgram[id] as number;
        const tag = this.flowTag[id] as number;
        this.finishFlow(id);
        (this.programs[program] as FlowProgram).onFlowDone(this, tag);
      }
    }
    return true;
  }

  private growFlows(id: number): void {
    this.flowRemaining = grow(this.flowRemaining, id); this.flowRate = grow(this.flowRate, id);
    this.flowLast = grow(this.flowLast, id); this.flowCap = grow(this.flowCap, id);
    this.flowEntry = grow(this.flowEntry, id); this.flowLength = grow(this.flowLength, id);
    this.flowProgram = grow(this.flowProgram, id); this.flowTag = grow(this.flowTag, id);
    this.flowStamp = grow(this.flowStamp, id);
    this.flowOldRate = grow(this.flowOldRate, id); this.flowFrozen = grow(this.flowFrozen, id);
    const entries = this.flowRemaining.length * FlowEngine.MAX_PATH;
    this.entLink = grow(this.entLink, entries - 1); this.entWeight = grow(this.entWeight, entries - 1);
    this.entNext = grow(this.entNext, entries - 1); this.entPrev = grow(this.entPrev, entries - 1);
  }
}

function grow<T extends Float64Array | Int32Array>(array: T, index: number): T {
  let capacity = array.length;
  while (capacity <= index) capacity *= 2;
  const next = new (array.constructor as new (n: number) => T)(capacity);
  next.set(array);
  return next;
}
