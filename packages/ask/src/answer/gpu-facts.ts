import { isGpuId, nvlinkBandwidthPerDirection, type GpuSpec, type Precision } from '@trainplan/hardware';
import { GPU_SOURCES, gpuById, systemById } from '@trainplan/presets';
import { formatBytes, formatGrouped, toGBps, toTFLOPS } from '@trainplan/units';
import { matchHardware } from '../lexicon/hardware.ts';
import { ENERGY_NOT_MODELLED } from '../lexicon/unmodelled-settings.ts';
import { ASKS_HOW_MANY, gpuFactsAsked, precisionsAsked, type GpuFact } from '../lexicon/gpu-facts.ts';
import { NAME_A_MODEL, normalize } from '../parse.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import type { Answer, AnswerFigure } from './answer-types.ts';
import { gpuName } from './describe-estimate.ts';

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
  if (!(Object.keys(q.stated) as (keyof AskParameters)[]).every((field) => GPU_QUESTION_FACTS.has(field))) return false;
  // A GPU a preset does not model ("mi300x") is a problem of its own, and keeps its "not modelled" answer.
  if (!q.problems.every((p) => p === NAME_A_MODEL)) return false;
  const normal = normalize(q.text);
  return !ASKS_HOW_MANY.test(normal) && gpuFactsAsked(normal).length > 0;
}

/**
 * The question as its GPU's figures answer it: "how much power does a b200 draw" asks the TDP they give, so the phrase a
 * plan leaves unread for it ("energy is not modelled") is not said beside the answer.
 */
export function asGpuFactsQuestion(q: ParsedQuestion): ParsedQuestion {
  if (q.notRead === undefined || !gpuFactsAsked(normalize(q.text)).includes('power')) return q;
  return { ...q, notRead: q.notRead.filter((n) => n.why !== ENERGY_NOT_MODELLED) };
}

const PRECISION_NAMES: Readonly<Record<Precision, string>> = { fp8: 'FP8', bf16: 'BF16', fp16: 'FP16', tf32: 'TF32', fp32: 'FP32' };
/** The precisions from the fastest: the order the figures list them in. */
const PRECISIONS: readonly Precision[] = ['fp8', 'bf16', 'fp16', 'tf32', 'fp32'];

// One unit a figure, whatever the GPU, so that two GPUs' figures read side by side (QA: "989 TFLOP/s" beside "2.25 PFLOP/s").
const tflopsText = (f: number): string => `${formatGrouped(toTFLOPS(f))} TFLOP/s`;
const gbpsText = (r: number): string => `${formatGrouped(toGBps(r))} GB/s`;

/** The 16-bit precision training runs at: BF16, or FP16 on a GPU without it (V100). */
const sixteenBit = (g: GpuSpec): Precision => (g.peakFlops.bf16 !== undefined ? 'bf16' : 'fp16');

/** "peak BF16 2,250 TFLOP/s and FP8 4,500 TFLOP/s (dense)"; a precision the GPU lacks said so, its 16-bit peak beside it. */
function peakText(g: GpuSpec, asked: readonly Precision[]): string {
  const named = asked.length > 0 ? asked : [sixteenBit(g), ...(g.peakFlops.fp8 === undefined ? [] : ['fp8' as const])];
  const has = named.filter((p) => g.peakFlops[p] !== undefined);
  const lacks = named.filter((p) => g.peakFlops[p] === undefined);
  const shown = has.length > 0 ? has : [sixteenBit(g)];
  const peaks = `peak ${shown.map((p) => `${PRECISION_NAMES[p]} ${tflopsText(g.peakFlops[p]!)}`).join(' and ')} (dense${shown.includes('fp32') ? '; FP32 without tensor cores' : ''})`;
  return lacks.length === 0 ? peaks : `no ${lacks.map((p) => PRECISION_NAMES[p]).join(' or ')} rate; ${peaks}`;
}

