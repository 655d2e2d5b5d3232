import { ringChannels } from './ring-program.ts';
import type { StreamFlow } from './stream-program.ts';
import {
  MAX_ROUTE_LINKS, gpuNode, nvlinkDownLink, nvlinkUpLink, railOfLocalGpu, routeInto, type TopologyGraph,
} from '../topology/topology-graph.ts';
import type { CollectiveOp } from '../types.ts';

/** A group laid out node by node: `ppn` GPUs on each of `nodes` nodes. */
export interface StreamGroup {
  readonly t: TopologyGraph;
  readonly gpus: readonly number[];
  readonly ppn: number;
  readonly nodes: number;
}

/**
 * Collects flows whose caps make the uncontended run take exactly `bandwidthSeconds`: each edge
 * carries its bytes at bytes ÷ bandwidthSeconds at most, the pace NCCL's model gives the algorithm
 * (protocol efficiency and per-channel caps included). Links slower than that pace, or shared with
 * other flows, slow it down: that is what the emulator adds to the closed form.
 */
class FlowList {
  readonly flows: StreamFlow[] = [];
  constructor(private readonly t: TopologyGraph, private readonly bandwidthSeconds: number) {}

  route(src: number, dst: number, rail: number, bytes: number): void {
    const path = new Int32Array(MAX_ROUTE_LINKS);
    const length = routeInto(this.t, src, dst, rail, path);
    if (length > 0) this.push(path, length, bytes);
  }

  link(link: number, bytes: number): void {
    this.push(Int32Array.of(link), 1, bytes);
  }

  private push(path: Int32Array, length: number, bytes: number): void {
    const cap = this.bandwidthSeconds > 0 ? bytes / this.bandwidthSeconds : Number.POSITIVE_INFINITY;
    this.flows.push({ path, length, bytes, capBytesPerSecond: cap });
  }
}

const railOf = (t: TopologyGraph, gpu: number): number => railOfLocalGpu(t, gpu - gpuNode(t, gpu) * t.gpusPerNode);

/**
 * Double binary tree edges (child → parent) over `heads` (one GPU per node), as NCCL builds them
 * (Sanders, Speck & Träff 2009; NVIDIA/nccl src/graph/trees.cc ncclGetDtree): tree 0 a binary tree
 * over the nodes in order, tree 1 the same shape over the nodes in reverse, so that most interior
 * nodes of one are leaves of the other. We use the heap-shaped tree (parent ⌊(p−1)/2⌋), not NCCL's
 * bit-reversed one: the same depth and the same per-node fan-in and fan-out.
 */
export function doubleBinaryTreeEdges(heads: readonly number[]): [number, number][][] {
  const n = heads.length;
  return [0, 1].map((k) => {
    const at = (p: number): number => heads[k === 0 ? p : n - 1 - p] as number;
    const edges: [number, number][] = [];
    for (let p = 1; p < n; p++) edges.push([at(p), at((p - 1) >> 1)]);
    return edges;
  });
}

/**
 * NCCL's Tree all-reduce (src/device/all_reduce.h runTreeUpDown; collectives-reference §1): per
 * channel each node is a chain of its GPUs (rotated per channel, as the rings), the chains' entry
 * GPUs joined across nodes by the double binary tree on the channel's rail; each of the two trees
 * reduces half the channel's data up and broadcasts it down, every edge streaming both ways.
 */
export function treeStreams(g: StreamGroup, bytes: number, nChannels: number, bandwidthSeconds: number): StreamFlow[] {
  const out = new FlowList(g.t, bandwidthSeconds);
  const share = bytes / (2 * nChannels);
  for (const { order, rail } of ringChannels(g.t, g.gpus, g.ppn, nChannels)) {
    const heads: number[] = [];
    const edges: [number, number][] = [];
    for (let node = 0; node < g.nodes; node++) {
      heads.push(order[node * g.ppn] as number);
      for (let i = 1; i < g.ppn; i++) edges.push([order[node * g.ppn + i] as number, order[node * g.ppn + i - 1] as number]);
    }
    for (const treeEdges of doubleBinaryTreeEdges(heads)) {
      for (const [child, parent] of [...edges, ...treeEdges]) {
        out.route(child, parent, rail, share); // reduce, up
        out.route(parent, child, rail, share); // broadcast, down
      }
    }
  }
  return out.flows;
}

