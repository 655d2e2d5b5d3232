import { modelFlopsPerStep, parameterCount } from '@trainplan/model';
import { compactCount, flopText } from '../format.ts';
import { modelNameOf, modelShapeOf } from '../model-of.ts';
import { normalize } from '../parse.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';

/**
 * "How many flops to train llama3-70b on 15T tokens", "total training FLOPs for …": the run's model FLOPs first, the plan
 * after (QA: both were answered with a configuration on a default 128 nodes, the FLOPs never given). Counted as the planner
 * counts a step's model FLOPs, the basis of its MFU (packages/model flops.ts modelFlopsPerStep: forward and backward, 3× the
 * forward matmuls, attention over every (query, key) pair as Megatron counts it, no recompute; for GPT it is Korthikanti et
 * al. 2022's 72·B·s·L·h²·(1 + s/(6h) + V/(12·L·h))), per token × the tokens. Kaplan et al. 2020's 6 × parameters × tokens
 * (arXiv:2001.08361, §2.1) is said beside it, as the figure most quote.
 */

/** A training run's FLOP count asked, never a rate ("TFLOP/s", "flops per GPU") nor a GPU's peak. */
const ASKS_FLOPS = /\b(?:(?:how many|total|number of|amount of|how much)\s+(?:(?:training|train|model|compute)\s+)?(?:flops?|floating[\s-]point operations)|(?:training|total)\s+(?:compute|flops?)|how much compute)\b(?![\s-]*(?:\/|per\b|a\s+(?:second|gpu)\b|utili[sz]ation))/;

/** Whether the question asks the FLOPs of a training run. */
export const asksTrainingFlops = (q: ParsedQuestion): boolean => ASKS_FLOPS.test(normalize(q.text));


/**
 * The answer with the run's model FLOPs as its headline, the plan it had after it (its headline a note); unchanged where
 * the question asks no FLOPs, or no model or token count is known.
 */
export function withTrainingFlops(q: ParsedQuestion, a: Answer): Answer {
  if (!asksTrainingFlops(q)) return a;
  const p = q.parameters;
  const shape = modelShapeOf(p);
  const tokens = p.tokens;
  if (shape === undefined || tokens === undefined) return a;
  const seq = p.seqLength ?? shape.seqLength;
  // One sequence's model FLOPs over its tokens: a step's are linear in the batch (flops.ts), so per token is batch-free.
  const perToken = modelFlopsPerStep(shape, { globalBatchSize: 1, seqLength: seq }) / seq;
  const total = perToken * tokens;
  const rule = 6 * parameterCount(shape) * tokens;
  const headline = `${modelNameOf(p)}, ${compactCount(tokens)} tokens: about ${flopText(total)} FLOPs to train (model FLOPs: ${flopText(perToken)} a token × ${compactCount(tokens)} tokens)`;
  const notes = [
    `Model FLOPs as the planner counts them for MFU: forward and backward (3× the forward matmuls), attention over every (query, key) pair of ${seq.toLocaleString('en-US')}-token sequences as Megatron counts it, no recompute (recompute adds FLOPs the hardware runs, not model FLOPs).`,
    `6 × parameters × tokens (Kaplan et al. 2020) gives ${flopText(rule)} for the ${compactCount(parameterCount(shape))} parameters: it leaves out attention's products over the sequence.`,
    `To train it: ${a.headline}`,
  ];
  return { ...a, headline, notes: [...notes, ...a.notes] };
}
