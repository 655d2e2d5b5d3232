import { grow } from './grow.ts';

/**
 * The flow engine's storage (FlowEngine, flow-engine.ts): per link its bandwidth, latency, bytes
 * carried and allocated rate, and the list of flow path entries crossing it; per flow a slot of
 * typed arrays (bytes left, rate, cap, …) and its path entries. Typed arrays grown by doubling and
 * recycled through free lists.
 *
 * The engine is one object split by concern over three files, each layer a subclass of the one
 * below: this storage, the rate allocation (max-min-rates.ts) and the event loop (flow-engine.ts).
 * Its hot loops read these arrays straight off `this`, as they did in one class.
 */
export class FlowTable {
  now = 0;
  /** Flow–link entries visited while re-rating and settling (see VISITS_PER_EVENT). */
  visits = 0;
  readonly linkBandwidth: Float64Array;
  /** Seconds of wire latency per link (a flow arrives their sum over its path after its last byte). */
  readonly linkLatency: Float64Array;
  /** Bytes × copies carried per link, for utilisation. */
  readonly linkBytes: Float64Array;
  /** Σ weight × rate of the flows on each link (kept as rates change, so a filling need not list them). */
  protected readonly linkLoad: Float64Array;
  protected readonly linkHead: Int32Array;

  // Flow slots; flow `id` owns path entries [id·MAX_PATH, id·MAX_PATH + length).
  protected flowRemaining = new Float64Array(256);
  protected flowRate = new Float64Array(256);
  protected flowLast = new Float64Array(256);
  protected flowCap = new Float64Array(256);
  protected flowLength = new Int32Array(256);
  protected flowProgram = new Int32Array(256);
  protected flowTag = new Int32Array(256);
  protected flowStamp = new Int32Array(256);
  protected flowOldRate = new Float64Array(256);
  protected flowFrozen = new Uint8Array(256);
  protected freeFlows: number[] = [];
  protected flowCount = 0;
  protected live = 0;

  /** Path entries per flow slot: the longest route (topology-graph MAX_ROUTE_LINKS). */
  static readonly MAX_PATH = 8;
  protected static readonly SHIFT = 3; // log2(MAX_PATH)
  protected entLink = new Int32Array(256 * FlowTable.MAX_PATH);
  protected entWeight = new Float64Array(256 * FlowTable.MAX_PATH);
  protected entNext = new Int32Array(256 * FlowTable.MAX_PATH);
  protected entPrev = new Int32Array(256 * FlowTable.MAX_PATH);

  /** `linkLatency`: seconds per link (none: every link 0, a flow arrives as its last byte leaves). */
  constructor(linkBandwidth: Float64Array, linkLatency: Float64Array = new Float64Array(linkBandwidth.length)) {
    if (linkLatency.length !== linkBandwidth.length) throw new RangeError('linkLatency needs one entry per link');
    this.linkBandwidth = linkBandwidth;
    this.linkLatency = linkLatency;
    this.linkBytes = new Float64Array(linkBandwidth.length);
    this.linkLoad = new Float64Array(linkBandwidth.length);
    this.linkHead = new Int32Array(linkBandwidth.length).fill(-1);
  }

  /** Moves a flow's progress up to now at its current rate (bytes on its links for utilisation). */
  protected advance(id: number): void {
    const now = this.now;
    const rate = this.flowRate[id] as number;
    const elapsed = now - (this.flowLast[id] as number);
    if (rate > 0 && elapsed > 0) {
      const moved = Math.min(rate * elapsed, this.flowRemaining[id] as number);
      this.flowRemaining[id] = (this.flowRemaining[id] as number) - moved;
      const first = id << FlowTable.SHIFT;
      const end = first + (this.flowLength[id] as number);
      for (let e = first; e < end; e++) {
        const link = this.entLink[e] as number;
        this.linkBytes[link] = (this.linkBytes[link] as number) + moved * (this.entWeight[e] as number);
      }
    }
    this.flowLast[id] = now;
  }

  protected growFlows(id: number): void {
    this.flowRemaining = grow(this.flowRemaining, id); this.flowRate = grow(this.flowRate, id);
    this.flowLast = grow(this.flowLast, id); this.flowCap = grow(this.flowCap, id);
    this.flowLength = grow(this.flowLength, id);
    this.flowProgram = grow(this.flowProgram, id); this.flowTag = grow(this.flowTag, id);
    this.flowStamp = grow(this.flowStamp, id);
    this.flowOldRate = grow(this.flowOldRate, id); this.flowFrozen = grow(this.flowFrozen, id);
    const entries = this.flowRemaining.length * FlowTable.MAX_PATH;
    this.entLink = grow(this.entLink, entries - 1); this.entWeight = grow(this.entWeight, entries - 1);
    this.entNext = grow(this.entNext, entries - 1); this.entPrev = grow(this.entPrev, entries - 1);
  }
}