/**
 * NVLink SHARP through the NVSwitch vertex (src/device/all_reduce.h runNvls; collectives-reference
 * §1 "NVLS"): the switch reduces what the GPUs push into it (multimem.ld_reduce) and multicasts what
 * one GPU writes (multimem.st). Per GPU, for a buffer S over n local ranks: all-reduce pushes S and
 * its reduced S/n shard up and takes S/n and S down; reduce-scatter S up, S/n down; all-gather S/n
 * up, S down. NVLSTree adds the inter-node step: per channel (one per local GPU, its own NIC) a
 * double binary tree over the nodes carrying the channel's share up and down.
 */
export function nvlsStreams(g: StreamGroup, op: CollectiveOp, bytes: number, nChannels: number, bandwidthSeconds: number): StreamFlow[] {
  const out = new FlowList(g.t, bandwidthSeconds);
  const shard = bytes / g.ppn;
  const up = op === 'all-reduce' ? bytes + shard : op === 'reduce-scatter' ? bytes : shard;
  const down = op === 'all-reduce' ? shard + bytes : op === 'reduce-scatter' ? shard : bytes;
  for (const gpu of g.gpus) {
    out.link(nvlinkUpLink(g.t, gpu), up);
    out.link(nvlinkDownLink(g.t, gpu), down);
  }
  if (g.nodes > 1) {
    const share = bytes / (2 * nChannels);
    for (let c = 0; c < nChannels; c++) {
      const heads = Array.from({ length: g.nodes }, (_, node) => g.gpus[node * g.ppn + (c % g.ppn)] as number);
      const rail = railOf(g.t, heads[0] as number);
      for (const treeEdges of doubleBinaryTreeEdges(heads)) {
        for (const [child, parent] of treeEdges) { out.route(child, parent, rail, share); out.route(parent, child, rail, share); }
      }
    }
  }
  return out.flows;
}

/**
 * Ring broadcast and reduce (src/device/broadcast.h, reduce.h): per channel a chain along the ring
 * from the root (rank 0, nccl-tests' default) to the rank before it, pipelined, each edge carrying
 * the channel's share; reduce runs the same chain towards the root.
 */
export function chainStreams(g: StreamGroup, op: 'broadcast' | 'reduce', bytes: number, nChannels: number, bandwidthSeconds: number): StreamFlow[] {
  const out = new FlowList(g.t, bandwidthSeconds);
  const share = bytes / nChannels;
  const root = g.gpus[0] as number;
  for (const { order, rail } of ringChannels(g.t, g.gpus, g.ppn, nChannels)) {
    const n = order.length;
    const from = order.indexOf(root);
    for (let i = 0; i < n - 1; i++) {
      const a = order[(from + i) % n] as number;
      const b = order[(from + i + 1) % n] as number;
      if (op === 'broadcast') out.route(a, b, rail, share); else out.route(b, a, rail, share);
    }
  }
  return out.flows;
}

/**
 * A ring collective in the fluid limit (every ring edge streams its whole share at once):
 * all-reduce 2(n−1)/n·S per edge, all-gather and reduce-scatter (n−1)/n·S, spread over the channels.
 * Used inside the hierarchical all-reduce; a stand-alone ring runs step by step (`RingProgram`).
 */
export function ringStreams(g: StreamGroup, op: CollectiveOp, bytes: number, nChannels: number, bandwidthSeconds: number): StreamFlow[] {
  const out = new FlowList(g.t, bandwidthSeconds);
  const n = g.gpus.length;
  const perEdge = ((op === 'all-reduce' ? 2 : 1) * (n - 1) * bytes) / (n * nChannels);
  for (const { order, rail } of ringChannels(g.t, g.gpus, g.ppn, nChannels)) {
    for (let i = 0; i < n; i++) out.route(order[i] as number, order[(i + 1) % n] as number, rail, perEdge);
  }
  return out.flows;
}
