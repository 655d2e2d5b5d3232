import { EventHeap } from './event-heap.ts';

/** What the engine calls back: a collective's program reacts to its flows and timers. */
export interface FlowProgram {
  onTimer(engine: FlowEngine, tag: number): void;
  /** Flow `tag` has sent its last byte (now); `engine.arrivalSeconds()` tells when that byte arrives. */
  onFlowDone(engine: FlowEngine, tag: number): void;
}

/**
 * Flow–link visits (one flow's entry on one link read or updated while rates are recomputed) that
 * cost as much as one event. Measured on this repository's 2-core machine: a visit takes 12–25 ns
 * (the more flows, the fewer stay in cache: a 128-GPU all-to-all 12 ns, a 256-GPU one 25 ns), an
 * event of the 16,384-GPU ring about 0.25 µs with its 20 visits; at 16 visits an event, the budget
 * unit is 0.2–0.4 µs whatever dominates, so the default budget (10 M) is a few seconds at most.
 */
export const VISITS_PER_EVENT = 16;
/**
 * Events one flow in flight costs: a flow slot holds about 250 bytes (8 path entries of 20 bytes,
 * its rates and heap positions), so at 10 events per flow the default budget of 10 M holds at most
 * 1 M flows in flight, about 250 MB, and the HTTP API's 2 M about 50 MB.
 */
export const EVENTS_PER_FLOW_IN_FLIGHT = 10;

/** The budget a run spends, in events: its events, its most flows in flight and its flow–link visits. */
export const budgetUnits = (events: number, peakFlows: number, visits: number): number =>
  events + peakFlows * EVENTS_PER_FLOW_IN_FLIGHT + visits / VISITS_PER_EVENT;

/**
 * Events whose times differ by less than this fraction of the time run as one batch: their rate
 * changes are settled once (a flow finished that much early carries its last few bytes at once).
 */
const BATCH_TOLERANCE = 1e-12;

/**
 * The discrete-event core: flows of bytes on paths of links, link bandwidth shared max-min fairly
 * among the flow copies crossing it (a flow may stand for `weight` identical copies on a link; a
 * flow may also carry its own rate cap), computed by progressive filling (see `fill`). Two event
 * kinds: a timer (latency, a dependency) and a flow completion.
 *
 * A flow's completion is reported when its last byte leaves (its links are free from then on);
 * `arrivalSeconds` tells when that byte arrives (per-hop latency), so programs describe only what
 * they send.
 *
 * Events at the same time run as one batch: their flows start and end, and only then are rates
 * settled, once, for the flows on the links they touched (and, while rates fall, their
 * neighbours). A ring step that starts n flows at once therefore re-rates once, not n times.
 *
 * Work is counted as it is done — events, flow–link visits while re-rating, and the most flows in
 * flight at once — as one `cost` in events (VISITS_PER_EVENT, EVENTS_PER_FLOW_IN_FLIGHT), and
 * `run` stops when the cost passes its limit, so the limit bounds both time and memory whatever the
 * shape of the run. Memory: typed arrays grown by doubling and recycled through free lists.
 */
export class FlowEngine {
  now = 0;
  events = 0;
  /** Flow–link entries visited while re-rating and settling (see VISITS_PER_EVENT). */
  visits = 0;
  /** The most flows in flight at once so far. */
  peakFlows = 0;
  readonly linkBandwidth: Float64Array;
  /** Seconds of wire latency per link (a flow arrives their sum over its path after its last byte). */
  readonly linkLatency: Float64Array;
  /** Bytes × copies carried per link, for utilisation. */
  readonly linkBytes: Float64Array;
  /** Σ weight × rate of the flows on each link (kept as rates change, so a filling need not list them). */
  private readonly linkLoad: Float64Array;
  private readonly linkHead: Int32Array;

  // Flow slots; flow `id` owns path entries [id·MAX_PATH, id·MAX_PATH + length).
  private flowRemaining = new Float64Array(256);
  private flowRate = new Float64Array(256);
  private flowLast = new Float64Array(256);
  private flowCap = new Float64Array(256);
  private flowLength = new Int32Array(256);
  private flowProgram = new Int32Array(256);
  private flowTag = new Int32Array(256);
  private flowStamp = new Int32Array(256);
  private flowOldRate = new Float64Array(256);
  private flowFrozen = new Uint8Array(256);
  private freeFlows: number[] = [];
  private flowCount = 0;
  private live = 0;

