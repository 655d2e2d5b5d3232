import { GBps, us } from '@trainplan/units';
import { candidateTimeUs, ringSteps, sizeIndex, type NcclCandidate } from '../nccl-candidate.ts';
import { algorithmUnavailable, ncclCandidatesFor } from '../nccl-candidates.ts';
import { ringLatencyParts } from '../nccl-ring-model.ts';
import { ncclRuntimeLatencyUs, ncclRuntimeTimeUs } from '../nccl-runtime-model.ts';
import { NCCL_TABLES } from '../nccl-tables.ts';
import { ncclTopology, type NcclTopology } from '../nccl-topology.ts';
import { MAX_ROUTE_LINKS, hostNicLink, interNodeWireSeconds, railOfGpu, routeInto, type TopologyGraph } from '../topology/topology-graph.ts';
import type { Algorithm, CollectiveOp, Protocol } from '../types.ts';
import { chainStreams, nvlsStreams, ringStreams, streamFlowCount, treeStreams, type ChainStepLatency, type StreamGroup } from './algorithm-streams.ts';
import { DirectProgram } from './direct-program.ts';
import { allToAllVisitsAtLeast, workCost, type Work } from './emulation-budget.ts';
import { edgeMultiplicity, interNodeHopSeconds, representatives, ringChannels, RingProgram, type RingChannel } from './ring-program.ts';
import { FlowSet, StreamProgram, type StreamPhase } from './stream-program.ts';

/** One collective to emulate: the GPUs (global indices, node by node) and nccl-tests size semantics. */
export interface EmulatedCollective {
  readonly op: CollectiveOp;
  readonly bytes: number;
  readonly gpus: readonly number[];
  /** NCCL's tuner choice ('auto', the default) or a forced algorithm; 'hierarchical' composes three steps. */
  readonly algorithm?: Algorithm | 'auto';
}

export interface EmulatedCollectiveResult {
  readonly seconds: number;
  readonly algorithm: Algorithm;
  readonly protocol: Protocol;
  readonly mode: 'full' | 'symmetric';
}

export type Program = RingProgram | DirectProgram | StreamProgram;

/** A collective whose work is known, before anything large is built, to pass the budget. */
export interface OverBudget { readonly overBudget: number }

/** A collective ready to run, with the work it needs at least and the links its flows may cross. */
export interface Prepared {
  readonly result: Omit<EmulatedCollectiveResult, 'seconds' | 'mode'>;
  /** Whether build() could choose symmetric mode (a long ring, mode not 'full'): only then is the check worth running. */
  readonly symmetricCandidate: boolean;
  /** Calls `mark` for every link its flows may cross (for the symmetric-mode check). */
  links(mark: (link: number) => void): void;
  /**
   * Builds the program. A ring may run in symmetric mode when `symmetricAllowed` (no other
   * collective crosses its links, or the caller forced the mode); the others ignore it.
   */
  build(symmetricAllowed: boolean): { program: Program; work: Work; mode: 'full' | 'symmetric' } | OverBudget;
}

/** Above this many events a ring may run in symmetric mode (one flow per edge class per step per channel). */
const FULL_MODE_MAX_EVENTS = 200_000;

/** The algorithms the emulator executes (PAT and CollNet are costed by the closed form only). */
const EMULATED: ReadonlySet<Algorithm> = new Set(['ring', 'tree', 'nvls', 'nvls-tree', 'direct']);

/**
 * Whether the emulator executes `algorithm` on this topology: NVLS across nodes (with CollNet on) reduces between the
 * nodes in the InfiniBand switches (SHARP), which the topology graph does not model, so it is left to the closed form.
 */
const executes = (algorithm: Algorithm, topology: NcclTopology): boolean =>
  EMULATED.has(algorithm) && !(algorithm === 'nvls' && topology.placement.nodes > 1);

interface Choice { readonly candidate: NcclCandidate; readonly latencySeconds: number; readonly bandwidthSeconds: number }

/**
 * NCCL's tuner choice (collective-cost.ts: the strict-`<` argmin in NCCL's order) among the
 * candidates of `algorithm` ('auto': all of them), split into the latency and the bandwidth term
 * NCCL's model predicts at this size. With 'auto', when NCCL would pick an algorithm the emulator
 * does not execute (PAT, CollNet, NVLS across nodes), the fastest one it does execute is taken; the result names it.
 */
