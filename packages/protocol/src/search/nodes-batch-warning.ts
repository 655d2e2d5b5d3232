import { countOf, formatCount, million, thousand } from '@trainplan/units';
import type { NodesResponseJson } from './wire.ts';

/**
 * A global batch that reads as a token count typed as sequences (`--global-batch 4M` meaning "4M tokens", as papers
 * state batches: 4,000,000 sequences of 4,096 tokens is 16.4B tokens a step, 123 optimizer steps for 2T tokens), said
 * beside a nodes answer by the CLI and the API. Not in runNodes: the widget, which never takes a batch typed in tokens,
 * does not carry these words.
 */

/**
 * Tokens a step above which a batch is implausible as sequences: over six times the largest published, Llama 3 405B's
 * 16M (Dubey et al. 2024, §3.4.1: 4M tokens, doubled to 8M, then to 16M); GPT-3 175B stepped 3.2M (Brown et al. 2020,
 * Table 2.1).
 */
export const MAX_PLAUSIBLE_STEP_TOKENS = million(100);

/** The batch a nodes answer planned, and the tokens it trains: its size's (or the closest's), from its estimate. */
export interface PlannedBatch {
  /** Sequences per optimizer step. */
  readonly globalBatchSize: number;
  /** Tokens per sequence. */
  readonly seqLength: number;
  readonly tokens: number;
}

/** A batch to judge (batchAsSequencesWarning): a planned one, or a request's, whose tokens a search or a sweep may not give. */
export type BatchToWarn = Omit<PlannedBatch, 'tokens'> & { readonly tokens?: number };

/** The batch `answer`'s cluster size (or, where the goal is missed, its closest) was planned at; undefined where it names no plan. */
export function plannedBatch(answer: NodesResponseJson): PlannedBatch | undefined {
  if (answer.ok) {
    const r = answer.configuration.estimate.resolved;
    return { globalBatchSize: r.globalBatchSize, seqLength: r.seqLength, tokens: answer.tokens };
  }
  const r = answer.closest?.estimate?.resolved;
  const tokens = answer.closest?.scenario?.training.tokens;
  return r === undefined || tokens === undefined ? undefined : { globalBatchSize: r.globalBatchSize, seqLength: r.seqLength, tokens };
}

/** Whole optimizer steps to train the tokens: each takes a whole global batch (the planner's stepsToTrain). */
export const stepsOf = (b: PlannedBatch): number => Math.ceil(b.tokens / (b.globalBatchSize * b.seqLength));

/** A count as papers write a batch or a token budget: "4M", "16.4B", "2T" (units' formatCount, trailing zeros dropped). */
export function compactTokens(n: number): string {
  const [, figures, unit] = /^(-?[\d.]+)\s*(\D*)$/.exec(formatCount(n)) ?? [];
  return figures === undefined ? formatCount(n) : `${Number(figures)}${unit}`;
}

/**
 * The smallest published batch, in tokens: GPT-3 Small's 0.5M (Brown et al. 2020, Table 2.1). A batch in sequences at
 * least this large reads as a token count (4M, 2M, 512K); a smaller one (16,384 sequences) does not, and the warning
 * then names no sequences for it.
 */
export const MIN_PUBLISHED_BATCH_TOKENS = thousand(500);

/**
 * Why `b` is implausible as a batch in sequences (a step of more than MAX_PLAUSIBLE_STEP_TOKENS), with the optimizer
 * steps it leaves the run, and where the count reads as tokens (MIN_PUBLISHED_BATCH_TOKENS or more), the sequences it
 * would make as tokens; undefined for a plausible batch. A run of few steps alone is no sign (QA: GPT-3's own 1,536
 * sequences over a 1B-token ablation, 318 steps, was warned of). In the request's terms (training.globalBatchSize): the
 * CLI says it as --global-batch. Without tokens (a search or a scaling sweep asked with no token budget: QA, `trainplan
 * search --global-batch 4M` planned a 6.21 h step unsaid) the steps are left out; the step's tokens alone say it.
 */
export function batchAsSequencesWarning(b: BatchToWarn): string | undefined {
  const stepTokens = b.globalBatchSize * b.seqLength;
  if (stepTokens <= MAX_PLAUSIBLE_STEP_TOKENS) return undefined;
  const steps = b.tokens === undefined ? '' : `, ${countOf(stepsOf({ ...b, tokens: b.tokens }), 'optimizer step')} for ${compactTokens(b.tokens)} tokens`;
  const asTokens = b.globalBatchSize < MIN_PUBLISHED_BATCH_TOKENS ? ''
    : `; training.globalBatchSize counts sequences: ${compactTokens(b.globalBatchSize)} tokens is `
      + `${countOf(Math.round(b.globalBatchSize / b.seqLength), 'sequence')} of ${b.seqLength.toLocaleString('en-US')}`;
  return `a global batch of ${countOf(b.globalBatchSize, 'sequence')} is ${compactTokens(stepTokens)} tokens a step${steps}, `
    + 'where published runs step 3.2M to 16M tokens '
    + `(GPT-3 175B to Llama 3 405B)${asTokens}`;
}