  /** Path entries per flow slot: the longest route (topology-graph MAX_ROUTE_LINKS). */
  static readonly MAX_PATH = 8;
  private static readonly SHIFT = 3; // log2(MAX_PATH)
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

  // What the current batch changed: flows started, links whose flows changed.
  private pending = new Int32Array(64);
  private pendingCount = 0;
  private dirty = new Int32Array(64);
  private dirtyCount = 0;
  private readonly linkDirty: Int32Array;
  private batch = 1;

  private stamp = 0;
  private touched = new Int32Array(64);
  /** Rounds of progressive filling after the first, as flows whose rate fell pull in their neighbours. */
  private static readonly MAX_ROUNDS = 3;
  // Progressive-filling scratch, per link.
  private readonly linkStamp: Int32Array;
  private readonly linkScan: Int32Array;
  private scanStamp = 0;
  private readonly linkCapacity: Float64Array;
  private readonly linkWeight: Float64Array;
  private fillLinks = new Int32Array(64);
  private fillStamp = 0;
  private readonly linkHeap = new EventHeap();
  private readonly capHeap = new EventHeap();

  private limit = Number.POSITIVE_INFINITY;
  private exceeded = false;
  /** The flow whose completion onFlowDone is reporting (its slot intact until a flow starts); −1: none. */
  private done = -1;

  /** `linkLatency`: seconds per link (none: every link 0, a flow arrives as its last byte leaves). */
  constructor(linkBandwidth: Float64Array, linkLatency: Float64Array = new Float64Array(linkBandwidth.length)) {
    if (linkLatency.length !== linkBandwidth.length) throw new RangeError('linkLatency needs one entry per link');
    this.linkBandwidth = linkBandwidth;
    this.linkLatency = linkLatency;
    this.linkBytes = new Float64Array(linkBandwidth.length);
    this.linkLoad = new Float64Array(linkBandwidth.length);
    this.linkHead = new Int32Array(linkBandwidth.length).fill(-1);
    this.linkDirty = new Int32Array(linkBandwidth.length);
    this.linkStamp = new Int32Array(linkBandwidth.length);
    this.linkScan = new Int32Array(linkBandwidth.length);
    this.linkCapacity = new Float64Array(linkBandwidth.length);
    this.linkWeight = new Float64Array(linkBandwidth.length);
  }

  /** The work done so far, in events (see VISITS_PER_EVENT and EVENTS_PER_FLOW_IN_FLIGHT). */
  get cost(): number {
    return budgetUnits(this.events, this.peakFlows, this.visits);
  }

