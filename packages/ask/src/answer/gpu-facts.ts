import { isGpuId, nvlinkBandwidthPerDirection, type GpuSpec, type Precision } from '@trainplan/hardware';
import { GPU_SOURCES, gpuById, systemById } from '@trainplan/presets';
import { formatBytes, formatGrouped, toGBps, toTFLOPS } from '@trainplan/units';
import { matchHardware } from '../lexicon/hardware.ts';
import { ENERGY_NOT_MODELLED } from '../lexicon/unmodelled-settings.ts';
import { WHICH_INFINIBAND } from '../lexicon/network.ts';
import { ASKS_FP64, ASKS_HOW_MANY, asksInt8, asksSharp, asksSparsity, gpuFactsAsked, precisionsAsked, type GpuFact } from '../lexicon/gpu-facts.ts';
import { NAME_A_MODEL, normalize } from '../parse.ts';
import { flopBudgetOf } from '../lexicon/flop-budget.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import type { Answer, AnswerFigure } from './answer-types.ts';
import { gpuName } from './describe-estimate.ts';
import { FP64_NOTE } from './fp64-note.ts';
import { intraNodeName, networkFigures, networkNotes, networkText, nodeNetworkOf, usesNvlink, type NodeNetwork } from './system-network.ts';

/**
 * "What is the peak bf16 of the b200", "how much memory does an h200 have", "what is the nvlink bandwidth of an h100": a
 * GPU's own figures, from its preset (packages/hardware gpus.ts) with the datasheet it cites. QA: all three were refused,
 * as not understood or for naming no model. The figures are the ones every plan here computes with: dense peaks, the
 * capacity nvidia-smi reports, NVLink one way (links × per-link rate, hardware's nvlinkBandwidthPerDirection).
 */

/**
 * The facts a question of a GPU's figures may state: the GPU (or a node of it), a count of them, precisions. Any other
 * (a model, tokens, a deadline, a price, a collective, serving figures) makes it a planning question, left to the planner.
 */
const GPU_QUESTION_FACTS: ReadonlySet<keyof AskParameters> = new Set(['gpu', 'system', 'gpus', 'nodes', 'precision', 'comparedGpus', 'comparedPrecisions']);

/** Whether the question asks a modelled GPU's own figures, and nothing a plan would answer. */
export function asksGpuFacts(q: ParsedQuestion): boolean {
  const gpu = q.stated.gpu;
  if (gpu === undefined || !isGpuId(gpu)) return false;
  const normal = normalize(q.text);
  // "5.76e23 FLOPs" is a training compute (lexicon/flop-budget.ts), no GPU's peak: its "FLOPs" asks no figure of the GPU.
  if (flopBudgetOf(normal) !== undefined) return false;
  const facts = gpuFactsAsked(normal);
  // A network named ("the NDR bandwidth of a DGX H100") is the one a question of the node's network asks of.
  const allowed = (field: keyof AskParameters): boolean => GPU_QUESTION_FACTS.has(field) || (field === 'network' && facts.includes('network'));
  if (!(Object.keys(q.stated) as (keyof AskParameters)[]).every(allowed)) return false;
  // A GPU a preset does not model ("mi300x") is a problem of its own, and keeps its "not modelled" answer.
  if (!q.problems.every((p) => p === NAME_A_MODEL)) return false;
  return !ASKS_HOW_MANY.test(normal) && facts.length > 0;
}

/**
 * The question as its GPU's figures answer it: "how much power does a b200 draw" asks the TDP they give, so the phrase a
 * plan leaves unread for it ("energy is not modelled") is not said beside the answer.
 */
export function asGpuFactsQuestion(q: ParsedQuestion): ParsedQuestion {
  const facts = gpuFactsAsked(normalize(q.text));
  // "The infiniband bandwidth of a DGX-1" asks the node's own fabric: no generation needed, so none is said missing.
  const answered = (why: string): boolean => (facts.includes('power') && why === ENERGY_NOT_MODELLED) || (facts.includes('network') && why.startsWith(WHICH_INFINIBAND));
  if (q.notRead === undefined) return q;
  return { ...q, notRead: q.notRead.filter((n) => !answered(n.why)) };
}

const PRECISION_NAMES: Readonly<Record<Precision, string>> = { fp8: 'FP8', bf16: 'BF16', fp16: 'FP16', tf32: 'TF32', fp32: 'FP32' };
/** The precisions from the fastest: the order the figures list them in. */
const PRECISIONS: readonly Precision[] = ['fp8', 'bf16', 'fp16', 'tf32', 'fp32'];

