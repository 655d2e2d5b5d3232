import { defaultSystemForGpu, NETWORKS, networkById, systemById } from '@trainplan/presets';
import { runCollective } from '@trainplan/protocol';
import { countOf, formatBytesDecimal, formatGrouped, formatSeconds } from '@trainplan/units';
import { gpusPerNodeOf } from '../defaults.ts';
import type { CollectiveOp, ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';
import { answerHelp } from './help-answer.ts';
import { emulatedFigures, emulatedHeadline, runEmulated } from './collective-emulated.ts';
import { gpuName } from './describe-estimate.ts';
import { failureKind, refusalWords } from './issue-words.ts';
import { partNodesProblem } from './whole-counts.ts';

/** Why a collective over one GPU moves nothing, by what the collective does. */
const ALONE: Record<CollectiveOp, string> = {
  'all-reduce': 'nothing to reduce across',
  reduce: 'nothing to reduce across',
  'reduce-scatter': 'nothing to reduce across',
  'all-gather': 'nothing to gather from',
  broadcast: 'no other GPU to send to',
  'all-to-all': 'no other GPU to exchange with',
};

/**
 * "with SHARP" asked: on (the protocol's collnet, NCCL_COLLNET_ENABLE=1) where the network reduces in its switches; where
 * it does not, NCCL finds no collective network to set up (collectives' withCollnet refuses one), so the collective is
 * answered without it and that said. Undefined when the question did not ask for it (CollNet off, NCCL's default).
 */
function inNetworkReduction(q: ParsedQuestion): { on: boolean; unavailable?: string } | undefined {
  if (q.stated.collnet !== true) return undefined;
  const p = q.parameters;
  const system = systemById(p.system ?? '') ?? defaultSystemForGpu(p.gpu ?? '');
  const network = networkById(q.stated.network ?? system?.network ?? '');
  if (network === undefined || network.inNetworkReduction) return { on: true };
  const withIt = Object.values(NETWORKS).filter((n) => n.inNetworkReduction).map((n) => n.id);
  return { on: false, unavailable: `SHARP (in-network reduction) is not available on ${network.id} (${network.name}): its switches do not reduce, so NCCL runs without CollNet and so is this answer; the networks here with it: ${withIt.join(', ')}` };
}

/** The algorithms that reduce in the network's switches once CollNet is on (nccl-collnet-model.ts). */
const COLLNET_ALGORITHMS: ReadonlySet<string> = new Set(['collnet-direct', 'collnet-chain']);

/** What NCCL chose with SHARP on, and why that one, in words (the choice is its tuner's: the fastest modelled). */
function sharpChoice(algorithm: string, nodes: number, op: CollectiveOp | undefined): string {
  const on = 'Assumed SHARP enabled: NCCL_COLLNET_ENABLE=1 with the SHARP plugin (CollNet)';
  if (COLLNET_ALGORITHMS.has(algorithm)) return `${on}; NCCL chose ${algorithm}: each node's GPUs send their shares through their own NICs to the switches, which reduce them.`;
  if (algorithm === 'nvls' && nodes > 1) return `${on}; NCCL chose NVLS across nodes: the NVSwitch reduces within each node and SHARP across the nodes.`;
  // NCCL sets CollNet up for all-reduce across 2 nodes or more only (NCCL_COLLNET_NODE_THRESHOLD; nccl-collnet-model.ts).
  const why = op !== 'all-reduce' ? 'CollNet is modelled for all-reduce only' : nodes < 2 ? 'CollNet runs across 2 nodes or more' : 'its tuner found it faster than CollNet here';
  return `${on}; NCCL still chose ${algorithm}: ${why}.`;
}

/**
 * "all-reduce 1 GB on 64 H100": one size through the protocol's runCollective (NCCL's cost model,
 * collectives-reference.md), reported with nccl-tests' algbw and busbw.
 */
export function answerCollective(q: ParsedQuestion): Answer {
  const p = q.parameters;
  const perNode = gpusPerNodeOf(p);
  const gpus = p.gpus ?? (p.nodes ?? 1) * perNode;
  // "on 0 GPUs": said in the question's words, not as the protocol's field (gpusPerNode ≥ 1).
  if (gpus < 1) return answerHelp(q, [`a collective runs on 2 GPUs or more (1 moves no data), got ${countOf(gpus, 'GPU')}`]);
  if (gpus > perNode && gpus % perNode !== 0) {
    return answerHelp(q, [partNodesProblem(gpus, perNode)]);
  }
  const nodes = Math.max(1, Math.ceil(gpus / perNode));
  const sharp = inNetworkReduction(q);
  const request = {
    op: p.op,
    ...(p.system !== undefined ? { system: p.system } : { gpu: p.gpu }),
    // A network the question named ("over HDR"): the collective runs on it, as the CLI's --network.
    ...(q.stated.network !== undefined && { network: q.stated.network }),
    ...(sharp?.on === true && { collnet: true }),
    nodes,
    gpusPerNode: Math.min(gpus, perNode),
    algorithm: p.algorithm ?? 'auto',
    size: p.bytes,
  };
  // "Emulated": the emulator beside the closed form, or the closed form said where the emulation is past its limit.
  const { result, notes: emulation } = p.emulate === true ? runEmulated(request) : { result: runCollective(request), notes: [] };
  // With SHARP on, NCCL's choice takes in the algorithms that reduce in the network too.
  const assumptions = q.defaults.map((d) => (d.field === 'algorithm' && sharp?.on === true ? `${d.text}, or with SHARP on CollNetDirect, CollNetChain or NVLS across nodes` : d.text));
  const base = { intent: q.intent, question: q.text, assumptions, examples: [], data: result, notes: emulation };
  const subject = `${p.op} of ${formatBytesDecimal(p.bytes ?? 0)} on ${formatGrouped(gpus)} × ${gpuName(p.gpu ?? '')}${sharp === undefined ? '' : sharp.on ? ' with SHARP (CollNet)' : ' (SHARP not available: without it)'}`;
  if (!result.ok) return { ...base, kind: failureKind(result.reason), ok: false, headline: `${subject}: ${refusalWords(result)}`, figures: [] };
  const row = result.rows[0];
  // No row for the one size asked: nothing to say of it, so it is no answer.
  if (row === undefined) return { ...base, kind: 'refusal', ok: false, headline: `${subject}: no answer`, figures: [] };
  // One GPU: NCCL returns at once and the time is 0 s, its bandwidths 0 GB/s, which read as a fault unless said why.
  const alone = gpus === 1 && p.op !== undefined;
  const moreGpus = Math.max(2, perNode);
  const said = sharp === undefined ? [] : sharp.on ? [sharpChoice(row.algorithm, result.nodes, p.op)] : [`${sharp.unavailable}.`];
  const notes = alone
    ? [`Give more GPUs for a time and a bandwidth, e.g. "${p.op} ${formatBytesDecimal(p.bytes ?? 0)} on ${moreGpus} ${gpuName(p.gpu ?? '')}" (${perNode >= 2 ? 'one node' : countOf(moreGpus, 'node')}) or on 2 nodes and more (across the network).`]
    : [];
  return {
    ...base,
    kind: 'answer',
    ok: true,
    headline: alone
      ? `${subject}: ${formatSeconds(row.seconds)}, as a collective over one GPU moves no data (${ALONE[p.op ?? 'all-reduce']})`
      : `${subject}: ${row.emulated === undefined ? `${formatSeconds(row.seconds)}, bus bandwidth ${formatGrouped(row.busbwGBps)} GB/s` : emulatedHeadline(row.emulated, row)}`,
    configuration: `${countOf(result.nodes, 'node')} × ${countOf(result.gpusPerNode, 'GPU')} of ${result.system} over ${result.network}; ${row.algorithm} / ${row.protocol}`,
    figures: [
      { label: 'Time', value: formatSeconds(row.seconds) },
      { label: 'Algorithm bandwidth', value: `${formatGrouped(row.algbwGBps)} GB/s` },
      { label: 'Bus bandwidth', value: `${formatGrouped(row.busbwGBps)} GB/s` },
      { label: 'Algorithm', value: `${row.algorithm} (${row.protocol})${request.algorithm === 'auto' ? ', NCCL’s choice' : ''}` },
      ...(row.emulated === undefined ? [] : emulatedFigures(row.emulated)),
    ],
    // Alone, the headline says why it is 0 s and the note which GPUs to give: the protocol's own "one GPU" note would repeat it.
    notes: [...emulation, ...said, ...notes, ...(alone ? result.notes.filter((n) => !n.startsWith('one GPU:')) : result.notes)],
  };
}