  /**
   * When the last byte of the flow onFlowDone reports arrives: now plus its path's wire latency,
   * the latencies of the links it crossed summed (ASTRA-sim's delay = hops·latency + chunk/bw, with
   * each hop's own latency; collectives-reference §4). Summed when asked, so a program that does
   * not ask (the ring's step barrier) pays nothing. Asked anywhere else, or once the program has
   * started a flow, it throws.
   */
  arrivalSeconds(): number {
    const id = this.done;
    if (id < 0) throw new Error('arrivalSeconds is for onFlowDone, before it starts a flow');
    let seconds = 0;
    const first = id << FlowEngine.SHIFT;
    const end = first + (this.flowLength[id] as number);
    for (let e = first; e < end; e++) seconds += this.linkLatency[this.entLink[e] as number] as number;
    return this.now + seconds;
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
   * Starts a flow of `bytes` over `path[at .. at + length)` now; `weights[at + i]` copies of it
   * cross link path[at + i] (1 for an ordinary flow). `capBytesPerSecond` bounds its rate
   * (Infinity: links only).
   * Its rate is set when the current batch of events settles. Past the cost limit no flow starts
   * (the run is over: `run` returns false).
   */
  flow(program: number, tag: number, bytes: number, path: Int32Array, length: number,
    weights: Float64Array | null, capBytesPerSecond: number, at = 0): void {
    if (length > FlowEngine.MAX_PATH) throw new RangeError(`a path has at most ${FlowEngine.MAX_PATH} links`);
    if (this.exceeded) return;
    this.done = -1; // the slot of the flow just finished may be reused
    const id = this.freeFlows.pop() ?? this.flowCount++;
    if (id >= this.flowRemaining.length) this.growFlows(id);
    if (++this.live > this.peakFlows) {
      this.peakFlows = this.live;
      if (this.cost > this.limit) this.exceeded = true;
    }
    this.flowRemaining[id] = bytes;
    this.flowLast[id] = this.now;
    this.flowRate[id] = 0;
    this.flowCap[id] = capBytesPerSecond;
    this.flowProgram[id] = program;
    this.flowTag[id] = tag;
    this.flowLength[id] = length;
    const first = id << FlowEngine.SHIFT;
    for (let i = 0; i < length; i++) {
      const e = first + i;
      const link = path[at + i] as number;
      this.entLink[e] = link;
      this.entWeight[e] = weights === null ? 1 : (weights[at + i] as number);
      const head = this.linkHead[link] as number;
      this.entNext[e] = head;
      this.entPrev[e] = -1;
      this.linkHead[link] = e;
      // Flows already on the link must be re-rated; on an empty link the new flow (pending) is all.
      if (head >= 0) { this.entPrev[head] = e; this.markLink(link); }
    }
    if (this.pendingCount >= this.pending.length) this.pending = grow(this.pending, this.pendingCount);
    this.pending[this.pendingCount++] = id;
  }

  private markLink(link: number): void {
    if (this.linkDirty[link] === this.batch) return;
    this.linkDirty[link] = this.batch;
    if (this.dirtyCount >= this.dirty.length) this.dirty = grow(this.dirty, this.dirtyCount);
    this.dirty[this.dirtyCount++] = link;
  }

  private mark(touched: number, id: number): number {
    if (touched >= this.touched.length) this.touched = grow(this.touched, touched);
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
      const first = id << FlowEngine.SHIFT;
      const end = first + (this.flowLength[id] as number);
      for (let e = first; e < end; e++) {
        const link = this.entLink[e] as number;
        this.linkBytes[link] = (this.linkBytes[link] as number) + moved * (this.entWeight[e] as number);
      }
    }
    this.flowLast[id] = now;
  }

  /** Re-rates the flows the batch started and the flows on the links it changed. */
  private settle(): void {
    if (this.pendingCount === 0 && this.dirtyCount === 0) return;
    const stamp = ++this.stamp;
    let count = 0;
    let visits = 0;
    for (let p = 0; p < this.pendingCount; p++) {
      const id = this.pending[p] as number;
      if (this.flowStamp[id] !== stamp) { this.flowStamp[id] = stamp; count = this.mark(count, id); }
    }
    // Every flow on a dirty link is touched now: the re-rating need not pull those links in again.
    const scan = ++this.scanStamp;
    for (let d = 0; d < this.dirtyCount; d++) {
      const link = this.dirty[d] as number;
      this.linkScan[link] = scan;
      for (let o = this.linkHead[link] as number; o >= 0; o = this.entNext[o] as number) {
        visits++;
        const other = o >> FlowEngine.SHIFT;
        if (this.flowStamp[other] !== stamp) { this.flowStamp[other] = stamp; count = this.mark(count, other); }
      }
    }
    this.pendingCount = 0;
    this.dirtyCount = 0;
    this.batch++;
    this.visits += visits;
    if (count > 0) this.rerate(count);
  }

