import { MAX_ROUTE_LINKS, railOfGpu, routeInto, type TopologyGraph } from '../topology/topology-graph.ts';
import type { FlowEngine, FlowProgram } from './flow-engine.ts';

/**
 * Grouped point-to-point sends, all posted at once (NCCL's all-to-all and send/recv;
 * collectives-reference §7.4): one flow per (source, destination) pair, each after NCCL's one-step
 * latency plus the per-post network overhead of the remote peers posted before it
 * (src/tuning/ring.cc getNetOverhead), on the sender's own rail across nodes. A pair's data
 * arrives its route's wire latency after its last byte leaves (the engine's arrival time: per-hop
 * latency); the start times hold NCCL's latency less the wire it already includes (see
 * emulate-collectives.ts).
 */
export class DirectProgram implements FlowProgram {
  finishedAt = -1;
  private programId = -1;
  private readonly path = new Int32Array(MAX_ROUTE_LINKS);

  constructor(
    private readonly topology: TopologyGraph,
    private readonly pairs: Int32Array,
    private readonly pairBytes: number,
    private readonly startSeconds: Float64Array,
  ) {}

  start(engine: FlowEngine): void {
    this.programId = engine.addProgram(this);
    if (this.pairs.length === 0) { this.finishedAt = engine.now; return; }
    for (let p = 0; p < this.pairs.length / 2; p++) engine.timer(this.programId, p, this.startSeconds[p] as number);
  }

  onTimer(engine: FlowEngine, pair: number): void {
    const t = this.topology;
    const src = this.pairs[2 * pair] as number;
    const dst = this.pairs[2 * pair + 1] as number;
    const length = routeInto(t, src, dst, railOfGpu(t, src), this.path);
    engine.flow(this.programId, pair, this.pairBytes, this.path, length, null, Number.POSITIVE_INFINITY);
  }

  onFlowDone(engine: FlowEngine): void {
    const arrival = engine.arrivalSeconds();
    if (arrival > this.finishedAt) this.finishedAt = arrival;
  }
}