// One unit a figure, whatever the GPU, so that two GPUs' figures read side by side (QA: "989 TFLOP/s" beside "2.25 PFLOP/s").
const tflopsText = (f: number): string => `${formatGrouped(toTFLOPS(f))} TFLOP/s`;
const gbpsText = (r: number): string => `${formatGrouped(toGBps(r))} GB/s`;

/** The 16-bit precision training runs at: BF16, or FP16 on a GPU without it (V100). */
const sixteenBit = (g: GpuSpec): Precision => (g.peakFlops.bf16 !== undefined ? 'bf16' : 'fp16');

/**
 * NVIDIA's datasheets quote tensor-core peaks twice, dense and "with sparsity": 2:4 fine-grained structured sparsity (two
 * zeros in every four weights) skips the zeros and doubles the math rate (NVIDIA A100 Tensor Core GPU Architecture
 * whitepaper, "Fine-Grained Structured Sparsity": "2x the math throughput of dense"; the H100 and B200 datasheets mark
 * their larger figures "with sparsity", twice the dense ones). Training multiplies dense matrices, so plans here use the
 * dense peak; the sparse one is derived, never held.
 */
const SPARSITY_SPEEDUP = 2;
/** Structured sparsity came with Ampere's tensor cores: Volta (V100) has none. */
const hasSparsity = (g: GpuSpec): boolean => g.generation !== 'volta';

/** What the question asks of the peaks beyond the precisions: the sparse rate, an INT8 one. */
interface PeakAsked { precisions: readonly Precision[]; sparse: boolean; int8: boolean; fp64: boolean }

/** "BF16 989 TFLOP/s dense (1,979 TFLOP/s with 2:4 sparsity)": one precision's peak, its sparse rate where asked and held. */
function onePeak(g: GpuSpec, p: Precision, sparse: boolean): string {
  const dense = g.peakFlops[p]!;
  if (!sparse) return `${PRECISION_NAMES[p]} ${tflopsText(dense)}`;
  if (p === 'fp32') return `FP32 ${tflopsText(dense)} (without tensor cores: no sparse rate)`;
  return `${PRECISION_NAMES[p]} ${tflopsText(dense)} dense${hasSparsity(g) ? ` (${tflopsText(SPARSITY_SPEEDUP * dense)} with 2:4 sparsity)` : ''}`;
}

/** What follows the peaks: dense, and what the sparse figures are. */
function peakTail(g: GpuSpec, shown: readonly Precision[], sparse: boolean): string {
  const fp32 = shown.includes('fp32') ? '; FP32 without tensor cores' : '';
  if (!sparse) return ` (dense${fp32})`;
  return hasSparsity(g)
    ? `; the sparse figures are NVIDIA's datasheet convention, ${SPARSITY_SPEEDUP}× dense for 2:4 structured sparsity, which training does not use`
    : `; no 2:4 sparsity on ${g.name.replace(/^NVIDIA\s+/, '')} (structured sparsity came with Ampere's tensor cores)`;
}

/**
 * "peak BF16 2,250 TFLOP/s and FP8 4,500 TFLOP/s (dense)"; a precision the GPU lacks said so, its 16-bit peak beside it.
 * INT8 is held for no GPU (the presets keep the precisions training runs in; INT8 is an inference one): said so, with the
 * closest held figure (FP8 where the GPU has it, else its 16-bit peak), never a number made up.
 */
function peakText(g: GpuSpec, asked: PeakAsked): string {
  const closest: Precision = g.peakFlops.fp8 !== undefined ? 'fp8' : sixteenBit(g);
  const named = asked.precisions.length > 0 ? asked.precisions
    : asked.int8 ? [closest] : [sixteenBit(g), ...(g.peakFlops.fp8 === undefined ? [] : ['fp8' as const])];
  const has = named.filter((p) => g.peakFlops[p] !== undefined);
  const lacks = named.filter((p) => g.peakFlops[p] === undefined);
  const shown = has.length > 0 ? has : [sixteenBit(g)];
  const peaks = `peak ${shown.map((p) => onePeak(g, p, asked.sparse)).join(' and ')}${peakTail(g, shown, asked.sparse)}`;
  const int8 = 'no INT8 figure: trainplan holds the precisions training runs in, and INT8 is an inference precision (the datasheet cited below quotes it)';
  const missing = [...(asked.int8 ? [int8] : []), ...(lacks.length === 0 ? [] : [`no ${lacks.map((p) => PRECISION_NAMES[p]).join(' or ')} rate`])];
  // INT8 alone: the held figure nearest it in kind (FP8, one byte too; else the 16-bit tensor rate), named as that.
  if (asked.int8 && asked.precisions.length === 0) return `${int8}; the closest held figure is ${peaks}`;
  return [...missing, peaks].join('; ');
}