function choose(topology: NcclTopology, op: CollectiveOp, bytes: number, algorithm: Algorithm | 'auto'): Choice | string {
  if (algorithm !== 'auto') {
    const reason = algorithmUnavailable(topology, op, algorithm);
    if (reason !== null) return `${algorithm} cannot run ${op} here: ${reason}`;
    if (!executes(algorithm, topology)) {
      const what = EMULATED.has(algorithm) ? `${algorithm} across nodes (it reduces in the network's switches, CollNet)` : algorithm;
      return `the emulator does not execute ${what}; it is costed by the closed form only`;
    }
  }
  const index = sizeIndex(bytes);
  let best: NcclCandidate | undefined;
  let bestUs = 0;
  for (const c of ncclCandidatesFor(topology, op)) {
    if (algorithm === 'auto' ? !executes(c.algorithm, topology) : c.algorithm !== algorithm) continue;
    const timeUs = candidateTimeUs(c, bytes, index);
    if (best === undefined || timeUs < bestUs) { best = c; bestUs = timeUs; }
  }
  if (!best) return `NCCL has no algorithm the emulator executes for ${op} here`;
  // NCCL decides on its predicted time, then runs the choice as `ncclRuntimeTimeUs` costs it (channels
  // launched for the size, the NVLS chunk pipeline, a broadcast chain's hops): the latency is the run's
  // (`ncclRuntimeLatencyUs`: the tuner's, or the chain's), the rest the bandwidth term.
  const latencyUs = ncclRuntimeLatencyUs(topology, op, best, bytes);
  const runtimeUs = ncclRuntimeTimeUs(topology, op, best, bytes, index);
  return { candidate: best, latencySeconds: us(latencyUs), bandwidthSeconds: us(Math.max(0, runtimeUs - latencyUs)) };
}

function channelsOf(topology: NcclTopology, algorithm: Algorithm, ppn: number): number {
  if (algorithm === 'tree') return topology.tree.nChannels;
  if (algorithm === 'nvls' || algorithm === 'nvls-tree') return topology.nvls?.nChannels ?? ppn;
  return topology.ring.nChannels;
}

/** A chain's per-hop latencies (ringLatencyParts, as the ring's steps are charged), the inter-node one less the one-leaf wire. */
function chainSteps(t: TopologyGraph, topology: NcclTopology, op: 'broadcast' | 'reduce', choice: Choice): ChainStepLatency {
  const parts = ringLatencyParts(topology, op, choice.candidate.protocol);
  return { intraStepSeconds: us(parts.intraStepUs), interStepSeconds: phaseLatency(t, us(parts.interStepUs), true) };
}

/** Appends the flows of one sub-collective of the chosen algorithm to `out` (see StreamProgram). */
function appendStreams(g: StreamGroup, topology: NcclTopology, op: CollectiveOp, bytes: number, choice: Choice, out: FlowSet): string | null {
  const { algorithm } = choice.candidate;
  const nCh = channelsOf(topology, algorithm, g.ppn);
  switch (algorithm) {
    case 'ring':
      if (op === 'broadcast' || op === 'reduce') chainStreams(g, op, bytes, nCh, choice.bandwidthSeconds, chainSteps(g.t, topology, op, choice), out);
      else ringStreams(g, op, bytes, nCh, choice.bandwidthSeconds, out);
      return null;
    case 'tree':
      treeStreams(g, bytes, nCh, choice.bandwidthSeconds, out);
      return null;
    case 'nvls':
    case 'nvls-tree':
      nvlsStreams(g, op, bytes, nCh, choice.bandwidthSeconds, out);
      return null;
    default:
      return `the emulator does not stream ${algorithm}`;
  }
}

/** NCCL's latency for a phase, less the one-leaf wire it already holds when its flows cross nodes (topology-graph.ts interNodeWireSeconds). */
const phaseLatency = (t: TopologyGraph, latencySeconds: number, crossesNodes: boolean): number =>
  Math.max(0, latencySeconds - (crossesNodes ? interNodeWireSeconds(t) : 0));

function streamed(phases: StreamPhase[], result: Prepared['result']): Prepared {
  const program = new StreamProgram(phases);
  const work: Work = { events: program.events, peakFlows: program.peakFlows, visits: 0 };
  return {
    result,
    links(mark) {
      for (const { flows: f } of phases) {
        for (let i = 0; i < f.count; i++) {
          for (let j = 0; j < (f.lengths[i] as number); j++) mark(f.paths[i * MAX_ROUTE_LINKS + j] as number);
        }
      }
    },
    symmetricCandidate: false,
    build: () => ({ program, work, mode: 'full' }),
  };
}

