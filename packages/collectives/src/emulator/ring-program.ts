import { gpusJoinedByNvlink, peerLinksOf } from '../gpus-joined-by-nvlink.ts';
import { packMeshRings } from '../mesh-rings.ts';
import { packOpenMeshRings, type MeshBudget } from './open-mesh-rings.ts';
import { channelsThatFit } from '../nccl-graph-search.ts';
import { NCCL_TABLES } from '../nccl-tables.ts';
import { groupHostPathGBps } from '../host-path.ts';
import { ncclTopology } from '../nccl-topology.ts';
import {
  MAX_ROUTE_LINKS, gpuNode, pathLatency, placeAtNic, railOfLocalGpu, railsOfLocalGpu, routeInto, type TopologyGraph,
} from '../topology/topology-graph.ts';
import type { FlowEngine, FlowProgram } from './flow-engine.ts';

/** One channel's ring: the GPUs in ring order and the NIC rail it crosses nodes on. */
export interface RingChannel {
  readonly order: Int32Array;
  readonly rail: number;
}

/**
 * NCCL-style rings over a group laid out node by node (Megatron/NCCL rank order). NCCL's graph
 * search starts channel c at NIC `nets[(c + i) % netCount]` (NVIDIA/nccl src/graph/search.cc
 * ncclTopoSearchRecNet), so channels take the NICs round-robin, and enters the node at "the most
 * local GPUs" of that NIC (same function); the ring leaves every node on the same NIC
 * (NCCL_CROSS_NIC=0). The NICs it tries are those local to the communicator's GPUs, GPU by GPU
 * (search.cc ncclTopoSelectNets), each GPU's own first (src/graph/topo.cc ncclTopoGetLocalNet). Here:
 * the NICs are those closest to the group's GPUs (railsOfLocalGpu: one per GPU, or each of a GPU's
 * several where a node has more NICs than GPUs), in order of first appearance; channel c takes NIC
 * (c + start) mod their count, and each node's GPUs are rotated so that the channel enters at one of
 * that NIC's GPUs (the next one each time the channel index wraps round the NICs). With one NIC per
 * GPU (DGX A100, H100) channel c enters at GPU c mod ppn on NIC c mod 8; on a DGX-1 (4 NICs, 8 GPUs)
 * 4 channels use NICs 0–3, not 0, 0, 1, 1; on a 4-GPU tray with 8 NICs, 8 channels use all 8, two per GPU.
 *
 * `start` spreads concurrent groups whose GPUs share NICs over those NICs rather than piling them on the
 * first: where s GPUs share each NIC (DGX-1, jean-zay: 2), the group whose first GPU is the i-th of
 * its NIC's starts i/s of the way round its NICs, as NCCL starts each GPU's NICs at its index among the
 * GPUs that share them ("the starting NIC is chosen to avoid conflicts", topo.cc ncclTopoGetLocalNet:
 * `net = gpu.dev % localGpuCount`). Two strided groups on jean-zay (GPUs 0, 2, 4, 6 and 1, 3, 5, 7),
 * each of two channels, take NICs 0–1 and 2–3, not both 0–1. Where every GPU has a NIC of its own,
 * start is 0.
 *
 * Behind an NVSwitch any order of a node's GPUs is a ring; on a direct NVLink mesh (DGX-1) each
 * channel's order inside a node follows NVLink edges from its entry GPU (packMeshRings, spreading
 * the channels over the links as NCCL's search does). GPUs with no NVLink ring (every PCIe node) keep
 * their order and meet over PCIe.
 */
export function ringChannels(t: TopologyGraph, gpus: readonly number[], ranksPerNode: number, nChannels: number): RingChannel[] {
  const n = gpus.length;
  // Positions (0 … ppn−1) of the first node's GPUs by rail, rails in order of first appearance.
  const byRail = new Map<number, number[]>();
  for (let i = 0; i < ranksPerNode; i++) {
    const gpu = gpus[i] as number;
    for (const rail of railsOfLocalGpu(t, gpu - gpuNode(t, gpu) * t.gpusPerNode)) {
      const at = byRail.get(rail);
      if (at) at.push(i); else byRail.set(rail, [i]);
    }
  }
  const rails = [...byRail.keys()];
  const head = gpus[0] as number;
  const place = placeAtNic(t, head - gpuNode(t, head) * t.gpusPerNode);
  const start = Math.floor((place.index * rails.length) / place.sharing);
  const channelRails: number[] = [];
  const entries: number[] = [];
  for (let c = 0; c < nChannels; c++) {
    const rail = rails[(c + start) % rails.length] as number;
    const positions = byRail.get(rail) as number[];
    channelRails.push(rail);
    entries.push(positions[Math.floor(c / rails.length) % positions.length] as number);
  }
  const meshOrders = meshPositions(t, gpus, ranksPerNode, entries, n > ranksPerNode);
  const channels: RingChannel[] = [];
  for (let c = 0; c < nChannels; c++) {
    const shift = entries[c] as number;
    const positions = meshOrders?.[c];
    const order = new Int32Array(n);
    for (let base = 0; base < n; base += ranksPerNode) {
      for (let i = 0; i < ranksPerNode; i++) {
        order[base + i] = gpus[base + (positions ? (positions[i] as number) : (i + shift) % ranksPerNode)] as number;
      }
    }
    channels.push({ order, rail: channelRails[c] as number });
  }
  return channels;
}

