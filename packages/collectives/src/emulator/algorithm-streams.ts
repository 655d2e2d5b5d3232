import { ringChannels } from './ring-program.ts';
import { FlowSet } from './stream-program.ts';
import {
  gpuNode, MAX_ROUTE_LINKS, nvlinkDownLink, nvlinkUpLink, pathLatency, railOfGpu, routeInto, type TopologyGraph,
} from '../topology/topology-graph.ts';
import type { Algorithm, CollectiveOp } from '../types.ts';

/** A group laid out node by node: `ppn` GPUs on each of `nodes` nodes. */
export interface StreamGroup {
  readonly t: TopologyGraph;
  readonly gpus: readonly number[];
  readonly ppn: number;
  readonly nodes: number;
}

/**
 * Appends flows to a FlowSet with caps that make the uncontended run take exactly
 * `bandwidthSeconds`: each edge carries its bytes at bytes ÷ bandwidthSeconds at most, the pace
 * NCCL's model gives the algorithm (protocol efficiency and per-channel caps included). Links slower
 * than that pace, or shared with other flows, slow it down: that is what the emulator adds to the
 * closed form. (Each flow's arrival, its route's wire latency after its last byte, is the engine's.)
 */
class FlowList {
  constructor(private readonly t: TopologyGraph, private readonly bandwidthSeconds: number, readonly out: FlowSet) {}

  /** Routes a flow, to start `startSeconds` after its phase's latency; returns its route's wire latency. */
  route(src: number, dst: number, rail: number, bytes: number, startSeconds = 0): number {
    const f = this.out.reserve();
    const at = f * MAX_ROUTE_LINKS;
    const length = routeInto(this.t, src, dst, rail, this.out.paths, at) - at;
    if (length > 0) this.commit(f, length, bytes, startSeconds);
    return pathLatency(this.t, this.out.paths, at, length);
  }

  link(link: number, bytes: number): void {
    const f = this.out.reserve();
    this.out.paths[f * MAX_ROUTE_LINKS] = link;
    this.commit(f, 1, bytes, 0);
  }

  private commit(f: number, length: number, bytes: number, startSeconds: number): void {
    const cap = this.bandwidthSeconds > 0 ? bytes / this.bandwidthSeconds : Number.POSITIVE_INFINITY;
    this.out.commit(f, length, bytes, cap, startSeconds);
  }
}


/** A rank's place in one binary tree: its parent and children (−1: none). */
export interface TreeLinks { readonly parent: number; readonly child0: number; readonly child1: number }

/**
 * NCCL's binary tree over `nranks` (NVIDIA/nccl src/graph/trees.cc ncclGetBtree), ported as is:
 * root 0, an in-order tree on the bits of the rank. A rank's lowest set bit `bit` gives its parent
 * (rank ^ bit) | (bit << 1), or rank ^ bit when that is out of range, and its children
 * rank ∓ bit/2 (the upper one halved until it is in range). So the subtree of rank r with lowest bit
 * b holds the consecutive ranks r − b + 1 … r + b − 1: neighbours in rank order stay close in the
 * tree, and a tree over nodes laid out leaf by leaf crosses few leaf boundaries.
 */
export function ncclBtree(nranks: number, rank: number): TreeLinks {
  let bit = 1;
  for (; bit < nranks; bit <<= 1) if (bit & rank) break;
  if (rank === 0) return { parent: -1, child0: -1, child1: nranks > 1 ? bit >> 1 : -1 };
  let up = (rank ^ bit) | (bit << 1);
  if (up >= nranks) up = rank ^ bit;
  let lowbit = bit >> 1;
  const child0 = lowbit === 0 ? -1 : rank - lowbit;
  let child1 = lowbit === 0 ? -1 : rank + lowbit;
  while (child1 >= nranks) {
    child1 = lowbit === 0 ? -1 : rank + lowbit;
    lowbit >>= 1;
  }
  return { parent: up, child0, child1 };
}