/**
 * Hierarchical all-reduce (collectives-reference §3; hierarchical-collective-cost.ts): reduce-scatter
 * of S inside every node, all-reduce of S/g across nodes on every rail at once (g single-GPU-per-node
 * groups sharing the fabric), all-gather inside every node; each step NCCL's choice for its group,
 * streamed, the steps one after another. Flows are counted before any is built.
 */
function hierarchical(t: TopologyGraph, gpus: readonly number[], ppn: number, bytes: number, budget: number): Prepared | OverBudget | string {
  const fabric = t.fabric;
  const nodes = gpus.length / ppn;
  const intraTopology = ncclTopology(fabric, { ranks: ppn, ranksPerNode: ppn });
  const interTopology = ncclTopology(fabric, { ranks: nodes, ranksPerNode: 1, concurrentGroupsPerNode: ppn });
  const steps: { op: CollectiveOp; topology: NcclTopology; bytes: number; groups: StreamGroup[]; crossesNodes: boolean }[] = [];
  const perNode = Array.from({ length: nodes }, (_, n) => gpus.slice(n * ppn, (n + 1) * ppn));
  if (ppn > 1) steps.push({ op: 'reduce-scatter', topology: intraTopology, bytes, groups: perNode.map((g) => ({ t, gpus: g, ppn, nodes: 1 })), crossesNodes: false });
  if (nodes > 1) {
    const perRail = Array.from({ length: ppn }, (_, l) => perNode.map((node) => node[l] as number));
    steps.push({ op: 'all-reduce', topology: interTopology, bytes: bytes / ppn, groups: perRail.map((g) => ({ t, gpus: g, ppn: 1, nodes })), crossesNodes: true });
  }
  if (ppn > 1) steps.push({ op: 'all-gather', topology: intraTopology, bytes, groups: perNode.map((g) => ({ t, gpus: g, ppn, nodes: 1 })), crossesNodes: false });
  const choices: Choice[] = [];
  let events = 0;
  let peak = 0;
  for (const step of steps) {
    const choice = choose(step.topology, step.op, step.bytes, 'auto');
    if (typeof choice === 'string') return choice;
    choices.push(choice);
    const algorithm = choice.candidate.algorithm;
    let flows = 0;
    for (const g of step.groups) flows += streamFlowCount(algorithm, step.op, g.gpus.length, g.nodes, channelsOf(step.topology, algorithm, g.ppn));
    events += 1 + flows;
    peak = Math.max(peak, flows);
    const cost = workCost({ events, peakFlows: peak, visits: 0 });
    if (cost > budget) return { overBudget: cost };
  }
  const phases: StreamPhase[] = [];
  for (const [i, step] of steps.entries()) {
    const choice = choices[i] as Choice;
    const flows = new FlowSet();
    for (const g of step.groups) {
      const error = appendStreams(g, step.topology, step.op, step.bytes, choice, flows);
      if (error !== null) return error;
    }
    phases.push({ latencySeconds: phaseLatency(t, choice.latencySeconds, step.crossesNodes), flows });
  }
  // Named as the closed form names it (hierarchical-collective-cost.ts): the inter-node step's protocol, or on one node the
  // reduce-scatter's (runtime QA: always "Simple", beside the closed form's LL at 8 B).
  const named = choices[steps.findIndex((s) => s.crossesNodes)] ?? choices[0];
  return streamed(phases, { algorithm: 'hierarchical', protocol: named?.candidate.protocol ?? 'Simple' });
}