const nvlinkText = (g: GpuSpec): string => {
  const oneWay = nvlinkBandwidthPerDirection(g);
  return `NVLink ${gbpsText(oneWay)} per direction (${gbpsText(2 * oneWay)} both ways together, ${g.nvlinkCount} links)`;
};

/** One fact of a GPU in words, for the headline. */
function factText(g: GpuSpec, fact: GpuFact, asked: readonly Precision[]): string {
  switch (fact) {
    case 'peak': return peakText(g, asked);
    case 'memory': return `${formatBytes(g.hbmBytes)} of HBM, the capacity nvidia-smi reports`;
    case 'memoryBandwidth': return `memory bandwidth ${gbpsText(g.hbmBandwidth)}`;
    case 'nvlink': return nvlinkText(g);
    case 'power': return `TDP ${formatGrouped(g.tdpWatts)} W`;
  }
}

/** Every figure of a GPU, labelled; `of` after each label where GPUs are compared. */
function figuresOf(g: GpuSpec, of: string): AnswerFigure[] {
  const label = (text: string): string => (of === '' ? text : `${text} (${of})`);
  return [
    ...PRECISIONS.flatMap((p) => {
      const peak = g.peakFlops[p];
      return peak === undefined ? [] : [{ label: label(p === 'fp32' ? 'Peak FP32 (no tensor cores)' : `Peak ${PRECISION_NAMES[p]} (dense)`), value: tflopsText(peak) }];
    }),
    { label: label('Memory (HBM)'), value: formatBytes(g.hbmBytes) },
    { label: label('Memory bandwidth'), value: gbpsText(g.hbmBandwidth) },
    { label: label('NVLink per direction'), value: `${gbpsText(nvlinkBandwidthPerDirection(g))} (${g.nvlinkCount} links)` },
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
  const facts = gpuFactsAsked(normal);
  const asked = precisionsAsked(normal);
  const ids = [q.stated.gpu!, ...(q.stated.comparedGpus ?? []).map((g) => g.gpu)];
  const gpus = ids.flatMap((id) => {
    const g = gpuById(id);
    return g === undefined ? [] : [{ id, g, name: gpuName(id) }];
  });
  const compared = gpus.length > 1;
  const system = systemById(q.stated.system ?? '');
  const headline = gpus.map(({ g, name }) => `${name}: ${facts.map((f) => factText(g, f, asked)).join('; ')}`).join('. ');
  const figures = gpus.flatMap(({ g, name }) => figuresOf(g, compared ? name : ''));
  const notes = [
    'Peaks are dense tensor-core rates, without 2:4 sparsity (the sparse figures datasheets also quote are twice these); FP32 is the rate without tensor cores.',
    'Memory is the capacity nvidia-smi reports (memory.total); CUDA lets an allocator have a few hundred MiB less.',
    ...((q.stated.gpus ?? 1) > 1 || q.stated.nodes !== undefined ? ['These figures are for one GPU, whatever the cluster named.'] : []),
    ...(system === undefined || compared ? [] : [`A node of ${system.name} holds ${system.gpusPerNode} of these GPUs.`]),
    ...gpus.map(({ id, name }) => sourceNote(id, compared ? name : '')).filter((n) => n !== ''),
    `To plan on it, ask e.g. "how many ${ids[0]} nodes to train llama3-70b on 2T tokens in 30 days".`,
  ];
  // How the question's GPU was read ("A100 taken as the 80GB part"): parse says so for a plan, not for a question it read as help.
  const readings = q.defaults.filter((d) => d.field === 'gpu').map((d) => d.text);
  const assumed = readings.length > 0 ? readings : [matchHardware(normal)?.assumed].filter((a): a is string => a !== undefined);
  return { intent: q.intent, kind: 'answer', ok: true, question: q.text, headline: `${headline}.`, figures, assumptions: assumed, notes, examples: [] };
}