/**
 * NCCL's double binary tree (src/graph/trees.cc ncclGetDtree): tree 0 is `ncclBtree`; tree 1 is its
 * mirror (rank r ↦ nranks − 1 − r) when nranks is even, or the tree shifted by one rank
 * (r ↦ r + 1 mod nranks) when odd, so that most interior ranks of one tree are leaves of the other
 * (Sanders, Speck & Träff 2009).
 */
export function ncclDtree(nranks: number, rank: number): [TreeLinks, TreeLinks] {
  const tree0 = ncclBtree(nranks, rank);
  const map = (r: number, to: (x: number) => number): number => (r === -1 ? -1 : to(r));
  if (nranks % 2 === 1) {
    const b = ncclBtree(nranks, (rank - 1 + nranks) % nranks);
    const back = (x: number): number => (x + 1) % nranks;
    return [tree0, { parent: map(b.parent, back), child0: map(b.child0, back), child1: map(b.child1, back) }];
  }
  const b = ncclBtree(nranks, nranks - 1 - rank);
  const back = (x: number): number => nranks - 1 - x;
  return [tree0, { parent: map(b.parent, back), child0: map(b.child0, back), child1: map(b.child1, back) }];
}

/**
 * The double binary tree's edges (child → parent) over `heads` (one GPU per node, in node order),
 * as NCCL builds its inter-node trees: `ncclDtree` over the node indices.
 */
export function doubleBinaryTreeEdges(heads: readonly number[]): [number, number][][] {
  const n = heads.length;
  const trees: [number, number][][] = [[], []];
  for (let r = 0; r < n; r++) {
    const links = ncclDtree(n, r);
    for (let k = 0; k < 2; k++) {
      const parent = (links[k] as TreeLinks).parent;
      if (parent >= 0) (trees[k] as [number, number][]).push([heads[r] as number, heads[parent] as number]);
    }
  }
  return trees;
}

/**
 * How many flows `appendStreams` adds for `algorithm` over a group of n GPUs on `nodes` nodes
 * (every edge below has distinct ends, so every one is a flow), computed before any is built so
 * that the budget can refuse a run first: ring n per channel, chain n − 1 per channel, tree
 * 4(n − 1) per channel (two trees, each edge both ways, the chains inside nodes in both trees),
 * NVLS 2 per GPU plus, across nodes, 4(nodes − 1) per channel.
 */
export function streamFlowCount(algorithm: Algorithm, op: CollectiveOp, n: number, nodes: number, nChannels: number): number {
  switch (algorithm) {
    case 'ring': return op === 'broadcast' || op === 'reduce' ? nChannels * (n - 1) : nChannels * n;
    case 'tree': return nChannels * 4 * (n - 1);
    case 'nvls':
    case 'nvls-tree': return 2 * n + (nodes > 1 ? nChannels * 4 * (nodes - 1) : 0);
    default: return 0;
  }
}

/**
 * NCCL's Tree all-reduce (src/device/all_reduce.h runTreeUpDown; collectives-reference §1): per
 * channel each node is a chain of its GPUs (rotated per channel, as the rings), the chains' entry
 * GPUs joined across nodes by the double binary tree on the channel's rail; each of the two trees
 * reduces half the channel's data up and broadcasts it down, every edge streaming both ways.
 */
export function treeStreams(g: StreamGroup, bytes: number, nChannels: number, bandwidthSeconds: number, set: FlowSet): void {
  const out = new FlowList(g.t, bandwidthSeconds, set);
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
}

/**
 * NVLink SHARP through the NVSwitch vertex (src/device/all_reduce.h runNvls; collectives-reference
 * §1 "NVLS"): the switch reduces what the GPUs push into it (multimem.ld_reduce) and multicasts what
 * one GPU writes (multimem.st). Per GPU, for a buffer S over n local ranks: all-reduce pushes S and
 * its reduced S/n shard up and takes S/n and S down; reduce-scatter S up, S/n down; all-gather S/n
 * up, S down. NVLSTree adds the inter-node step: per channel (one per local GPU, its own NIC) a
 * double binary tree over the nodes carrying the channel's share up and down.
 */