/** All-to-all or send-recv as direct sends (DirectProgram), NCCL's one-step latency per post. */
function direct(t: TopologyGraph, c: EmulatedCollective, topology: NcclTopology, ppn: number, budget: number): Prepared | OverBudget {
  const n = c.gpus.length;
  const pairCount = c.op === 'all-to-all' ? n * (n - 1) : n;
  const pairBytes = c.op === 'all-to-all' ? c.bytes / n : c.bytes;
  const hw = NCCL_TABLES.hwLatencyUs.value;
  const base = NCCL_TABLES.baseLatencyUs.value.ring.Simple;
  const overhead = NCCL_TABLES.netOverheadUs.value.intel;
  // NCCL's latency less the one-leaf wire it holds; the route's own wire is added on arrival.
  const remoteStart = (round: number): number => phaseLatency(t, us(base + hw.net.ring.Simple + round * overhead), true);
  const localStart = us(base + hw[topology.intraHardware].ring.Simple);
  const nodes = n / ppn;
  const nodeNic = t.nicsPerNode * (t.linkBandwidth[hostNicLink(t, 0, 0)] as number); // host→NIC links of a node
  const visits = c.op === 'all-to-all' && nodes > 1
    ? allToAllVisitsAtLeast({ nodes, ppn, pairBytes, nodeNicBytesPerSecond: nodeNic, routeLinks: 6, remoteStartSeconds: remoteStart })
    : 0;
  const work: Work = { events: 2 * pairCount, peakFlows: pairCount, visits };
  // Refuse before allocating: n(n−1) pairs of a large all-to-all would take minutes and gigabytes to list.
  if (workCost(work) > budget) return { overBudget: workCost(work) };
  const pairs = new Int32Array(2 * pairCount);
  const starts = new Float64Array(pairCount);
  let p = 0;
  for (let i = 0; i < n; i++) {
    let remote = 0;
    const peers = c.op === 'all-to-all' ? n - 1 : 1;
    for (let k = 1; k <= peers; k++) {
      const src = c.gpus[i] as number;
      const dst = c.gpus[(i + k) % n] as number;
      const cross = Math.floor(src / t.gpusPerNode) !== Math.floor(dst / t.gpusPerNode);
      pairs[2 * p] = src; pairs[2 * p + 1] = dst;
      starts[p] = cross ? remoteStart(remote++) : localStart;
      p++;
    }
  }
  const program = new DirectProgram(t, pairs, pairBytes, starts);
  const path = new Int32Array(MAX_ROUTE_LINKS);
  return {
    result: { algorithm: 'direct', protocol: 'Simple' },
    links(mark) {
      for (let q = 0; q < pairCount; q++) {
        const src = pairs[2 * q] as number;
        const rail = railOfGpu(t, src);
        const length = routeInto(t, src, pairs[2 * q + 1] as number, rail, path);
        for (let j = 0; j < length; j++) mark(path[j] as number);
      }
    },
    symmetricCandidate: false,
    build: () => ({ program, work, mode: 'full' }),
  };
}

/** A ring all-reduce / all-gather / reduce-scatter, step by step (RingProgram). */
function ring(t: TopologyGraph, c: EmulatedCollective, topology: NcclTopology, ppn: number, choice: Choice, mode: 'auto' | 'full' | 'symmetric', budget: number): Prepared | OverBudget {
  const n = c.gpus.length;
  const nodes = n / ppn;
  const candidate = choice.candidate;
  const nCh = topology.ring.nChannels;
  const nsteps = ringSteps(c.op, n);
  const parts = ringLatencyParts(topology, c.op, candidate.protocol);
  // Ring/Simple's multi-node plateau (× 1.4 on every latency) when NCCL's model applies it at this size.
  const usedLatencyUs = choice.latencySeconds / us(1);
  const scale = candidate.latencyUs > 0 ? usedLatencyUs / candidate.latencyUs : 1;
  const f = NCCL_TABLES.factors.value;
  const efficiency = candidate.protocol === 'LL' ? f.ringLL : candidate.protocol === 'LL128' ? f.ringLL128 : 1;
  // The rate NCCL runs at (choice.bandwidthSeconds: the runtime model), spread over the channels.
  const runtimeAlgBandwidthGBps = c.bytes / (1000 * (choice.bandwidthSeconds / us(1)));
  const perChannelBusGBps = (runtimeAlgBandwidthGBps * nsteps) / n / nCh;
  const stepsEvents = nCh * nsteps;
  // Full mode when asked, or (auto) when every edge of every step fits the full-mode event limit.
  const fullByMode = mode === 'full' || (mode === 'auto' && stepsEvents * (n + 1) <= FULL_MODE_MAX_EVENTS);
  // Every step of every channel is at least one event and one flow: refuse before building channels. Where full
  // mode is certain its events and flows are known exactly (n flows per step per channel): the refusal says
  // that bound, not the looser one (QA 2026-11-29: a 4-node 1 GiB all-reduce was said to need 576 at a budget of 10,
  // 18,928 at 600).
  const fullCost = workCost({ events: stepsEvents * (n + 1), peakFlows: nCh * n, visits: 0 });
  const least = fullByMode ? fullCost : workCost({ events: stepsEvents, peakFlows: nCh, visits: 0 });
  if (least > budget) return { overBudget: least };
  const channels: RingChannel[] = ringChannels(t, c.gpus, ppn, nCh);
  const multiplicity = edgeMultiplicity(t, channels);
  return {
    result: { algorithm: 'ring', protocol: candidate.protocol },
    symmetricCandidate: !fullByMode,
    links(mark) {
      for (let l = 0; l < multiplicity.length; l++) if ((multiplicity[l] as number) > 0) mark(l);
    },
    build(symmetricAllowed) {
      const full = fullByMode || !symmetricAllowed;
      // n flows per step per channel: refuse before routing them all.
      if (full && fullCost > budget) return { overBudget: fullCost };
      const reps = representatives(t, channels, multiplicity, full);
      const flowsPerStep = reps.reduce((sum, r) => sum + r.count, 0);
      const program = new RingProgram({
        nsteps,
        stepBytes: c.bytes / (n * nCh),
        efficiency,
        capBytesPerSecond: GBps(perChannelBusGBps),
        baseSeconds: us(parts.baseUs * scale),
        intraStepSeconds: us(parts.intraStepUs * scale),
        interStepSeconds: phaseLatency(t, us(parts.interStepUs * scale), true),
        hopSeconds: interNodeHopSeconds(t, channels, ppn),
      }, ppn, nodes, reps);
      return { program, work: { events: stepsEvents + nsteps * flowsPerStep, peakFlows: flowsPerStep, visits: 0 }, mode: full ? 'full' : 'symmetric' };
    },
  };
}