/** NVLink a GPU one way; how the node's GPUs are wired where a node was named. */
/** What a PCIe card has in place of NVLink to the other GPUs of its server. */
const NO_NVLINK = 'no NVLink to the other GPUs: a PCIe card (x16 to the host; its 2-card NVLink bridge is not modelled)';

const nvlinkText = (g: GpuSpec, node: NodeNetwork | undefined): string => {
  const oneWay = nvlinkBandwidthPerDirection(g);
  // A PCIe card (hardware gpus.ts nvlinkCount 0; its 2-card NVLink bridge is not modelled): no NVLink to say a rate of.
  const links = g.nvlinkCount === 0 ? NO_NVLINK : `NVLink ${gbpsText(oneWay)} per direction (${gbpsText(2 * oneWay)} both ways together, ${g.nvlinkCount} links)`;
  if (node === undefined) return links;
  const within = `within ${node.system.name.replace(/\s*\(.*\)$/, '')}, ${intraNodeName(node.system.intraNode)}`;
  // A PCIe node's GPUs do not reach each other over NVLink, whatever links the GPU has: that said first.
  return usesNvlink(node.system) ? `${links}; ${within}` : `${within}; the GPU's own ${links}`;
};

/** What a GPU's answer reads: the GPU, and its node where a node's figures are said. */
interface GpuAsked { g: GpuSpec; node: NodeNetwork | undefined; nodeNamed: boolean }

/** One fact of a GPU in words, for the headline. */
function factText({ g, node, nodeNamed }: GpuAsked, fact: GpuFact, asked: PeakAsked, sharpFirst: boolean): string {
  switch (fact) {
    // FP64 asked: said not kept before the peaks held, which answer a question it is not (fp64-note.ts).
    case 'peak': return `${asked.fp64 ? 'no FP64 rate kept (the notes say why); ' : ''}${peakText(g, asked)}`;
    case 'memory': return `${formatBytes(g.hbmBytes)} of HBM, the capacity nvidia-smi reports`;
    case 'memoryBandwidth': return `memory bandwidth ${gbpsText(g.hbmBandwidth)}`;
    case 'nvlink': return nvlinkText(g, nodeNamed ? node : undefined);
    case 'network': return node === undefined ? 'no node preset holds this GPU, so no network between nodes is held' : `in ${node.system.name}, ${networkText(node, g, sharpFirst)}`;
    case 'power': return `TDP ${formatGrouped(g.tdpWatts)} W`;
  }
}

/** Every figure of a GPU, labelled; `of` after each label where GPUs are compared; the sparse peaks where asked. */
function figuresOf(g: GpuSpec, of: string, sparse: boolean): AnswerFigure[] {
  const label = (text: string): string => (of === '' ? text : `${text} (${of})`);
  return [
    ...PRECISIONS.flatMap((p) => {
      const peak = g.peakFlops[p];
      return peak === undefined ? [] : [{ label: label(p === 'fp32' ? 'Peak FP32 (no tensor cores)' : `Peak ${PRECISION_NAMES[p]} (dense)`), value: tflopsText(peak) }];
    }),
    ...(!sparse || !hasSparsity(g) ? [] : PRECISIONS.flatMap((p) => {
      const peak = g.peakFlops[p];
      return peak === undefined || p === 'fp32' ? [] : [{ label: label(`Peak ${PRECISION_NAMES[p]} (2:4 sparse)`), value: tflopsText(SPARSITY_SPEEDUP * peak) }];
    })),
    { label: label('Memory (HBM)'), value: formatBytes(g.hbmBytes) },
    { label: label('Memory bandwidth'), value: gbpsText(g.hbmBandwidth) },
    { label: label('NVLink per direction'), value: g.nvlinkCount === 0 ? 'none (PCIe card)' : `${gbpsText(nvlinkBandwidthPerDirection(g))} (${g.nvlinkCount} links)` },
    { label: label('TDP'), value: `${formatGrouped(g.tdpWatts)} W` },
  ];
}

/** The GPU's datasheet as its preset cites it: the title, the address, and which figures were taken from it. */
function sourceNote(id: string, of: string): string {
  const cited = isGpuId(id) ? GPU_SOURCES[id] : undefined;
  if (cited === undefined) return '';
  return `Source${of === '' ? '' : ` (${of})`}: ${cited.title}${cited.url === undefined ? '' : ` (${cited.url})`}${cited.note === undefined ? '' : `. ${cited.note}`}`;
}