export function nvlsStreams(g: StreamGroup, op: CollectiveOp, bytes: number, nChannels: number, bandwidthSeconds: number, set: FlowSet): void {
  const out = new FlowList(g.t, bandwidthSeconds, set);
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
      const rail = railOfGpu(g.t, heads[0] as number);
      for (const treeEdges of doubleBinaryTreeEdges(heads)) {
        for (const [child, parent] of treeEdges) { out.route(child, parent, rail, share); out.route(parent, child, rail, share); }
      }
    }
  }
}

/** NCCL's per-hop latencies of a chain (ringLatencyParts), in seconds; the inter-node one less the wire it holds. */
export interface ChainStepLatency {
  readonly intraStepSeconds: number;
  /** NCCL's inter-node step less the one-leaf wire its figure holds (the hop's own route wire is added). */
  readonly interStepSeconds: number;
}

/**
 * Ring broadcast and reduce (src/device/broadcast.h, reduce.h): per channel a chain along the ring
 * from the root (rank 0, nccl-tests' default) to the rank before it, pipelined, each edge carrying
 * the channel's share; reduce runs the same chain towards the root. A rank forwards a chunk only once it
 * has it, so the edge k hops down the chain starts when the first chunk has crossed the k hops before
 * it: each hop's NCCL step latency (intra- or inter-node) plus its route's wire (per-hop latency, as
 * RingProgram charges its steps), and the edge's own step latency. Started all at once, a 1,024-rank
 * broadcast of 8 B took one hop's time.
 */
export function chainStreams(g: StreamGroup, op: 'broadcast' | 'reduce', bytes: number, nChannels: number, bandwidthSeconds: number,
  steps: ChainStepLatency, set: FlowSet): void {
  const out = new FlowList(g.t, bandwidthSeconds, set);
  const share = bytes / nChannels;
  const root = g.gpus[0] as number;
  for (const { order, rail } of ringChannels(g.t, g.gpus, g.ppn, nChannels)) {
    const n = order.length;
    const from = order.indexOf(root);
    // The ring positions along the chain, in the order the data goes: away from the root, or towards it.
    let reached = 0;
    for (let k = 0; k < n - 1; k++) {
      const i = op === 'broadcast' ? k : n - 2 - k;
      const a = order[(from + i) % n] as number;
      const b = order[(from + i + 1) % n] as number;
      const [src, dst] = op === 'broadcast' ? [a, b] : [b, a];
      const step = gpuNode(g.t, src) === gpuNode(g.t, dst) ? steps.intraStepSeconds : steps.interStepSeconds;
      reached += step + out.route(src, dst, rail, share, reached + step);
    }
  }
}

/**
 * A ring collective in the fluid limit (every ring edge streams its whole share at once):
 * all-reduce 2(n−1)/n·S per edge, all-gather and reduce-scatter (n−1)/n·S, spread over the channels.
 * Used inside the hierarchical all-reduce; a stand-alone ring runs step by step (`RingProgram`).
 */
export function ringStreams(g: StreamGroup, op: CollectiveOp, bytes: number, nChannels: number, bandwidthSeconds: number, set: FlowSet): void {
  const out = new FlowList(g.t, bandwidthSeconds, set);
  const n = g.gpus.length;
  const perEdge = ((op === 'all-reduce' ? 2 : 1) * (n - 1) * bytes) / (n * nChannels);
  for (const { order, rail } of ringChannels(g.t, g.gpus, g.ppn, nChannels)) {
    for (let i = 0; i < n; i++) out.route(order[i] as number, order[(i + 1) % n] as number, rail, perEdge);
  }
}
