import { formatPercent } from '@trainplan/units';
import { normalize } from '../parse.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';

/**
 * "What's the pipeline bubble for pp 8 with 32 microbatches": the bubble of the 1F1B schedule, a closed form of the
 * stages and micro-batches alone (no model, no GPU), answered rather than declined as a definition (QA).
 *
 * Narayanan et al. SC'21 §2.2.1: with p stages of equal time t per micro-batch, m micro-batches take m·t in the steady
 * state plus (p − 1)·t of warm-up and cool-down, so the bubble is (p − 1)/m of the ideal time m·t; the interleaved
 * schedule's v model chunks per stage (§2.2.2) cut the warm-up and cool-down to (p − 1)·t/v, (p − 1)/(v·m). That is
 * the planner's convention (packages/planner/src/pipeline-schedule.ts: bubbleSeconds = (p − 1)/v × the mean stage time,
 * beside steadySeconds = m × the slowest), so a plan's "pipeline bubble" in the step breakdown is this fraction of its
 * pipelined compute. As a share of the whole pipelined step (ideal + bubble): (p − 1)/(v·m + p − 1).
 */

/** The word that asks the bubble. */
const BUBBLE = /\bbubbles?\b/;
/** "32 microbatches", "32 micro-batches", "1 microbatch", "microbatches = 32", "m = 32", "m 32": the micro-batches per step. */
const MICRO_BATCHES = [
  /\b(\d[\d,]*)\s*micro[\s-]*batch(?:es)?\b(?![\s-]*size)/,
  /\bmicro[\s-]*batches\s*(?:=|:|is|are)\s*(\d[\d,]*)\b/,
  /\bm\s*=\s*(\d[\d,]*)\b/,
  // "pp 4 m 16": m spaced from its number, as "pp 4" is.
  /\bm\s+(\d[\d,]*)(?![\w.])/,
];
/** "8 pipeline stages", "8 stages", "p = 8": the stages, where "pp 8" (parse's pipeline) is not said. */
const STAGES = [/\b(\d+)\s*(?:pipeline[\s-]*)?stages\b/, /\bp\s*=\s*(\d+)\b/];
/**
 * "v 2", "v=2": the model chunks per stage, where parse's virtualStages ("vp 2", "interleaved 2", "2 virtual stages") is not
 * said. A space or "=" after the v, so that a V100 is no 100 chunks.
 */
const CHUNKS = /\bv(?:\s*=\s*|\s+)(\d+)\b/;

const firstCount = (text: string, patterns: readonly RegExp[]): number | undefined => {
  for (const pattern of patterns) {
    const m = pattern.exec(text);
    if (m?.[1] !== undefined) return Number(m[1].replace(/,/g, ''));
  }
  return undefined;
};

interface Bubble { stages: number; microBatches: number; chunks: number }

/** The stages, micro-batches and chunks of a bubble question with no model named, or undefined for any other question. */
function bubbleOf(q: ParsedQuestion): Bubble | undefined {
  const s = q.stated;
  if (s.model !== undefined || s.customModel !== undefined) return undefined;
  const text = normalize(q.text);
  if (!BUBBLE.test(text)) return undefined;
  // "2 virtual stages" are chunks, not pipeline stages: dropped before the stages are read.
  const stages = s.pipeline ?? firstCount(text.replace(/\b\d+\s*virtual[\s-]*(?:pipeline[\s-]*)?stages?\b/g, ' '), STAGES);
  const microBatches = firstCount(text, MICRO_BATCHES);
  if (stages === undefined || microBatches === undefined || stages < 1 || microBatches < 1) return undefined;
  const chunk = CHUNKS.exec(text)?.[1];
  return { stages, microBatches, chunks: s.virtualStages ?? (chunk === undefined ? 1 : Number(chunk)) };
}

/** Whether the question asks a pipeline bubble of stages and micro-batches alone (answerPipelineBubble answers it). */
export const asksPipelineBubble = (q: ParsedQuestion): boolean => bubbleOf(q) !== undefined;

export function answerPipelineBubble(q: ParsedQuestion): Answer {
  const { stages: p, microBatches: m, chunks: v } = bubbleOf(q) ?? { stages: 1, microBatches: 1, chunks: 1 };
  const ofIdeal = (p - 1) / (v * m);
  const ofStep = (p - 1) / (v * m + p - 1);
  // GPipe asked ("gpipe bubble"): its bubble is 1F1B's, all m forwards then all m backwards filling and draining the same
  // p − 1 slots (Huang et al. 2019; Narayanan et al. SC'21 §2.2.1), said as GPipe's, never relabelled 1F1B.
  const gpipe = q.stated.schedule === 'gpipe' && v === 1;
  const schedule = v > 1 ? `interleaved 1F1B, ${v} model chunks per stage` : gpipe ? 'GPipe, the same as 1F1B' : '1F1B';
  const formula = v > 1 ? `(p − 1)/(v·m) = ${p - 1}/(${v}·${m})` : `(p − 1)/m = ${p - 1}/${m}`;
  const shareFormula = v > 1 ? `(p − 1)/(v·m + p − 1) = ${p - 1}/${v * m + p - 1}` : `(p − 1)/(m + p − 1) = ${p - 1}/${m + p - 1}`;
  const headline = p === 1
    ? `Pipeline bubble with 1 stage: none (nothing to fill or drain; the bubble is (p − 1)/m = 0)`
    : `Pipeline bubble for ${p} stages and ${m} micro-batches (${schedule}): ${formula} = ${formatPercent(ofIdeal)} of the ideal time, ${formatPercent(ofStep)} of the step (${shareFormula})`;
  const notes = [
    `Narayanan et al. SC'21 §2.2: with stages of equal time t per micro-batch, the ${m} micro-batches take ${m}·t in the steady state (the ideal time) and the warm-up and cool-down add (p − 1)·t${v > 1 ? '/v' : ''}, the bubble. trainplan's planner costs a plan's bubble the same way, (p − 1)/v mean stage-times added to its step, so the bubble in its step breakdown is this fraction of the ideal time.`,
    ...(v === 1 && p > 1 ? [`Interleaving v model chunks per stage divides it by v: with v 2, ${p - 1}/(2·${m}) = ${formatPercent((p - 1) / (2 * m))} of the ideal time.`] : []),
    ...(p > 1 && m < p ? [`Only ${m} micro-batches for ${p} stages: the bubble dominates; more micro-batches per step (a larger global batch or a smaller micro-batch) shrink it.`] : []),
    // check-plan.ts, after megatron/core/pipeline_parallel/schedules.py.
    ...(v > 1 && p > 1 && m % p !== 0 ? [`The interleaved schedule needs the micro-batches in whole rounds of the stages (Megatron's schedules.py): ${m} is not a multiple of ${p}, so trainplan does not plan it interleaved.`] : []),
    'The step also holds the pipeline sends, data-parallel communication and the optimizer step; for those, ask of a plan, e.g. "step time of llama3-70b on 64 H100 with tp 8 pp 8".',
  ];
  return {
    intent: 'estimate', kind: 'answer', ok: true, question: q.text, headline,
    figures: p === 1 ? [] : [
      { label: 'Bubble of the ideal time', value: `${formatPercent(ofIdeal)} (${formula})` },
      { label: 'Bubble of the step', value: `${formatPercent(ofStep)} (${shareFormula})` },
    ],
    assumptions: [
      ...(v === 1 && q.stated.virtualStages === undefined && !gpipe ? ['no interleaving (v 1): the plain 1F1B schedule'] : []),
      'pipeline stages of equal time per micro-batch',
    ],
    notes, examples: [],
  };
}