/** The GPU's figures asked, each GPU named compared on its own line of the headline; every figure after, with the sources. */
export function answerGpuFacts(q: ParsedQuestion): Answer {
  const normal = normalize(q.text);
  const asked = gpuFactsAsked(normal);
  // The node's network says its NVLink too: said once.
  const facts = asked.includes('network') ? asked.filter((f) => f !== 'nvlink') : asked;
  const peaks: PeakAsked = { precisions: precisionsAsked(normal), sparse: asksSparsity(normal), int8: asksInt8(normal), fp64: ASKS_FP64.test(normal) };
  const sharpFirst = asksSharp(normal);
  const named = [{ gpu: q.stated.gpu!, system: q.stated.system }, ...(q.stated.comparedGpus ?? [])];
  const gpus = named.flatMap(({ gpu: id, system }) => {
    const g = gpuById(id);
    if (g === undefined) return [];
    // The node is looked up where its figures are said: a network asked, or NVLink on a node named.
    const node = facts.includes('network') || system !== undefined ? nodeNetworkOf(g, system, q.stated.network) : undefined;
    return [{ id, g, name: gpuName(id), node, nodeNamed: system !== undefined }];
  });
  const compared = gpus.length > 1;
  const system = systemById(q.stated.system ?? '');
  const networkAsked = facts.includes('network');
  // The network alone asked: the node's links, headed by the node's name; the GPU's own figures are not what was asked.
  const networkOnly = facts.length === 1 && networkAsked;
  const headline = gpus.map((gpu) => (networkOnly && gpu.node !== undefined
    ? `${gpu.node.system.name}: ${networkText(gpu.node, gpu.g, sharpFirst)}`
    : `${gpu.name}: ${facts.map((f) => factText(gpu, f, peaks, sharpFirst)).join('; ')}`)).join('. ');
  const figures = gpus.flatMap(({ g, name, node }) => {
    const of = compared ? name : '';
    const label = (text: string): string => (of === '' ? text : `${text} (${of})`);
    const own = figuresOf(g, of, peaks.sparse);
    if (!networkAsked || node === undefined) return own;
    // A network asked: the node's links first; alone, with the GPU's NVLink only (its peaks and memory were not asked).
    return [...networkFigures(node, label), ...(networkOnly ? own.filter((f) => f.label === label('NVLink per direction')) : own)];
  });
  const gpuFigures = !networkOnly || gpus.some(({ node }) => node === undefined);
  const notes = [
    ...(peaks.fp64 ? [FP64_NOTE] : []),
    ...(gpuFigures ? [
      'Peaks are dense tensor-core rates, without 2:4 sparsity (the sparse figures datasheets also quote are twice these); FP32 is the rate without tensor cores.',
      'Memory is the capacity nvidia-smi reports (memory.total); CUDA lets an allocator have a few hundred MiB less.',
    ] : []),
    ...(!networkOnly && ((q.stated.gpus ?? 1) > 1 || q.stated.nodes !== undefined) ? ['These figures are for one GPU, whatever the cluster named.'] : []),
    ...(system === undefined || compared ? [] : [`A node of ${system.name} holds ${system.gpusPerNode} of these GPUs.`]),
    ...(networkAsked ? gpus.flatMap(({ node }) => (node === undefined ? [] : networkNotes(node))).filter((n, i, all) => all.indexOf(n) === i) : []),
    ...gpus.map(({ id, name }) => sourceNote(id, compared ? name : '')).filter((n) => n !== ''),
    `To plan on it, ask e.g. "how many ${named[0]!.gpu} nodes to train llama3-70b on 2T tokens in 30 days".`,
  ];
  // How the question's GPU was read ("A100 taken as the 80GB part"): parse says so for a plan, not for a question it read as help.
  const readings = q.defaults.filter((d) => d.field === 'gpu').map((d) => d.text);
  const assumed = readings.length > 0 ? readings : [matchHardware(normal)?.assumed].filter((a): a is string => a !== undefined);
  // The node taken for a network asked of a GPU alone ("the H100 system"), said.
  const nodes = networkAsked ? gpus.flatMap(({ node }) => node?.readings ?? []) : [];
  return { intent: q.intent, kind: 'answer', ok: true, question: q.text, headline: `${headline}.`, figures, assumptions: [...assumed, ...nodes], notes, examples: [] };
}