/** Ranks per node of a GPU list laid out node by node, or null when nodes hold different counts. */
function uniformRanksPerNode(t: TopologyGraph, gpus: readonly number[]): number | null {
  const perNode = new Map<number, number>();
  for (const gpu of gpus) {
    const node = Math.floor(gpu / t.gpusPerNode);
    perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  const counts = new Set(perNode.values());
  return counts.size === 1 ? ([...counts][0] as number) : null;
}

/**
 * Plans one collective: NCCL's algorithm and protocol for it, its work checked against `budget`
 * before anything large is built. A string is a reason it cannot be emulated.
 */
export function prepareCollective(t: TopologyGraph, c: EmulatedCollective, mode: 'auto' | 'full' | 'symmetric', budget: number): Prepared | OverBudget | string {
  const n = c.gpus.length;
  const ppn = uniformRanksPerNode(t, c.gpus);
  if (ppn === null) return 'every node of a collective must hold the same number of its GPUs';
  const nodes = n / ppn;
  const topology = ncclTopology(t.fabric, { ranks: n, ranksPerNode: ppn });
  if (c.op === 'all-to-all' || c.op === 'send-recv') return direct(t, c, topology, ppn, budget);
  const algorithm = c.algorithm ?? 'auto';
  if (algorithm === 'hierarchical') {
    if (c.op !== 'all-reduce') return 'the hierarchical algorithm implements all-reduce only';
    return hierarchical(t, c.gpus, ppn, c.bytes, budget);
  }
  const choice = choose(topology, c.op, c.bytes, algorithm);
  if (typeof choice === 'string') return choice;
  const candidate = choice.candidate;
  if (candidate.algorithm === 'ring' && (c.op === 'all-reduce' || c.op === 'all-gather' || c.op === 'reduce-scatter')) {
    return ring(t, c, topology, ppn, choice, mode, budget);
  }
  const count = streamFlowCount(candidate.algorithm, c.op, n, nodes, channelsOf(topology, candidate.algorithm, ppn));
  // A chain's flows each start on a timer of their own (every hop has a latency): two events a flow, and they need
  // not all be in flight at once (one is, at least).
  const chain = candidate.algorithm === 'ring' && (c.op === 'broadcast' || c.op === 'reduce');
  const least = workCost({ events: 1 + (chain ? 2 : 1) * count, peakFlows: chain ? 1 : count, visits: 0 });
  if (least > budget) return { overBudget: least };
  const flows = new FlowSet();
  const error = appendStreams({ t, gpus: c.gpus, ppn, nodes }, topology, c.op, c.bytes, choice, flows);
  if (error !== null) return error;
  // A chain's flows carry their hops' latencies in their starts (chainStreams): the phase waits NCCL's base only.
  const latencySeconds = chain ? us(ringLatencyParts(topology, c.op, candidate.protocol).baseUs) : phaseLatency(t, choice.latencySeconds, nodes > 1);
  return streamed([{ latencySeconds, flows }], { algorithm: candidate.algorithm, protocol: candidate.protocol });
}