  /**
   * Max-min fair rates for the touched flows (`touched[0..count)`, stamped with `this.stamp`): the
   * capacity the untouched flows leave is shared by progressive filling (`fill`). A flow whose
   * rate fell leaves capacity on its other links, so the flows there join and the filling runs
   * again (at most MAX_ROUNDS times; past that the untouched flows keep rates that are feasible,
   * possibly below their max-min share).
   */
  private rerate(count: number): void {
    const stamp = this.stamp;
    const scan = this.scanStamp;
    let visits = 0;
    for (let t = 0; t < count; t++) {
      const id = this.touched[t] as number;
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
        const first = id << FlowEngine.SHIFT;
        const end = first + (this.flowLength[id] as number);
        for (let e = first; e < end; e++) {
          const link = this.entLink[e] as number;
          // Each link's flows are pulled in once per re-rating, however many of its flows fell.
          if (this.linkScan[link] === scan) continue;
          this.linkScan[link] = scan;
          for (let o = this.linkHead[link] as number; o >= 0; o = this.entNext[o] as number) {
            visits++;
            const other = o >> FlowEngine.SHIFT;
            if (this.flowStamp[other] === stamp) continue;
            this.flowStamp[other] = stamp;
            count = this.mark(count, other);
            this.flowOldRate[other] = this.flowRate[other] as number;
          }
        }
      }
      done = before;
      if (count === before) break;
    }
    // Only flows whose rate changed move: each is advanced to now at its old rate and gets a new
    // finish time; the others keep theirs (same rate, same finish).
    const now = this.now;
    for (let t = 0; t < count; t++) {
      const id = this.touched[t] as number;
      const rate = this.flowRate[id] as number;
      const old = this.flowOldRate[id] as number;
      if (rate === old && this.flows.has(id)) continue;
      if (old > 0) {
        this.flowRate[id] = old;
        this.advance(id);
        this.flowRate[id] = rate;
      } else {
        this.flowLast[id] = now; // nothing moved at rate 0 (a new or stalled flow)
      }
      const first = id << FlowEngine.SHIFT;
      const end = first + (this.flowLength[id] as number);
      for (let e = first; e < end; e++) {
        const link = this.entLink[e] as number;
        this.linkLoad[link] = (this.linkLoad[link] as number) + (this.entWeight[e] as number) * (rate - old);
      }
      visits += end - first;
      const remaining = this.flowRemaining[id] as number;
      this.flows.set(id, remaining <= 0 ? now : rate > 0 ? now + remaining / rate : Number.POSITIVE_INFINITY);
    }
    this.visits += visits;
  }

  /**
   * One progressive filling over touched[0..count) (Bertsekas & Gallager, Data Networks, 2nd ed.,
   * §6.5.2): on the links those flows cross, the capacity left by the untouched flows is shared;
   * all unfrozen flows rise together until a link fills (the least share capacity ÷ weight, kept
   * in a heap of links) or a flow meets its own cap (a heap of caps); those freeze and the rest
   * rise on. O((entries + links) log links) rather than a scan of every link per level, except
   * for small fillings, which scan.
   */
  private fill(count: number, stamp: number): void {
    let links = 0;
    let visits = 0;
    const linkStamp = ++this.fillStamp;
    for (let t = 0; t < count; t++) {
      const id = this.touched[t] as number;
      this.flowFrozen[id] = 0;
      const first = id << FlowEngine.SHIFT;
      const end = first + (this.flowLength[id] as number);
      for (let e = first; e < end; e++) {
        const link = this.entLink[e] as number;
        if (this.linkStamp[link] !== linkStamp) {
          this.linkStamp[link] = linkStamp;
          if (links >= this.fillLinks.length) this.fillLinks = grow(this.fillLinks, links);
          this.fillLinks[links++] = link;
          // What every flow's current rate takes; the touched flows' share is given back below.
          this.linkCapacity[link] = (this.linkBandwidth[link] as number) - (this.linkLoad[link] as number);
          this.linkWeight[link] = 0;
        }
        const weight = this.entWeight[e] as number;
        this.linkCapacity[link] = (this.linkCapacity[link] as number) + weight * (this.flowOldRate[id] as number);
        this.linkWeight[link] = (this.linkWeight[link] as number) + weight;
      }
      visits += end - first;
    }
    const linkHeap = this.linkHeap;
    const capHeap = this.capHeap;
    // A link whose share is already at least every touched flow's cap can never be the bottleneck
    // (shares only rise, and a flow at its cap freezes first): only the others are candidates.
    let maxCap = 0;
    for (let t = 0; t < count; t++) {
      const cap = this.flowCap[this.touched[t] as number] as number;
      if (cap > maxCap) maxCap = cap;
    }
    let candidates = 0;
    for (let i = 0; i < links; i++) {
      const link = this.fillLinks[i] as number;
      if (!((this.linkCapacity[link] as number) > 0)) this.linkCapacity[link] = 0;
      const weight = this.linkWeight[link] as number;
      if (weight > WEIGHT_EPSILON && (this.linkCapacity[link] as number) < maxCap * weight) this.fillLinks[candidates++] = link;
    }
    // A small filling (a ring step's few flows) scans its candidate links and caps at each level; a
    // large one keeps them in heaps. Both pick the same bottleneck.
    const small = candidates <= SMALL_FILL && count <= SMALL_FILL;
    if (!small) {
      for (let i = 0; i < candidates; i++) {
        const link = this.fillLinks[i] as number;
        linkHeap.set(link, (this.linkCapacity[link] as number) / (this.linkWeight[link] as number));
      }
    }
    if (!small) {
      for (let t = 0; t < count; t++) {
        const id = this.touched[t] as number;
        const cap = this.flowCap[id] as number;
        if (cap < Number.POSITIVE_INFINITY) capHeap.set(id, cap);
      }
    }
    let unfrozen = count;
    while (unfrozen > 0) {
      let share = Number.POSITIVE_INFINITY;
      let link = -1;
      let cap = Number.POSITIVE_INFINITY;
      let capped = -1;
      if (small) {
        for (let i = 0; i < candidates; i++) {
          const l = this.fillLinks[i] as number;
          const weight = this.linkWeight[l] as number;
          if (weight <= WEIGHT_EPSILON) continue;
          const s = (this.linkCapacity[l] as number) / weight;
          if (s < share) { share = s; link = l; }
        }
        for (let t = 0; t < count; t++) {
          const id = this.touched[t] as number;
          if (this.flowFrozen[id] === 0 && (this.flowCap[id] as number) < cap) { cap = this.flowCap[id] as number; capped = id; }
        }
      } else {
        // Shares only rise as flows freeze (a flow freezes at a level ≤ every share it crosses), so
        // the heap is re-keyed lazily: a link whose key is stale is re-keyed when it reaches the top.
        while (linkHeap.size > 0) {
          const top = linkHeap.topId();
          const weight = this.linkWeight[top] as number;
          if (weight <= WEIGHT_EPSILON) { linkHeap.pop(); continue; }
          const current = (this.linkCapacity[top] as number) / weight;
          if (current > linkHeap.topKey()) { linkHeap.set(top, current); continue; }
          share = current;
          link = top;
          break;
        }
        if (capHeap.size > 0) { cap = capHeap.topKey(); capped = capHeap.topId(); }
      }
      if (link < 0 && capped < 0) {
        // What is left crosses no link and has no cap (a zero-length path): it completes at once.
        for (let t = 0; t < count; t++) {
          const id = this.touched[t] as number;
          if (this.flowFrozen[id] === 0) { this.flowFrozen[id] = 1; this.flowRate[id] = Number.POSITIVE_INFINITY; }
        }
        break;
      }
      if (cap <= share) {
        if (!small) capHeap.pop(); // capped is its top
        visits += this.freeze(capped, cap);
        unfrozen--;
        continue;
      }
      // The link that fills first: every unfrozen touched flow on it freezes at its share.
      const level = share > 0 ? share : 0;
      for (let o = this.linkHead[link] as number; o >= 0; o = this.entNext[o] as number) {
        visits++;
        const id = o >> FlowEngine.SHIFT;
        if (this.flowStamp[id] !== stamp || this.flowFrozen[id] !== 0) continue;
        // A large filling keyed every capped flow in the cap heap; a small one keyed none.
        if (!small && (this.flowCap[id] as number) < Number.POSITIVE_INFINITY) capHeap.remove(id);
        visits += this.freeze(id, level);
        unfrozen--;
      }
      this.linkWeight[link] = 0;
      if (!small) linkHeap.remove(link);
    }
    linkHeap.clear();
    capHeap.clear();
    this.visits += visits;
  }

  /**
   * Freezes flow `id` at `level`: its links lose that much capacity and its weight (their heap keys
   * are refreshed lazily, see `fill`; `fill` also takes the flow out of the cap heap). Returns the
   * visits.
   */
  private freeze(id: number, level: number): number {
    this.flowFrozen[id] = 1;
    this.flowRate[id] = level;
    const first = id << FlowEngine.SHIFT;
    const end = first + (this.flowLength[id] as number);
    for (let e = first; e < end; e++) {
      const link = this.entLink[e] as number;
      const weight = this.entWeight[e] as number;
      const capacity = (this.linkCapacity[link] as number) - weight * level;
      this.linkCapacity[link] = capacity > 0 ? capacity : 0;
      const left = (this.linkWeight[link] as number) - weight;
      this.linkWeight[link] = left > WEIGHT_EPSILON ? left : 0;
    }
    return end - first;
  }

  private finishFlow(id: number): void {
    this.advance(id);
    const first = id << FlowEngine.SHIFT;
    const length = this.flowLength[id] as number;
    // Whatever rounding (or batching) left unmoved is carried now: the flow is done.
    const rest = this.flowRemaining[id] as number;
    const rate = this.flowRate[id] as number;
    this.flowRate[id] = 0;
    for (let e = first; e < first + length; e++) {
      const link = this.entLink[e] as number;
      const weight = this.entWeight[e] as number;
      if (rest > 0) this.linkBytes[link] = (this.linkBytes[link] as number) + rest * weight;
      const prev = this.entPrev[e] as number;
      const next = this.entNext[e] as number;
      if (prev >= 0) this.entNext[prev] = next; else this.linkHead[link] = next;
      if (next >= 0) this.entPrev[next] = prev;
      // The link's allocated rate; exactly 0 once empty, so rounding does not build up. The flows
      // left on it (if any) get a new rate.
      if (this.linkHead[link] === -1) {
        this.linkLoad[link] = 0;
      } else {
        this.linkLoad[link] = (this.linkLoad[link] as number) - weight * rate;
        this.markLink(link);
      }
    }
    this.visits += length;
    this.flows.remove(id);
    this.freeFlows.push(id);
    this.live--;
  }

  /**
   * Runs until no event is left or the cost passes `limit` (events; see `cost`). Returns false
   * when the limit stopped it (the caller reports the limit).
   */
  run(limit: number): boolean {
    this.limit = limit;
    const flows = this.flows;
    const timers = this.timers;
    this.settle();
    for (;;) {
      if (this.exceeded || this.cost > limit) { this.exceeded = true; return false; }
      const flowAt = flows.size > 0 ? flows.topKey() : Number.POSITIVE_INFINITY;
      const timerAt = timers.size > 0 ? timers.topKey() : Number.POSITIVE_INFINITY;
      const at = Math.min(flowAt, timerAt);
      if (at === Number.POSITIVE_INFINITY) {
        if (flows.size > 0) throw new Error('flows are stalled on zero-bandwidth links');
        return true;
      }
      this.now = at;
      const horizon = at + Math.abs(at) * BATCH_TOLERANCE;
      for (;;) {
        if (timers.size > 0 && timers.topKey() <= horizon) {
          const id = timers.topId();
          timers.pop();
          this.events++;
          const program = this.timerProgram[id] as number;
          const tag = this.timerTag[id] as number;
          this.freeTimers.push(id);
          (this.programs[program] as FlowProgram).onTimer(this, tag);
        } else if (flows.size > 0 && flows.topKey() <= horizon) {
          const id = flows.topId();
          this.events++;
          const program = this.flowProgram[id] as number;
          const tag = this.flowTag[id] as number;
          this.finishFlow(id);
          this.done = id;
          (this.programs[program] as FlowProgram).onFlowDone(this, tag);
          this.done = -1;
        } else {
          break;
        }
        if (this.exceeded || this.cost > limit) { this.exceeded = true; return false; }
      }
      this.settle();
    }
  }

  private growFlows(id: number): void {
    this.flowRemaining = grow(this.flowRemaining, id); this.flowRate = grow(this.flowRate, id);
    this.flowLast = grow(this.flowLast, id); this.flowCap = grow(this.flowCap, id);
    this.flowLength = grow(this.flowLength, id);
    this.flowProgram = grow(this.flowProgram, id); this.flowTag = grow(this.flowTag, id);
    this.flowStamp = grow(this.flowStamp, id);
    this.flowOldRate = grow(this.flowOldRate, id); this.flowFrozen = grow(this.flowFrozen, id);
    const entries = this.flowRemaining.length * FlowEngine.MAX_PATH;
    this.entLink = grow(this.entLink, entries - 1); this.entWeight = grow(this.entWeight, entries - 1);
    this.entNext = grow(this.entNext, entries - 1); this.entPrev = grow(this.entPrev, entries - 1);
  }
}

/** A link weight at or below this counts as no flow left on it (weights are copy counts ≥ 1/n). */
const WEIGHT_EPSILON = 1e-9;
/** Up to this many links and flows a filling scans rather than keeping heaps (fewer operations when small). */
const SMALL_FILL = 32;

/** `array` with room for `index` (doubled until it fits), its contents kept. */
export function grow<T extends Float64Array | Int32Array | Uint8Array>(array: T, index: number): T {
  let capacity = array.length;
  while (capacity <= index) capacity *= 2;
  const next = new (array.constructor as new (n: number) => T)(capacity);
  next.set(array);
  return next;
}
