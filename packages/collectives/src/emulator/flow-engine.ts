import { EventHeap } from './event-heap.ts';
import { grow } from './grow.ts';
import { MaxMinRates } from './max-min-rates.ts';

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
 * flow may also carry its own rate cap), computed by progressive filling (MaxMinRates' `fill`). Two event
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
 *
 * Its storage is FlowTable's (flow-table.ts), its rates MaxMinRates' (max-min-rates.ts); this layer
 * holds the programs, the timers and the event loop.
 */
export class FlowEngine extends MaxMinRates {
  events = 0;
  /** The most flows in flight at once so far. */
  peakFlows = 0;

  // Timers.
  private timerProgram = new Int32Array(256);
  private timerTag = new Int32Array(256);
  private freeTimers: number[] = [];
  private timerCount = 0;

  private readonly timers = new EventHeap();
  private readonly programs: FlowProgram[] = [];

  private limit = Number.POSITIVE_INFINITY;
  private exceeded = false;
  /** The flow whose completion onFlowDone is reporting (its slot intact until a flow starts); −1: none. */
  private done = -1;

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
}