/**
 * On a direct NVLink mesh, per channel the positions (0 … ppn−1, in the first node's GPUs) in ring
 * order from the channel's entry position; null behind an NVSwitch or when no NVLink ring exists.
 * Each ring leaves the node near its NIC where some ring can: at a GPU sharing the entry's NIC (DGX-1),
 * or, where every GPU has NICs of its own (a quad GH200), at the GPU before the entry in the group's
 * order, as a ring behind an NVSwitch does — the entries take the GPUs in turn, so the exits then do
 * too, and no GPU's host link carries more channels out than another's.
 */
function meshPositions(t: TopologyGraph, gpus: readonly number[], ppn: number, entries: readonly number[], open: boolean): number[][] | null {
  // A PCIe node (peerSlot of no NVLink pair) has no NVLink ring to follow: its GPUs keep their order.
  if (!t.peerSlot || ppn < 3 || !gpusJoinedByNvlink(t.fabric)) return null;
  const links = peerLinksOf(t.fabric, t.gpusPerNode);
  if (!links) return null;
  const locals = gpus.slice(0, ppn).map((gpu) => gpu - gpuNode(t, gpu) * t.gpusPerNode);
  const rail = (local: number): number => railOfLocalGpu(t, local);
  const shared = placeAtNic(t, locals[0] as number).sharing > 1;
  const before = (local: number): number => locals[(locals.indexOf(local) + ppn - 1) % ppn] as number;
  const near = shared ? (entry: number, exit: number) => rail(entry) === rail(exit) : (entry: number, exit: number) => exit === before(entry);
  const entryGpus = entries.map((p) => locals[p] as number);
  // Across nodes, within what the links carry at the ring's speed (open-mesh-rings.ts).
  const rings = open
    ? packOpenMeshRings(links, t.gpusPerNode, locals, entryGpus, near, meshBudget(t, gpus.length, ppn))
    : packMeshRings(links, t.gpusPerNode, locals, entryGpus, false, near);
  return rings ? rings.map((ring) => ring.map((local) => locals.indexOf(local))) : null;
}

/**
 * What a ring's links carry at the speed of NCCL's ring graph for the group (nccl-topology.ts), in channels, as NCCL's
 * search counts them (src/graph/search.cc ncclTopoFollowPath): a pair's NVLinks at NCCL's per-link figure (src/graph/topo.h
 * SM70_NVLINK_BW 20), a GPU's host link as the closed form's search budgets it (host-path.ts groupHostPathGBps: on a
 * DGX-1 NCCL's 12 GB/s for PCIe Gen3 x16, src/graph/topo.cc ncclTopoAddPci), at least one.
 */
function meshBudget(t: TopologyGraph, ranks: number, ppn: number): MeshBudget {
  const speedGBps = ncclTopology(t.fabric, { ranks, ranksPerNode: ppn }).ring.bwIntraGBps;
  const perLinkGBps = NCCL_TABLES.nvlinkBandwidthPerLinkGBps.value[t.fabric.generation];
  return {
    edgeChannels: (links) => channelsThatFit(links * perLinkGBps, speedGBps),
    exitChannels: Math.max(1, channelsThatFit(groupHostPathGBps(t.fabric, { nvlinkShare: 1 }), speedGBps)),
  };
}

/**
 * Per channel, the wire latency of the edge leaving each node (ring position (k+1)·ppn − 1 → the
 * next node's first): the tracked chunk's per-hop latency on the steps NCCL counts as inter-node.
 */
export function interNodeHopSeconds(t: TopologyGraph, channels: readonly RingChannel[], ranksPerNode: number): Float64Array[] {
  const path = new Int32Array(MAX_ROUTE_LINKS);
  return channels.map(({ order, rail }) => {
    const n = order.length;
    const nodes = n / ranksPerNode;
    const out = new Float64Array(nodes);
    if (nodes === 1) return out;
    for (let node = 0; node < nodes; node++) {
      const from = (node + 1) * ranksPerNode - 1;
      const length = routeInto(t, order[from] as number, order[(from + 1) % n] as number, rail, path);
      out[node] = pathLatency(t, path, 0, length);
    }
    return out;
  });
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
  /** NCCL's inter-node step latency less the wire it already holds (interNodeWireSeconds). */
  readonly interStepSeconds: number;
  /** Per channel, per node: the wire latency of the ring edge leaving that node (interNodeHopSeconds). */
  readonly hopSeconds: readonly Float64Array[];
}

