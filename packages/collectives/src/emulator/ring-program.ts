import { MAX_ROUTE_LINKS, gpuNode, railOfLocalGpu, routeInto, type TopologyGraph } from '../topology/topology-graph.ts';
import type { FlowEngine, FlowProgram } from './flow-engine.ts';

/** One channel's ring: the GPUs in ring order and the NIC rail it crosses nodes on. */
export interface RingChannel {
  readonly order: Int32Array;
  readonly rail: number;
}

/**
 * NCCL-style rings over a group laid out node by node (Megatron/NCCL rank order): channel c visits
 * each node's GPUs rotated by c, entering and leaving every node on the rail of its entry GPU
 * (NCCL_CROSS_NIC=0), so channels spread over the rails (src/graph/search.cc rings on DGX: one NIC per channel).
 */
export function ringChannels(t: TopologyGraph, gpus: readonly number[], ranksPerNode: number, nChannels: number): RingChannel[] {
  const n = gpus.length;
  const channels: RingChannel[] = [];
  for (let c = 0; c < nChannels; c++) {
    const order = new Int32Array(n);
    const shift = c % ranksPerNode;
    for (let base = 0; base < n; base += ranksPerNode) {
      for (let i = 0; i < ranksPerNode; i++) order[base + i] = gpus[base + ((i + shift) % ranksPerNode)] as number;
    }
    const first = order[0] as number;
    const local = first - gpuNode(t, first) * t.gpusPerNode;
    channels.push({ order, rail: railOfLocalGpu(t, local) });
  }
  return channels;
}

/** What one ring run needs from NCCL's model: the protocol's wire efficiency, caps and latencies. */
export interface RingPlan {
  readonly nsteps: number;
  /** Payload bytes one rank sends per step per channel. */
  readonly stepBytes: number;
  /** Payload fraction of the bytes on the wire: LL .5, LL128 .92 (as NCCL's model), Simple 1. */
  readonly efficiency: number;
  /** Per-channel payload rate NCCL's model allows (its caps); Infinity for none. */
  readonly capBytesPerSecond: number;
  readonly baseSeconds: number;
  readonly intraStepSeconds: number;
  readonly interStepSeconds: number;
}

/**
 * A ring collective as flows: per channel, 2(n−1) (all-reduce) or n−1 steps; in step k every ring
 * edge carries one chunk, and step k+1 starts once every chunk of step k has arrived and one
 * step's latency has passed (NCCL's per-step latency; the tracked chunk's edge decides whether it is
 * the intra- or inter-node one, as `ringLatencyParts` counts them). Channels run independently.
 *
 * `representatives` are the edges actually emulated. In full mode that is every edge of every
 * channel (n flows per step per channel). In symmetric mode it is one edge per class of identical
 * edges per channel, each standing for all its class: on every link it weighs M_l / R_l, where M_l
 * is how many ring edges (all channels) cross the link and R_l how many representatives do, so the
 * link's load while all channels are in flight is exactly M_l, as in the full run. Other collectives'
 * flows on the same links add their own load, so contention is still emulated.
 */
export class RingProgram implements FlowProgram {
  finishedAt = -1;
  private programId = -1;
  private readonly step: Int32Array;
  private readonly outstanding: Int32Array;
  private channelsLeft: number;

  constructor(
    private readonly plan: RingPlan,
    private readonly ranksPerNode: number,
    private readonly nodes: number,
    /** Per channel: routes (flattened, MAX_ROUTE_LINKS per edge), their lengths and weights. */
    private readonly reps: readonly { routes: Int32Array; lengths: Int32Array; weights: Float64Array; count: number }[],
  ) {
    this.step = new Int32Array(reps.length);
    this.outstanding = new Int32Array(reps.length);
    this.channelsLeft = reps.length;
  }

  start(engine: FlowEngine): void {
    this.programId = engine.addProgram(this);
    if (this.plan.nsteps === 0 || this.reps.length === 0) { this.finishedAt = engine.now; return; }
    for (let c = 0; c < this.reps.length; c++) engine.timer(this.programId, c, this.plan.baseSeconds + this.stepLatency(0));
  }

  /** The tracked chunk crosses ring position k mod n in step k; positions ppn−1, 2ppn−1, … leave a node. */
  private stepLatency(k: number): number {
    if (this.nodes === 1) return this.plan.intraStepSeconds;
    const n = this.ranksPerNode * this.nodes;
    return (k % n) % this.ranksPerNode === this.ranksPerNode - 1 ? this.plan.interStepSeconds : this.plan.intraStepSeconds;
  }

