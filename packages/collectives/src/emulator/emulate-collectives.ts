import { GBps, us } from '@trainplan/units';
import { candidateTimeUs, ringSteps, sizeIndex, type NcclCandidate } from '../nccl-candidate.ts';
import { algorithmUnavailable, ncclCandidatesFor } from '../nccl-candidates.ts';
import { ringLatencyParts } from '../nccl-ring-model.ts';
import { ncclRuntimeTimeUs } from '../nccl-runtime-model.ts';
import { NCCL_TABLES } from '../nccl-tables.ts';
import { ncclTopology, type NcclTopology } from '../nccl-topology.ts';
import { LINK_KINDS, linkName, type TopologyGraph } from '../topology/topology-graph.ts';
import type { Algorithm, CollectiveOp, Protocol } from '../types.ts';
import { chainStreams, nvlsStreams, ringStreams, treeStreams, type StreamGroup } from './algorithm-streams.ts';
import { StreamProgram, type StreamFlow, type StreamPhase } from './stream-program.ts';
import { DirectProgram } from './direct-program.ts';
import { FlowEngine } from './flow-engine.ts';
import { edgeMultiplicity, representatives, ringChannels, RingProgram } from './ring-program.ts';

/** One collective to emulate: the GPUs (global indices, node by node) and nccl-tests size semantics. */
export interface EmulatedCollective {
  readonly op: CollectiveOp;
  readonly bytes: number;
  readonly gpus: readonly number[];
  /** NCCL's tuner choice ('auto', the default) or a forced algorithm; 'hierarchical' composes three steps. */
  readonly algorithm?: Algorithm | 'auto';
}

export interface LinkUsage {
  readonly link: number;
  readonly name: string;
  readonly kind: string;
  readonly bytes: number;
  readonly bandwidthBytesPerSecond: number;
  /** Bytes carried ÷ (bandwidth × the emulated time). */
  readonly utilisation: number;
}

export interface EmulatedCollectiveResult {
  readonly seconds: number;
  readonly algorithm: Algorithm;
  readonly protocol: Protocol;
  readonly mode: 'full' | 'symmetric';
}

export type EmulationResult =
  | {
    readonly ok: true;
    /** When the last collective finished. */
    readonly seconds: number;
    readonly events: number;
    readonly collectives: readonly EmulatedCollectiveResult[];
    /** Links that carried bytes, most utilised first (at most `maxLinks`). */
    readonly links: readonly LinkUsage[];
    readonly bottleneck: LinkUsage | null;
  }
  | { readonly ok: false; readonly reason: 'event-budget'; readonly message: string; readonly limit: number; readonly needed: number }
  | { readonly ok: false; readonly reason: 'invalid'; readonly message: string };

/** The default event budget: about 5 s of emulation on one core at ≥ 2 M events/s. */
export const DEFAULT_EVENT_BUDGET = 10_000_000;
/** Above this many events a ring runs in symmetric mode (one flow per edge class per step per channel). */
export const FULL_MODE_MAX_EVENTS = 200_000;

/** A collective whose events are known, before any flow is built, to pass the budget. */
interface OverBudget { overBudget: number }
interface Prepared { program: RingProgram | DirectProgram | StreamProgram; events: number; result: Omit<EmulatedCollectiveResult, 'seconds'> }

