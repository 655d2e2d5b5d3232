import type { FlowEngine, FlowProgram } from './flow-engine.ts';

/** One pipelined transfer: `bytes` over a path of links, at most `capBytesPerSecond`. */
export interface StreamFlow {
  readonly path: Int32Array;
  readonly length: number;
  readonly bytes: number;
  readonly capBytesPerSecond: number;
}

/** A phase: after `latencySeconds`, all its flows stream at once; it ends when the last arrives. */
export interface StreamPhase {
  readonly latencySeconds: number;
  readonly flows: readonly StreamFlow[];
}

/**
 * A pipelined collective in the fluid limit (collectives-reference §7.3, ASTRA-sim's "chunk as
 * flow" at chunk → 0): NCCL cuts the buffer into chunks and streams them down every edge of its
 * tree, chain or switch fan-in at once, so in steady state each edge carries its whole share
 * concurrently with the others. A phase therefore waits the algorithm's pipeline-fill latency (NCCL's
 * model) and then runs one flow per edge, all together, sharing links max-min fairly with everything
 * else in flight. Phases run one after another (the hierarchical all-reduce's three steps).
 */
export class StreamProgram implements FlowProgram {
  finishedAt = -1;
  private programId = -1;
  private phase = 0;
  private left = 0;

  constructor(private readonly phases: readonly StreamPhase[]) {}

  /** Events this program will run: one timer per phase, one completion per flow. */
  get events(): number {
    return this.phases.reduce((sum, p) => sum + 1 + p.flows.length, 0);
  }

  start(engine: FlowEngine): void {
    this.programId = engine.addProgram(this);
    this.next(engine);
  }

  private next(engine: FlowEngine): void {
    const phase = this.phases[this.phase];
    if (!phase) { this.finishedAt = engine.now; return; }
    engine.timer(this.programId, this.phase, phase.latencySeconds);
  }

  onTimer(engine: FlowEngine): void {
    const phase = this.phases[this.phase];
    if (!phase) return;
    this.left = phase.flows.length;
    if (this.left === 0) { this.phase++; this.next(engine); return; }
    for (const f of phase.flows) engine.flow(this.programId, this.phase, f.bytes, f.path, f.length, null, f.capBytesPerSecond);
  }

  onFlowDone(engine: FlowEngine): void {
    if (--this.left > 0) return;
    this.phase++;
    this.next(engine);
  }
}