/** Per channel: the routes emulated (flattened, MAX_ROUTE_LINKS per edge), their lengths and weights. */
export interface RingReps {
  readonly routes: Int32Array;
  readonly lengths: Int32Array;
  readonly weights: Float64Array;
  readonly count: number;
}

/**
 * A ring collective as flows: per channel, 2(n−1) (all-reduce) or n−1 steps; in step k every ring
 * edge carries one chunk, and step k+1 starts once every chunk of step k has been sent and one
 * step's latency has passed. The step's latency is that of the chunk NCCL's model tracks (ring
 * position k mod n: `ringLatencyParts` counts its intra- and inter-node hops): NCCL's per-step
 * latency, and on an inter-node hop that hop's own wire latency (per-hop latency: two cables under
 * one leaf, four through the spine) in place of the one-leaf wire NCCL's figure already holds.
 * Only the tracked chunk's hop is charged: in NCCL's pipeline a rank waits for its predecessor
 * alone (src/device/prims_simple.h), so the other edges' wire latencies overlap it; charging
 * every edge's at the step barrier would count the slowest hop on every one of the 2(n−1) steps,
 * which NCCL's measured ring latency does not show. Channels run independently.
 *
 * `representatives` are the edges actually emulated. In full mode that is every edge of every
 * channel (n flows per step per channel). In symmetric mode it is one edge per class of identical
 * edges per channel, each standing for all its class: on every link it weighs M_l / R_l, where M_l
 * is how many ring edges (all channels) cross the link and R_l how many representatives do, so the
 * link's load while all channels are in flight is exactly M_l, as in the full run. Links the
 * representatives do not cross carry nothing, so symmetric mode is exact only while no other
 * collective shares the ring's links (emulate-collectives.ts checks it).
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
    private readonly reps: readonly RingReps[],
  ) {
    this.step = new Int32Array(reps.length);
    this.outstanding = new Int32Array(reps.length);
    this.channelsLeft = reps.length;
  }

  start(engine: FlowEngine): void {
    this.programId = engine.addProgram(this);
    if (this.plan.nsteps === 0 || this.reps.length === 0) { this.finishedAt = engine.now; return; }
    for (let c = 0; c < this.reps.length; c++) engine.timer(this.programId, c, this.plan.baseSeconds + this.stepLatency(c, 0));
  }

  /** The tracked chunk crosses ring position k mod n in step k; positions ppn−1, 2ppn−1, … leave a node. */
  private stepLatency(channel: number, k: number): number {
    if (this.nodes === 1) return this.plan.intraStepSeconds;
    const position = k % (this.ranksPerNode * this.nodes);
    if (position % this.ranksPerNode !== this.ranksPerNode - 1) return this.plan.intraStepSeconds;
    const hops = this.plan.hopSeconds[channel];
    const node = (position - (this.ranksPerNode - 1)) / this.ranksPerNode;
    return this.plan.interStepSeconds + (hops ? (hops[node] as number) : 0);
  }

  onTimer(engine: FlowEngine, channel: number): void {
    const rep = this.reps[channel];
    if (!rep) return;
    const wireBytes = this.plan.stepBytes / this.plan.efficiency;
    const cap = this.plan.capBytesPerSecond / this.plan.efficiency;
    this.outstanding[channel] = rep.count;
    for (let e = 0; e < rep.count; e++) {
      engine.flow(this.programId, channel, wireBytes, rep.routes, rep.lengths[e] as number, rep.weights, cap, e * MAX_ROUTE_LINKS);
    }
  }

  /**
   * The step barrier counts chunks sent (now), not their arrival (the engine's arrivalSeconds):
   * only the tracked chunk's hop wire is charged, in stepLatency.
   */
  onFlowDone(engine: FlowEngine, channel: number): void {
    const left = (this.outstanding[channel] as number) - 1;
    this.outstanding[channel] = left;
    if (left > 0) return;
    const next = (this.step[channel] as number) + 1;
    this.step[channel] = next;
    if (next < this.plan.nsteps) {
      engine.timer(this.programId, channel, this.stepLatency(channel, next));
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
export function representatives(t: TopologyGraph, channels: readonly RingChannel[], multiplicity: Float64Array, full: boolean): RingReps[] {
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