function invalid(message: string): EmulationResult {
  return { ok: false, reason: 'invalid', message };
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

interface Choice { readonly candidate: NcclCandidate; readonly latencySeconds: number; readonly bandwidthSeconds: number }

/** The algorithms the emulator executes (PAT and CollNet are costed by the closed form only). */
const EMULATED: ReadonlySet<Algorithm> = new Set(['ring', 'tree', 'nvls', 'nvls-tree', 'direct']);

/**
 * NCCL's tuner choice (collective-cost.ts: the strict-`<` argmin in NCCL's order) among the
 * candidates of `algorithm` ('auto': all of them), split into the latency and the bandwidth term
 * NCCL's model predicts at this size. With 'auto', when NCCL would pick an algorithm the emulator
 * does not execute (PAT), the fastest one it does execute is taken; the result names it.
 */
function choose(topology: NcclTopology, op: CollectiveOp, bytes: number, algorithm: Algorithm | 'auto'): Choice | string {
  if (algorithm !== 'auto') {
    const reason = algorithmUnavailable(topology, op, algorithm);
    if (reason !== null) return `${algorithm} cannot run ${op} here: ${reason}`;
    if (!EMULATED.has(algorithm)) return `the emulator does not execute ${algorithm}; it is costed by the closed form only`;
  }
  const index = sizeIndex(bytes);
  let best: NcclCandidate | undefined;
  let bestUs = 0;
  for (const c of ncclCandidatesFor(topology, op)) {
    if (algorithm === 'auto' ? !EMULATED.has(c.algorithm) : c.algorithm !== algorithm) continue;
    const timeUs = candidateTimeUs(c, bytes, index);
    if (best === undefined || timeUs < bestUs) { best = c; bestUs = timeUs; }
  }
  if (!best) return `NCCL has no algorithm the emulator executes for ${op} here`;
  const bySize = best.algBandwidthBySizeGBps;
  const algBandwidthGBps = index < bySize.length ? (bySize[index] as number) : best.algBandwidthGBps;
  // NCCL decides on its predicted time, then runs the choice as `ncclRuntimeTimeUs` costs it (channels
  // launched for the size, the NVLS chunk pipeline): the latency is the tuner's, the rest the bandwidth term.
  const latencyUs = bestUs - bytes / (1000 * algBandwidthGBps);
  const runtimeUs = ncclRuntimeTimeUs(topology, op, best, bytes, index);
  return { candidate: best, latencySeconds: us(latencyUs), bandwidthSeconds: us(Math.max(0, runtimeUs - latencyUs)) };
}

/**
 * The flows `streamsFor` builds for n GPUs, at least (algorithm-streams.ts): NVLS one up and one down
 * per GPU; a ring, chain or tree one per edge of an n-GPU spanning order, per channel. Checked against
 * the event budget before any flow is built: a flow is an event, and a million flows are gigabytes.
 */
function streamFlowsAtLeast(topology: NcclTopology, algorithm: Algorithm, n: number): number {
  if (algorithm === 'nvls' || algorithm === 'nvls-tree') return 2 * n;
  return (algorithm === 'tree' ? topology.tree.nChannels : topology.ring.nChannels) * (n - 1);
}

/** The flows of one sub-collective of the chosen algorithm, streamed (see StreamProgram). */
function streamsFor(g: StreamGroup, topology: NcclTopology, op: CollectiveOp, bytes: number, choice: Choice): StreamFlow[] | string {
  const { algorithm } = choice.candidate;
  switch (algorithm) {
    case 'ring':
      if (op === 'broadcast' || op === 'reduce') return chainStreams(g, op, bytes, topology.ring.nChannels, choice.bandwidthSeconds);
      return ringStreams(g, op, bytes, topology.ring.nChannels, choice.bandwidthSeconds);
    case 'tree':
      return treeStreams(g, bytes, topology.tree.nChannels, choice.bandwidthSeconds);
    case 'nvls':
    case 'nvls-tree':
      return nvlsStreams(g, op, bytes, topology.nvls?.nChannels ?? g.ppn, choice.bandwidthSeconds);
    default:
      return `the emulator does not stream ${algorithm}`;
  }
}

/**
 * Hierarchical all-reduce (collectives-reference §3; hierarchical-collective-cost.ts): reduce-scatter
 * of S inside every node, all-reduce of S/g across nodes on every rail at once (g single-GPU-per-node
 * groups sharing the fabric), all-gather inside every node; each step NCCL's choice for its group,
 * streamed, the steps one after another.
 */
function hierarchicalPhases(t: TopologyGraph, gpus: readonly number[], ppn: number, bytes: number, budget: number): StreamPhase[] | OverBudget | string {
  const fabric = t.fabric;
  const nodes = gpus.length / ppn;
  const phases: StreamPhase[] = [];
  const intraTopology = ncclTopology(fabric, { ranks: ppn, ranksPerNode: ppn });
  const interTopology = ncclTopology(fabric, { ranks: nodes, ranksPerNode: 1, concurrentGroupsPerNode: ppn });
  const steps: { op: CollectiveOp; topology: NcclTopology; bytes: number; groups: StreamGroup[] }[] = [];
  const perNode = Array.from({ length: nodes }, (_, n) => gpus.slice(n * ppn, (n + 1) * ppn));
  const perRail = Array.from({ length: ppn }, (_, l) => perNode.map((node) => node[l] as number));
  if (ppn > 1) steps.push({ op: 'reduce-scatter', topology: intraTopology, bytes, groups: perNode.map((g) => ({ t, gpus: g, ppn, nodes: 1 })) });
  if (nodes > 1) steps.push({ op: 'all-reduce', topology: interTopology, bytes: bytes / ppn, groups: perRail.map((g) => ({ t, gpus: g, ppn: 1, nodes })) });
  if (ppn > 1) steps.push({ op: 'all-gather', topology: intraTopology, bytes, groups: perNode.map((g) => ({ t, gpus: g, ppn, nodes: 1 })) });
  let events = 0;
  for (const step of steps) {
    const choice = choose(step.topology, step.op, step.bytes, 'auto');
    if (typeof choice === 'string') return choice;
    const flows: StreamFlow[] = [];
    events += 1;
    for (const g of step.groups) {
      events += streamFlowsAtLeast(step.topology, choice.candidate.algorithm, g.gpus.length);
      if (events > budget) return { overBudget: events };
      const f = streamsFor(g, step.topology, step.op, step.bytes, choice);
      if (typeof f === 'string') return f;
      // One by one: spreading a million-flow array as arguments overflows the stack.
      for (const flow of f) flows.push(flow);
    }
    phases.push({ latencySeconds: choice.latencySeconds, flows });
  }
  return phases;
}

function prepare(t: TopologyGraph, c: EmulatedCollective, mode: 'auto' | 'full' | 'symmetric', budget: number): Prepared | OverBudget | string {
  const n = c.gpus.length;
  const ppn = uniformRanksPerNode(t, c.gpus);
  if (ppn === null) return 'every node of a collective must hold the same number of its GPUs';
  const nodes = n / ppn;
  const fabric = t.fabric;
  const topology = ncclTopology(fabric, { ranks: n, ranksPerNode: ppn });
  if (c.op === 'all-to-all' || c.op === 'send-recv') {
    const pairCount = c.op === 'all-to-all' ? n * (n - 1) : n;
    // Refuse before allocating: n(n−1) pairs of a large all-to-all would take minutes and gigabytes to list.
    if (2 * pairCount > budget) return { overBudget: 2 * pairCount };
    const pairs = new Int32Array(2 * pairCount);
    const starts = new Float64Array(pairCount);
    const hw = NCCL_TABLES.hwLatencyUs.value;
    const base = NCCL_TABLES.baseLatencyUs.value.ring.Simple;
    const overhead = NCCL_TABLES.netOverheadUs.value.intel;
    let p = 0;
    for (let i = 0; i < n; i++) {
      let remote = 0;
      const peers = c.op === 'all-to-all' ? n - 1 : 1;
      for (let k = 1; k <= peers; k++) {
        const src = c.gpus[i] as number;
        const dst = c.gpus[(i + k) % n] as number;
        const cross = Math.floor(src / t.gpusPerNode) !== Math.floor(dst / t.gpusPerNode);
        pairs[2 * p] = src; pairs[2 * p + 1] = dst;
        starts[p] = us(base + (cross ? hw.net.ring.Simple : hw[topology.intraHardware].ring.Simple) + (cross ? remote++ : 0) * overhead);
        p++;
      }
    }
    const pairBytes = c.op === 'all-to-all' ? c.bytes / n : c.bytes;
    return { program: new DirectProgram(t, pairs, pairBytes, starts), events: 2 * pairCount, result: { algorithm: 'direct', protocol: 'Simple', mode: 'full' } };
  }
  const algorithm = c.algorithm ?? 'auto';
  if (algorithm === 'hierarchical') {
    if (c.op !== 'all-reduce') return 'the hierarchical algorithm implements all-reduce only';
    const phases = hierarchicalPhases(t, c.gpus, ppn, c.bytes, budget);
    if (typeof phases === 'string' || 'overBudget' in phases) return phases;
    const program = new StreamProgram(phases);
    return { program, events: program.events, result: { algorithm: 'hierarchical', protocol: 'Simple', mode: 'full' } };
  }
  const choice = choose(topology, c.op, c.bytes, algorithm);
  if (typeof choice === 'string') return choice;
  const candidate = choice.candidate;
  if (candidate.algorithm !== 'ring' || (c.op !== 'all-reduce' && c.op !== 'all-gather' && c.op !== 'reduce-scatter')) {
    const atLeast = streamFlowsAtLeast(topology, candidate.algorithm, n);
    if (atLeast > budget) return { overBudget: atLeast };
    const flows = streamsFor({ t, gpus: c.gpus, ppn, nodes }, topology, c.op, c.bytes, choice);
    if (typeof flows === 'string') return flows;
    const program = new StreamProgram([{ latencySeconds: choice.latencySeconds, flows }]);
    return { program, events: program.events, result: { algorithm: candidate.algorithm, protocol: candidate.protocol, mode: 'full' } };
  }
  const nCh = topology.ring.nChannels;
  const nsteps = ringSteps(c.op, n);
  const parts = ringLatencyParts(topology, c.op, candidate.protocol);
  // Ring/Simple's multi-node plateau (× 1.4 on every latency) when NCCL's model applies it at this size.
  const index = sizeIndex(c.bytes);
  const usedLatencyUs = choice.latencySeconds / us(1);
  const scale = candidate.latencyUs > 0 ? usedLatencyUs / candidate.latencyUs : 1;
  const f = NCCL_TABLES.factors.value;
  const efficiency = candidate.protocol === 'LL' ? f.ringLL : candidate.protocol === 'LL128' ? f.ringLL128 : 1;
  // The rate NCCL runs at (choice.bandwidthSeconds: the runtime model), spread over the channels.
  const runtimeAlgBandwidthGBps = c.bytes / (1000 * (choice.bandwidthSeconds / us(1)));
  const perChannelBusGBps = (runtimeAlgBandwidthGBps * nsteps) / n / nCh;
  const stepsEvents = nCh * nsteps;
  // Every step of every channel is at least one event: refuse before building channels and flows.
  if (stepsEvents > budget) return { overBudget: stepsEvents };
  const channels = ringChannels(t, c.gpus, ppn, nCh);
  const full = mode === 'full' || (mode === 'auto' && stepsEvents * (n + 1) <= FULL_MODE_MAX_EVENTS);
  const multiplicity = edgeMultiplicity(t, channels);
  const reps = representatives(t, channels, multiplicity, full);
  const flowsPerStep = reps.reduce((sum, r) => sum + r.count, 0);
  const program = new RingProgram({
    nsteps,
    stepBytes: c.bytes / (n * nCh),
    efficiency,
    capBytesPerSecond: GBps(perChannelBusGBps),
    baseSeconds: us(parts.baseUs * scale),
    intraStepSeconds: us(parts.intraStepUs * scale),
    interStepSeconds: us(parts.interStepUs * scale),
  }, ppn, nodes, reps);
  return {
    program,
    events: stepsEvents + nsteps * flowsPerStep,
    result: { algorithm: 'ring', protocol: candidate.protocol, mode: full ? 'full' : 'symmetric' },
  };
}

/**
 * Runs collectives at the same time over a topology graph, flows sharing links, and reports when
 * each finished, per-link utilisation and the bottleneck link. Estimates the events first and
 * refuses (as data) a run past `eventBudget`; never hangs. Ring all-reduce / all-gather /
 * reduce-scatter use NCCL's ring channels and its protocol choice for the size (caps and per-step
 * latencies from NCCL's model); all-to-all and send-recv run as direct sends.
 */
export function emulateCollectives(options: {
  readonly topology: TopologyGraph;
  readonly collectives: readonly EmulatedCollective[];
  readonly eventBudget?: number;
  readonly mode?: 'auto' | 'full' | 'symmetric';
  readonly maxLinks?: number;
}): EmulationResult {
  const { topology: t, collectives } = options;
  const budget = options.eventBudget ?? DEFAULT_EVENT_BUDGET;
  const gpuCount = t.nodes * t.gpusPerNode;
  const prepared: Prepared[] = [];
  let atLeast = 0;
  for (const [i, c] of collectives.entries()) {
    if (!(c.bytes > 0) || !Number.isFinite(c.bytes)) return invalid(`collectives[${i}].bytes must be a finite number > 0, got ${c.bytes}`);
    if (c.gpus.length < 2) return invalid(`collectives[${i}] needs at least 2 GPUs, got ${c.gpus.length}`);
    if (new Set(c.gpus).size !== c.gpus.length) return invalid(`collectives[${i}].gpus lists a GPU twice`);
    for (const gpu of c.gpus) {
      if (!Number.isInteger(gpu) || gpu < 0 || gpu >= gpuCount) {
        return invalid(`collectives[${i}].gpus: GPU ${gpu} is not in the topology (${gpuCount} GPUs)`);
      }
    }
    const p = prepare(t, c, options.mode ?? 'auto', budget - atLeast);
    if (typeof p === 'string') return invalid(`collectives[${i}]: ${p}`);
    if ('overBudget' in p) {
      const needed = atLeast + p.overBudget;
      return { ok: false, reason: 'event-budget', limit: budget, needed, message: `the emulation needs at least ${needed} events, over the event budget of ${budget}` };
    }
    atLeast += p.events;
    prepared.push(p);
  }
  const needed = atLeast;
  if (needed > budget) {
    return {
      ok: false, reason: 'event-budget', limit: budget, needed,
      message: `the emulation needs about ${needed} events, over the event budget of ${budget}`,
    };
  }
  const engine = new FlowEngine(t.linkBandwidth);
  for (const p of prepared) p.program.start(engine);
  // The estimate is exact up to zero-length steps; the margin only guards against a runaway.
  if (!engine.run(budget)) {
    return { ok: false, reason: 'event-budget', limit: budget, needed: engine.events, message: `the emulation ran past the event budget of ${budget}` };
  }
  const seconds = engine.now;
  const links: LinkUsage[] = [];
  for (let l = 0; l < t.linkCount; l++) {
    const bytes = engine.linkBytes[l] as number;
    if (bytes <= 0) continue;
    const bandwidth = t.linkBandwidth[l] as number;
    links.push({
      link: l, name: linkName(t, l), kind: LINK_KINDS[t.linkKind[l] ?? 0] ?? 'link', bytes,
      bandwidthBytesPerSecond: bandwidth, utilisation: seconds > 0 ? bytes / (bandwidth * seconds) : 0,
    });
  }
  links.sort((a, b) => b.utilisation - a.utilisation || a.link - b.link);
  return {
    ok: true,
    seconds,
    events: engine.events,
    collectives: prepared.map((p) => ({ ...p.result, seconds: p.program.finishedAt })),
    links: links.slice(0, options.maxLinks ?? 16),
    bottleneck: links[0] ?? null,
  };
}
