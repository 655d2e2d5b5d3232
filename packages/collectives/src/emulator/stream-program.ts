import { MAX_ROUTE_LINKS } from '../topology/topology-graph.ts';
import type { FlowEngine, FlowProgram } from './flow-engine.ts';
import { grow } from './grow.ts';

/**
 * Pipelined transfers, flat (about 60 bytes each, not an object per flow): flow f carries
 * `bytes[f]` over `paths[f·MAX_ROUTE_LINKS …]` (`lengths[f]` links), at most `caps[f]` bytes/s,
 * starting `starts[f]` seconds after its phase's latency (0 for most: all at once).
 */
export class FlowSet {
  count = 0;
  paths = new Int32Array(16 * MAX_ROUTE_LINKS);
  lengths = new Uint8Array(16);
  bytes = new Float64Array(16);
  caps = new Float64Array(16);
  starts = new Float64Array(16);
  /** Flows with a start after their phase's (each is one timer event more). */
  delayed = 0;

  /** Room for one more flow; returns its index (its path is written at index·MAX_ROUTE_LINKS). */
  reserve(): number {
    const f = this.count;
    if (f >= this.lengths.length) {
      this.paths = grow(this.paths, (f + 1) * MAX_ROUTE_LINKS - 1);
      this.lengths = grow(this.lengths, f);
      this.bytes = grow(this.bytes, f);
      this.caps = grow(this.caps, f);
      this.starts = grow(this.starts, f);
    }
    return f;
  }

  /** Commits flow `f` (from `reserve`, its path already written), to start `startSeconds` after its phase's latency. */
  commit(f: number, length: number, bytes: number, capBytesPerSecond: number, startSeconds = 0): void {
    this.lengths[f] = length;
    this.bytes[f] = bytes;
    this.caps[f] = capBytesPerSecond;
    this.starts[f] = startSeconds;
    if (startSeconds > 0) this.delayed++;
    this.count = f + 1;
  }
}

/** A phase: after `latencySeconds`, its flows stream, each from its own start (FlowSet.starts); it ends when the last arrives. */
export interface StreamPhase {
  readonly latencySeconds: number;
  readonly flows: FlowSet;
}

/**
 * A pipelined collective in the fluid limit (collectives-reference §7.3, ASTRA-sim's "chunk as
 * flow" at chunk → 0): NCCL cuts the buffer into chunks and streams them down every edge of its
 * tree, chain or switch fan-in at once, so in steady state each edge carries its whole share
 * concurrently with the others. A phase therefore waits the algorithm's pipeline-fill latency (NCCL's
 * model) and then runs one flow per edge, all together, sharing links max-min fairly with everything
 * else in flight; it ends when the last chunk arrives, its route's wire latency after its last byte
 * left (the engine's arrival time: per-hop latency). Phases run one after another (the
 * hierarchical all-reduce's three steps). A chain (ring broadcast, reduce) starts each edge's flow
 * only once the first chunk has come down the hops before it (FlowSet.starts): the pipeline's fill.
 */
export class StreamProgram implements FlowProgram {
  finishedAt = -1;
  private programId = -1;
  private phase = 0;
  private left = 0;
  /** When the current phase's last chunk arrives, so far. */
  private arrival = 0;

  constructor(private readonly phases: readonly StreamPhase[]) {}

  /** Events this program will run: one timer per phase and per delayed flow, one completion per flow. */
  get events(): number {
    return this.phases.reduce((sum, p) => sum + 1 + p.flows.count + p.flows.delayed, 0);
  }

  /**
   * A lower bound on the most flows it has in flight at once (the budget's claim must not overstate): a phase
   * whose flows start together has them all in flight; where starts are staggered (a chain), the most whose
   * spans overlap, a flow lasting at least bytes / its cap.
   */
  get peakFlows(): number {
    return this.phases.reduce((most, p) => Math.max(most, p.flows.delayed === 0 ? p.flows.count : staggeredPeak(p.flows)), 0);
  }

  start(engine: FlowEngine): void {
    this.programId = engine.addProgram(this);
    this.next(engine, 0);
  }

  private next(engine: FlowEngine, waitSeconds: number): void {
    const phase = this.phases[this.phase];
    if (!phase) { this.finishedAt = engine.now + waitSeconds; return; }
    engine.timer(this.programId, this.phase, waitSeconds + phase.latencySeconds);
  }

  /** Tag ≥ 0: phase `tag` starts; tag −(i + 1): the phase's delayed flow i starts. */
  onTimer(engine: FlowEngine, tag: number): void {
    const phase = this.phases[this.phase];
    if (!phase) return;
    const f = phase.flows;
    if (tag < 0) { this.startFlow(engine, f, -tag - 1); return; }
    this.left = f.count;
    this.arrival = engine.now;
    if (this.left === 0) { this.phase++; this.next(engine, 0); return; }
    for (let i = 0; i < f.count; i++) {
      const start = f.starts[i] as number;
      if (start > 0) engine.timer(this.programId, -(i + 1), start);
      else this.startFlow(engine, f, i);
    }
  }

  private startFlow(engine: FlowEngine, f: FlowSet, i: number): void {
    engine.flow(this.programId, i, f.bytes[i] as number, f.paths, f.lengths[i] as number, null, f.caps[i] as number, i * MAX_ROUTE_LINKS);
  }

  onFlowDone(engine: FlowEngine): void {
    const arrival = engine.arrivalSeconds();
    if (arrival > this.arrival) this.arrival = arrival;
    if (--this.left > 0) return;
    this.phase++;
    this.next(engine, this.arrival - engine.now);
  }
}

/** The most of `f`'s flows in flight at once at the least: the deepest overlap of [start, start + bytes / cap). */
function staggeredPeak(f: FlowSet): number {
  const starts = f.starts.slice(0, f.count).sort();
  const ends = new Float64Array(f.count);
  for (let i = 0; i < f.count; i++) ends[i] = (f.starts[i] as number) + (f.bytes[i] as number) / (f.caps[i] as number);
  ends.sort();
  // Two pointers over the sorted starts and ends; an end at a start's instant comes first (not in flight together).
  let most = 0;
  for (let s = 0, e = 0; s < starts.length; s++) {
    while (e < ends.length && (ends[e] as number) <= (starts[s] as number)) e++;
    most = Math.max(most, s + 1 - e);
  }
  return most;
}