  onTimer(engine: FlowEngine, channel: number): void {
    const rep = this.reps[channel];
    if (!rep) return;
    const wireBytes = this.plan.stepBytes / this.plan.efficiency;
    const cap = this.plan.capBytesPerSecond / this.plan.efficiency;
    this.outstanding[channel] = rep.count;
    for (let e = 0; e < rep.count; e++) {
      const routes = rep.routes.subarray(e * MAX_ROUTE_LINKS, (e + 1) * MAX_ROUTE_LINKS);
      const weights = rep.weights.subarray(e * MAX_ROUTE_LINKS, (e + 1) * MAX_ROUTE_LINKS);
      engine.flow(this.programId, channel, wireBytes, routes, rep.lengths[e] as number, weights, cap);
    }
  }

  onFlowDone(engine: FlowEngine, channel: number): void {
    const left = (this.outstanding[channel] as number) - 1;
    this.outstanding[channel] = left;
    if (left > 0) return;
    const next = (this.step[channel] as number) + 1;
    this.step[channel] = next;
    if (next < this.plan.nsteps) {
      engine.timer(this.programId, channel, this.stepLatency(next));
    } else if (--this.channelsLeft === 0) {
      this.finishedAt = engine.now;
    }
  }
}

/** Routes every edge of every channel once and counts, per link, the edges crossing it (M_l). */
export function edgeMultiplicity(t: TopologyGraph, channels: readonly RingChannel[]): Float64Array {
  const counts = new Float64Array(t.linkCount);
  const path = new Int32Array(MAX_ROUTE_LINKS);
  for (const { order, rail } of channels) {
    const n = order.length;
    for (let i = 0; i < n; i++) {
      const length = routeInto(t, order[i] as number, order[(i + 1) % n] as number, rail, path);
      for (let j = 0; j < length; j++) counts[path[j] as number] = (counts[path[j] as number] as number) + 1;
    }
  }
  return counts;
}

/**
 * The edges to emulate per channel: all of them (`full`), or the first edge of each class of
 * identical edges (`symmetric`; a class is the sequence of (link kind, bandwidth, multiplicity)
 * along the route), with weights M_l / R_l.
 */
export function representatives(t: TopologyGraph, channels: readonly RingChannel[], multiplicity: Float64Array, full: boolean) {
  const path = new Int32Array(MAX_ROUTE_LINKS);
  const chosen = channels.map(({ order, rail }) => {
    const n = order.length;
    const edges: number[] = [];
    if (full) {
      for (let i = 0; i < n; i++) edges.push(i);
    } else {
      const seen = new Set<string>();
      for (let i = 0; i < n; i++) {
        const length = routeInto(t, order[i] as number, order[(i + 1) % n] as number, rail, path);
        let key = `${length}`;
        for (let j = 0; j < length; j++) {
          const link = path[j] as number;
          key += `|${t.linkKind[link]}:${t.linkBandwidth[link]}:${multiplicity[link]}`;
        }
        if (!seen.has(key)) { seen.add(key); edges.push(i); }
      }
    }
    const routes = new Int32Array(edges.length * MAX_ROUTE_LINKS);
    const lengths = new Int32Array(edges.length);
    edges.forEach((i, e) => {
      lengths[e] = routeInto(t, order[i] as number, order[(i + 1) % n] as number, rail, routes, e * MAX_ROUTE_LINKS) - e * MAX_ROUTE_LINKS;
    });
    return { routes, lengths, count: edges.length };
  });
  const repCount = new Float64Array(t.linkCount);
  for (const c of chosen) {
    for (let e = 0; e < c.count; e++) {
      for (let j = 0; j < (c.lengths[e] as number); j++) {
        const link = c.routes[e * MAX_ROUTE_LINKS + j] as number;
        repCount[link] = (repCount[link] as number) + 1;
      }
    }
  }
  return chosen.map((c) => {
    const weights = new Float64Array(c.routes.length);
    for (let e = 0; e < c.count; e++) {
      for (let j = 0; j < (c.lengths[e] as number); j++) {
        const link = c.routes[e * MAX_ROUTE_LINKS + j] as number;
        weights[e * MAX_ROUTE_LINKS + j] = (multiplicity[link] as number) / (repCount[link] as number);
      }
    }
    return { ...c, weights };
  });
}
