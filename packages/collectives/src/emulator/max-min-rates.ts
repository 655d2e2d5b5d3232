import { EventHeap } from './event-heap.ts';
import { FlowTable } from './flow-table.ts';
import { grow } from './grow.ts';

/**
 * The flow engine's rate allocation (FlowEngine, flow-engine.ts): max-min fair rates by
 * progressive filling (`fill`), and each flow's finish time at its rate. A batch of events records
 * the flows it started and the links whose flows changed; `settle` then re-rates, once, the flows
 * on those links (and, while rates fall, their neighbours).
 */
export class MaxMinRates extends FlowTable {
  /** Each flow in flight keyed by when its last byte leaves at its current rate. */
  protected readonly flows = new EventHeap();

  // What the current batch changed: flows started, links whose flows changed.
  protected pending = new Int32Array(64);
  protected pendingCount = 0;
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

  constructor(linkBandwidth: Float64Array, linkLatency?: Float64Array) {
    super(linkBandwidth, linkLatency);
    this.linkDirty = new Int32Array(linkBandwidth.length);
    this.linkStamp = new Int32Array(linkBandwidth.length);
    this.linkScan = new Int32Array(linkBandwidth.length);
    this.linkCapacity = new Float64Array(linkBandwidth.length);
    this.linkWeight = new Float64Array(linkBandwidth.length);
  }

  protected markLink(link: number): void {
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

  /** Re-rates the flows the batch started and the flows on the links it changed. */
  protected settle(): void {
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
        const other = o >> FlowTable.SHIFT;
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
      if (round >= MaxMinRates.MAX_ROUNDS) break;
      // Flows whose rate fell free capacity: the flows sharing their links may now rise.
      const before = count;
      for (let t = done; t < before; t++) {
        const id = this.touched[t] as number;
        if ((this.flowRate[id] as number) >= (this.flowOldRate[id] as number) * (1 - 1e-9)) continue;
        const first = id << FlowTable.SHIFT;
        const end = first + (this.flowLength[id] as number);
        for (let e = first; e < end; e++) {
          const link = this.entLink[e] as number;
          // Each link's flows are pulled in once per re-rating, however many of its flows fell.
          if (this.linkScan[link] === scan) continue;
          this.linkScan[link] = scan;
          for (let o = this.linkHead[link] as number; o >= 0; o = this.entNext[o] as number) {
            visits++;
            const other = o >> FlowTable.SHIFT;
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
      const first = id << FlowTable.SHIFT;
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
      const first = id << FlowTable.SHIFT;
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
        const id = o >> FlowTable.SHIFT;
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
    const first = id << FlowTable.SHIFT;
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
}

/** A link weight at or below this counts as no flow left on it (weights are copy counts ≥ 1/n). */
const WEIGHT_EPSILON = 1e-9;
/** Up to this many links and flows a filling scans rather than keeping heaps (fewer operations when small). */
const SMALL_FILL = 32;
