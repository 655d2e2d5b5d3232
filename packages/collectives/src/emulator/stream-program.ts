import { MAX_ROUTE_LINKS } from '../topology/topology-graph.ts';
import { grow, type FlowEngine, type FlowProgram } from './flow-engine.ts';

/**
 * Pipelined transfers, flat (about 50 bytes each, not an object per flow): flow f carries
 * `bytes[f]` over `paths[f·MAX_ROUTE_LINKS …]` (`lengths[f]` links), at most `caps[f]` bytes/s.
 */
export class FlowSet {
  count = 0;
  paths = new Int32Array(16 * MAX_ROUTE_LINKS);
  lengths = new Uint8Array(16);
  bytes = new Float64Array(16);
  caps = new Float64Array(16);

  /** Room for one more flow; returns its index (its path is written at index·MAX_ROUTE_LINKS). */
  reserve(): number {
    const f = this.count;
    if (f >= this.lengths.length) {
      this.paths = grow(this.paths, (f + 1) * MAX_ROUTE_LINKS - 1);
      this.lengths = grow(this.lengths, f);
      this.bytes = grow(this.bytes, f);
      this.caps = grow(this.caps, f);
    }
    return f;
  }

  /** Commits flow `f` (from `reserve`, its path already written). */
  commit(f: number, length: number, bytes: number, capBytesPerSecond: number): void {
    this.lengths[f] = length;
    this.bytes[f] = bytes;
    this.caps[f] = capBytesPerSecond;
    this.count = f + 1;
  }
}

/** A phase: after `latencySeconds`, all its flows stream at once; it ends when the last arrives. */
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
 * hierarchical all-reduce's three steps).
 */
export class StreamProgram implements FlowProgram {
  finishedAt = -1;
  private programId = -1;
  private phase = 0;
  private left = 0;
  /** When the current phase's last chunk arrives, so far. */
  private arrival = 0;

  constructor(private readonly phases: readonly StreamPhase[]) {}

  /** Events this program will run: one timer per phase, one completion per flow. */
  get events(): number {
    return this.phases.reduce((sum, p) => sum + 1 + p.flows.count, 0);
  }

  /** The most flows it has in flight at once: its largest phase. */
  get peakFlows(): number {
    return this.phases.reduce((most, p) => Math.max(most, p.flows.count), 0);
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

  onTimer(engine: FlowEngine): void {
    const phase = this.phases[this.phase];
    if (!phase) return;
    const f = phase.flows;
    this.left = f.count;
    this.arrival = engine.now;
    if (this.left === 0) { this.phase++; this.next(engine, 0); return; }
    for (let i = 0; i < f.count; i++) {
      engine.flow(this.programId, i, f.bytes[i] as number, f.paths, f.lengths[i] as number, null, f.caps[i] as number, i * MAX_ROUTE_LINKS);
    }
  }

  onFlowDone(engine: FlowEngine): void {
    const arrival = engine.arrivalSeconds();
    if (arrival > this.arrival) this.arrival = arrival;
    if (--this.left > 0) return;
    this.phase++;
    this.next(engine, this.arrival - engine.now);
  }
}
