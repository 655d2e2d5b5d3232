import { PIPELINE_SLOTS, pipelineSplit } from '@trainplan/model';
import { defaultMaxContext } from '@trainplan/protocol';
import { countOf, gcd } from '@trainplan/units';
import { clusterGpusOf, nvlinkDomainOf } from './cluster-of.ts';
import { compactCount } from './format.ts';
import { modelFactsOf, modelSeqLengthOf, modelShapeOf, splitsOver } from './model-of.ts';
import type { AskParameters } from './question.ts';

/**
 * The global batch a question that states none is planned at, and the sentence that says why: the model's published
 * batch, else about 4M tokens, grown on a large cluster (to 2^24 = 16.8M tokens, before rounding) and rounded so that the GPUs' data-parallel sizes divide it.
 */

/** Global batch of about 4M tokens (Touvron et al. 2023, Llama 2, Sec. 2.2: "a global batch-size of 4M tokens"). */
export const DEFAULT_BATCH_TOKENS = 4 * 1024 * 1024;
/**
 * GPUs per sequence of a default batch at most: on a large cluster the batch grows past 4M tokens to one
 * sequence per 8 GPUs, as Llama 3 405B trained with 2,048 sequences a step on 16,384 H100s (Dubey et al. 2024,
 * Table 4); 4M tokens there (512 sequences) leaves data parallelism 4 and a pipeline fed 4 micro-batches.
 */
const GPUS_PER_DEFAULT_SEQUENCE = 8;
/**
 * Tokens a step the cluster rule grows a default batch to at most: 16M (2^24), as every row of Llama 3 405B's Table 4
 * keeps "Tokens/Batch 16M" however long its sequences (Dubey et al. 2024, arXiv:2407.21783): 2,048 × 8,192 at 8k and
 * 128 × 131,072 at 128k on 16,384 H100s (TP 8 · CP 16 · PP 16 · DP 8). QA: one sequence per 8 GPUs at 128k planned 448
 * sequences (58.7M tokens, 3.7× Meta's) on 3,584 GPUs, hiding the pipeline bubble a batch of Meta's size leaves.
 */
export const DEFAULT_BATCH_MAX_TOKENS = 2 ** 24;

/**
 * The step a default batch is a multiple of on `gpus` GPUs: the data-parallel size left when model
 * parallelism takes the largest power of two (≤ 64, more where the search tries context parallelism past 8 on long
 * sequences: defaultMaxContext) dividing them, so that some TP × PP × CP split can divide the batch (on 1000 GPUs, 125:
 * 1024 sequences would leave no split). QA: 128k tokens on 16,384 H100 rounded Meta's 128 sequences up to 256.
 */
function batchStep(gpus: number | undefined, seqLength: number): number {
  if (gpus === undefined) return 1;
  const most = (64 * defaultMaxContext(seqLength)) / 8;
  let modelParallel = 1;
  while (modelParallel < most && gpus % (modelParallel * 2) === 0) modelParallel *= 2;
  return gpus / modelParallel;
}

/**
 * Why a default global batch has the size it has, decided where it is chosen and carried to the sentence that
 * says it: about 4M tokens (`tokens`); one sequence per GPUS_PER_DEFAULT_SEQUENCE GPUs, more than that on a large
 * cluster (`cluster`), held at DEFAULT_BATCH_MAX_TOKENS where that is fewer (`capped`); or one step of the multiple
 * it is rounded to, above any aim (`layout`: one micro-batch on each of a fixed layout's data-parallel `ranks`;
 * `split`: the data-parallel `ranks` batchStep leaves).
 */
export type DefaultBatchWhy = { why: 'tokens' } | { why: 'cluster' } | { why: 'capped' } | { why: 'layout'; ranks: number }
  | { why: 'split'; ranks: number; instead?: { model: string; published: number } }
  | { why: 'published'; model: string; published: number };

/** A default global batch: its sequences, their length, and why it is that size. */
export type DefaultBatch = { sequences: number; seqLength: number } & DefaultBatchWhy;

/**
 * Sequences a default batch aims at, and which aim: the model's published batch at its own sequence length (GPT-3
 * 175B's 1,536), else about 4M tokens, or one per GPUS_PER_DEFAULT_SEQUENCE GPUs where that is more, up to
 * DEFAULT_BATCH_MAX_TOKENS (which, above 4M, never takes the aim below 4M tokens).
 */
function batchAim(p: AskParameters, gpus: number | undefined): { sequences: number; why: DefaultBatchWhy } {
  const facts = modelFactsOf(p);
  if (facts?.publishedGlobalBatchSize !== undefined && seqLengthOf(p) === modelSeqLengthOf(p)) {
    return { sequences: facts.publishedGlobalBatchSize, why: { why: 'published', model: facts.name, published: facts.publishedGlobalBatchSize } };
  }
  const tokens = DEFAULT_BATCH_TOKENS / seqLengthOf(p);
  const cluster = (gpus ?? 0) / GPUS_PER_DEFAULT_SEQUENCE;
  if (cluster <= tokens) return { sequences: tokens, why: { why: 'tokens' } };
  const most = DEFAULT_BATCH_MAX_TOKENS / seqLengthOf(p);
  return cluster > most ? { sequences: most, why: { why: 'capped' } } : { sequences: cluster, why: { why: 'cluster' } };
}

/**
 * The multiple of `step` nearest the aim, at least one step. Rounding moves the aim by less than a half; a
 * single step more than that above it is the least `step` allows, and `floor` says why.
 */
export function batchNear(p: AskParameters, gpus: number | undefined, step: number, floor: DefaultBatchWhy): DefaultBatch {
  const aim = batchAim(p, gpus);
  const sequences = step * Math.max(1, Math.round(aim.sequences / step));
  // The floor in place of a published batch says which batch it replaces (QA: 3,601 sequences on 3,601 H100 nodes read
  // as a plain split, with GPT-3 175B's 1,536 unsaid).
  const instead = aim.why.why === 'published' && floor.why === 'split' ? { instead: { model: aim.why.model, published: aim.why.published } } : {};
  const why = sequences === step && step > 1.5 * aim.sequences ? { ...floor, ...instead } : aim.why;
  return { sequences, seqLength: seqLengthOf(p), ...why };
}

/**
 * The global batch a search question takes when it states none: the model's published batch where its source
 * states one, else about 4M tokens a step (Touvron et al. 2023, Llama 2 §2.2) in sequences of the model's length,
 * a multiple some split of the cluster's GPUs divides when the cluster is known (batchStep); with why, for
 * defaultBatchNote. The CLI's `nodes` takes the same.
 */
export function defaultBatch(p: AskParameters): DefaultBatch {
  const gpus = clusterGpusOf(p);
  // A published batch is the model's own hyperparameter: taken as it is, on any cluster (the search finds the splits
  // that divide it, or says none does), so that every question about the model plans the same batch.
  const aim = batchAim(p, gpus);
  // A cluster computed from a bad value (0 nodes) takes no default at all: the protocol's refusal of it is the answer.
  const sane = gpus === undefined || isComputedCount(gpus);
  if (aim.why.why === 'published' && sane && (gpus === undefined || someLayoutRuns(aim.sequences, gpus, p))) {
    return { sequences: aim.sequences, seqLength: seqLengthOf(p), ...aim.why };
  }
  const step = batchStep(gpus, seqLengthOf(p));
  return batchNear(p, gpus, withTwos(step, batchAim(p, gpus).sequences), { why: 'split', ranks: step });
}


/** Powers of two from 1 up to `max`, as the search's tensor sizes are. */
const powersOfTwoUpTo = (max: number): number[] => {
  const out: number[] = [];
  for (let x = 1; x <= max; x *= 2) out.push(x);
  return out;
};

/** Divisors of a whole count above 0, in rising order (of a batch's and a cluster's common divisor: a few dozen at most). */
function divisorsOf(n: number): number[] {
  const low: number[] = [];
  const high: number[] = [];
  for (let d = 1; d * d <= n; d++) {
    if (n % d !== 0) continue;
    low.push(d);
    if (d * d !== n) high.unshift(n / d);
  }
  return [...low, ...high];
}

/**
 * Whether some layout the search would try runs `batch` sequences on `gpus` GPUs, by the search's space and the
 * planner's rules, so that a default batch is never one the search then refuses: a data-parallel size dividing both the
 * batch and the GPUs (micro-batch 1 divides what each rank is left), and the model-parallel GPUs it leaves as TP × CP × PP,
 * with TP a power of two up to twice the NVLink domain (packages/search defaultSearchSpace) that splits the model's heads
 * (splitsOver, check-plan.ts's rule), CP a power of two up to the search's (8, or more past 64k tokens) that splits the sequence into 2·CP equal chunks
 * (check-plan.ts checkSequence), and PP a stage count Megatron has a split of the layers over, with or without the
 * embedding and the loss counted (@trainplan/model pipelineSplit, as the search prunes with it). Sizes the question
 * states are held, as the search's constraints hold them. Memory is not judged: the search says where nothing fits.
 * Llama 2 7B's 1,024 on 25 nodes of 8 A100 (200 GPUs): DP divides gcd(1,024, 200) = 8, which leaves 25 × 2^k GPUs a
 * replica, a PP of 25 (32 layers have no Megatron split over 25 stages: ⌈32/25⌉ = 2 on each of 23 middle stages is 46)
 * or more than 32 stages: none runs, and the batch is moved (QA: it was kept, and the search found no configuration).
 */
function someLayoutRuns(batch: number, gpus: number, p: AskParameters): boolean {
  if (!Number.isInteger(batch) || !Number.isInteger(gpus) || batch < 1 || gpus < 1) return false;
  const shape = modelShapeOf(p);
  // No model known: nothing to split, any replica runs (the question is refused for its model elsewhere).
  if (shape === undefined) return true;
  const seq = seqLengthOf(p);
  const tensors = (p.tensor === undefined ? powersOfTwoUpTo(2 * nvlinkDomainOf(p)) : [p.tensor]).filter((t) => splitsOver(shape, t));
  // The context-parallel sizes the search tries (packages/search search-space.ts: powers of two up to 8, more on long sequences).
  const contexts = (p.context === undefined ? powersOfTwoUpTo(defaultMaxContext(seq)) : [p.context]).filter((c) => seq % c === 0 && (c === 1 || (seq / c) % 2 === 0));
  const splits = (pp: number): boolean => (p.pipeline === undefined || p.pipeline === pp) && PIPELINE_SLOTS.some((slots) => pipelineSplit(shape.layers, pp, slots) !== undefined);
  return divisorsOf(gcd(batch, gpus)).some((d) => (p.data === undefined || p.data === d)
    && tensors.some((t) => contexts.some((c) => (gpus / d) % (t * c) === 0 && splits(gpus / d / (t * c)))));
}

/**
 * The batch a deadline's search plans each cluster size at when the question states none: the size's own default
 * (what a question about that size alone takes, so that "how many nodes …" and "how long … on N nodes" agree), where it
 * stays within DEFAULT_BATCH_SLACK over its aim (the published batch, about 4M tokens, or one sequence per 8 GPUs on a
 * large cluster up to 16M tokens); where rounding to the size's GPUs raised it further, the batch the question takes with no size instead.
 * Such a size then runs the batch it was asked at or no plan, rather than meeting the deadline with a batch inflated
 * to fit its GPUs: GPT-3 175B's 1,536 would be 2,919 on 2,919 H100 nodes (2,919 = 3 × 7 × 139 GPUs a node-group, no
 * split of 1,536), and that size would answer "1 day" with a batch nearly twice the published one. A batch rounded
 * down is the size's own however far: fewer sequences a step meet no deadline by the batch (a smaller batch is never
 * the less sample-efficient, McCandlish et al. 2018), and planning the size at its aim instead found no split where its
 * own runs (QA: Llama 3 70B on H100, 15T tokens, 70 days answered 462 nodes; on 425 nodes the own batch, 425 sequences
 * 17% under 512, runs in 69.3 days, and 512 there had no split).
 */
export function deadlineBatchFor(p: AskParameters): SizedBatchFor {
  const { nodes: _nodes, gpus: _gpus, ...unsized } = p;
  const asked = defaultBatch(unsized).sequences;
  const ownFor = (nodes: number): number | undefined => {
    const sized = { ...unsized, nodes };
    const own = defaultBatch(sized).sequences;
    const aim = batchAim(sized, clusterGpusOf(sized)).sequences;
    return own <= (1 + DEFAULT_BATCH_SLACK) * aim ? own : undefined;
  };
  // The other side of the aim only where the size takes its own default: the batch asked with no size has no unit.
  return Object.assign((nodes: number) => ownFor(nodes) ?? asked, {
    alternativeFor: (nodes: number) => (ownFor(nodes) === undefined ? undefined : batchAcrossAim({ ...unsized, nodes })),
    said: (nodes: number, used: number) => {
      const why = sizedBatchWhy(unsized, nodes, used);
      return { why: why.why, own: why.own.sequences, note: sizedBatchNote(why) };
    },
  });
}

/**
 * Which batch a deadline's, a budget's or the curve's search (deadlineBatchFor) planned `nodes` nodes at, given the batch
 * its plan took (`used`): the size's own default (`own`), the batch across its aim (`across`: faster there than its own,
 * batchAcrossAim), or the batch the question takes with no size (`unsized`: the size's own rounding moved it more than
 * DEFAULT_BATCH_SLACK over its aim). `own` is the size's own default in every case, for the sentence that says it.
 */
type SizedBatchWhy = { why: 'own' | 'across' | 'unsized'; own: DefaultBatch; used: number; aim: number };

function sizedBatchWhy(p: AskParameters, nodes: number, used: number): SizedBatchWhy {
  const { nodes: _nodes, gpus: _gpus, ...unsized } = p;
  const sized = { ...unsized, nodes };
  const own = defaultBatch(sized);
  const aim = batchAim(sized, clusterGpusOf(sized)).sequences;
  const why = used === own.sequences ? 'own' : used === batchAcrossAim(sized) ? 'across' : 'unsized';
  return { why, own, used, aim };
}

/**
 * How an answer says the batch a size of a search took (sizedBatchWhy), in words every surface shares; where it is not the
 * size's own default, the surface adds how to plan that size alone at it (the CLI's flags, the API's fields, the bot's words).
 */
function sizedBatchNote(w: SizedBatchWhy): string {
  if (w.why === 'own') return defaultBatchNote(w.own);
  const head = `global batch ${countOf(w.used, 'sequence')}`;
  if (w.why === 'unsized') {
    return `${head}, the batch asked with no size (this size's own default rounds it to ${sequencesText(w.own.sequences)}, more than `
      + `${DEFAULT_BATCH_SLACK * 100}% over its aim)`;
  }
  const pct = Math.round((100 * Math.abs(w.used - w.aim)) / w.aim);
  return `${head} (${compactCount(w.used * w.own.seqLength)} tokens, ${pct}% ${w.used < w.aim ? 'under' : 'over'} its aim of `
    + `${countOf(w.aim, 'sequence')}): faster on this size than the ${sequencesText(w.own.sequences)} its own default rounds to `
    + `(each size searched is planned at its default and at the multiple of its data-parallel unit on the other side of the aim, `
    + `at most ${DEFAULT_BATCH_UNDER_SLACK * 100}% under or ${DEFAULT_BATCH_SLACK * 100}% over it, the faster taken)`;
}

/**
 * A global batch per cluster size, and the second one each size is also planned at, the faster plan taken
 * (@trainplan/search's SizedBatchFor, restated here since this package does not depend on it); and how an answer says
 * the batch a size took (`said`: sizedBatchWhy's case, the size's own default, and sizedBatchNote's sentence), for the
 * CLI, the API and the bot to add how to plan that size alone at it in their own terms.
 */
export interface SizedBatchFor {
  (nodes: number): number;
  readonly alternativeFor: (nodes: number) => number | undefined;
  readonly said: (nodes: number, used: number) => { readonly why: SizedBatchWhy['why']; readonly own: number; readonly note: string };
}

/** How far a search's default batch may move from its aim to gain factors of two, so that more data-parallel sizes divide it. */
export const DEFAULT_BATCH_SLACK = 0.1;

/**
 * How far under its aim the batch across the aim (batchAcrossAim) may be: 25%, 3M tokens of a 4M aim. A smaller batch
 * trains the same tokens no worse: the tokens a run needs to reach a loss grow with the batch, E = E_min (1 + B / B_noise)
 * (McCandlish et al. 2018, An Empirical Model of Large-Batch Training), so a step of fewer sequences wastes none of them.
 * The bound is a judgement, not a law: it keeps the batch "about 4M tokens", as the answers say, and the search to one
 * more batch a size.
 */
export const DEFAULT_BATCH_UNDER_SLACK = 0.25;

/**
 * The multiple of a size's rounding unit on the other side of its aim from its default (defaultBatch rounds to the
 * multiple nearest the aim; this is the other neighbour), where it is at most DEFAULT_BATCH_UNDER_SLACK under the aim or
 * DEFAULT_BATCH_SLACK over it (a larger batch costs tokens, McCandlish et al. 2018, so it moves no further than the
 * default's own rounding may); undefined where there is none: an aim met exactly, a published batch taken as it is (the
 * model's own hyperparameter), a cluster of no computed size. The nearest multiple is not always the faster: Llama 3 8B
 * on 112 H100 nodes (896 GPUs, unit 112), 15T tokens: 560 sequences, 9% over 512, leave data parallelism at most 112
 * (PP 2 · CP 4, 30.8 days); 448, 12.5% under, run DP 448 · CP 2 in 27.5 days (QA).
 */
function batchAcrossAim(p: AskParameters): number | undefined {
  const gpus = clusterGpusOf(p);
  if (gpus === undefined || !isComputedCount(gpus)) return undefined;
  const aim = batchAim(p, gpus);
  if (aim.why.why === 'published') return undefined;
  const unit = withTwos(batchStep(gpus, seqLengthOf(p)), aim.sequences);
  const own = unit * Math.max(1, Math.round(aim.sequences / unit));
  const other = own > aim.sequences ? own - unit : own < aim.sequences ? own + unit : undefined;
  if (other === undefined || other < 1) return undefined;
  return other >= (1 - DEFAULT_BATCH_UNDER_SLACK) * aim.sequences && other <= (1 + DEFAULT_BATCH_SLACK) * aim.sequences ? other : undefined;
}

/**
 * `step` times the largest power of two whose multiple nearest `aim` stays within DEFAULT_BATCH_SLACK of it: on 2,240
 * GPUs (step 35), 2,240 = 35 × 64 sequences rather than 2,065 = 35 × 59, which few data-parallel sizes divide.
 */
function withTwos(step: number, aim: number): number {
  const nearest = (unit: number): number => unit * Math.max(1, Math.round(aim / unit));
  let unit = step;
  while (Math.abs(nearest(unit * 2) - aim) <= DEFAULT_BATCH_SLACK * aim) unit *= 2;
  return unit;
}

/**
 * Whether a count computed from the question is one to take: finite and positive. One computed from a bad value
 * ("tp 0", "on 0 nodes", a sequence length of 0) is NaN, Infinity or 0; the default is then not taken, and the
 * protocol's refusal of the bad field is the answer (issue-words.ts words it), not "global batch Infinity sequences".
 */
export const isComputedCount = (x: number): boolean => Number.isFinite(x) && x > 0;

/** Whether a default batch is one to take (isComputedCount): not on a cluster, layout or length the protocol refuses. */
export const isComputedBatch = (b: DefaultBatch): boolean => isComputedCount(b.sequences) && isComputedCount(b.seqLength);

/** How far a batch asked in tokens may move to be a multiple of a power of two (GPT-3's "3.2M" is 1536 × 2048 = 3.15M). */
const BATCH_ROUNDING = 0.05;

/**
 * Sequences per step for a batch asked in tokens: the nearest multiple of the largest power of two
 * within BATCH_ROUNDING of it, so that power-of-two data-parallel sizes divide it ("4M tokens" of 2048 is
 * 2048 sequences, not 1953, which only DP 1 divides on a power-of-two cluster).
 */
export function roundBatch(sequences: number): number {
  for (let step = 2 ** 14; step > 1; step /= 2) {
    const batch = Math.max(step, Math.round(sequences / step) * step);
    if (Math.abs(batch - sequences) <= BATCH_ROUNDING * sequences) return batch;
  }
  return Math.max(1, Math.round(sequences));
}

/**
 * A batch asked in tokens, in sequences of `seqLength`, and the note that says how it was read. roundBatch's
 * power-of-two multiple, unless `gpus` (the cluster the question plans on, with no layout fixed) runs no layout of it
 * (someLayoutRuns): then the nearest multiple of the step some split of those GPUs divides, with as many factors of two
 * as stay near the batch asked (batchStep, withTwos), as the default batch is rounded. On 1,000 A100 (125 nodes), 4M
 * tokens of 4,096 are 976.6 sequences: roundBatch's 1,024 leaves DP 8 at most and a PP of 125 for 32 layers, no layout;
 * 1,000 (DP 200 or 1,000) runs (QA: 1,024 was taken, and the search found no configuration).
 */
export function tokenBatch(p: AskParameters, batchTokens: number, gpus: number | undefined): { sequences: number; note: string } {
  const seq = seqLengthOf(p);
  const exact = batchTokens / seq;
  const asked = `the ${compactCount(batchTokens)}-token batch asked, over ${seq}-token sequences`;
  const powerOfTwo = roundBatch(exact);
  const head = (n: number): string => `global batch ${countOf(n, 'sequence')}`;
  if (gpus === undefined || !isComputedCount(gpus) || someLayoutRuns(powerOfTwo, gpus, p)) {
    const rounded = powerOfTwo === Math.round(exact) ? '' : `, rounded from ${sequencesText(exact)} so that power-of-two data-parallel sizes divide it`;
    return { sequences: powerOfTwo, note: `${head(powerOfTwo)} (${asked}${rounded})` };
  }
  const unit = withTwos(batchStep(gpus, seq), exact);
  const sequences = unit * Math.max(1, Math.round(exact / unit));
  const why = `no layout of these ${countOf(gpus, 'GPU')} runs ${sequencesText(powerOfTwo)}, the nearest power-of-two multiple`;
  return {
    sequences,
    note: `${head(sequences)} (${compactCount(sequences * seq)} tokens: ${asked}, rounded from ${sequencesText(exact)} so that data-parallel sizes of these GPUs divide it; ${why})`,
  };
}

/** Sequences as the batch note counts them, grouped as every count in an answer: "1,953.1" for a fractional count, "1,953" for a whole one. */
export const sequencesText = (n: number): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(n) ? 0 : 1, maximumFractionDigits: Number.isInteger(n) ? 0 : 1 });

/** Tokens per sequence: the stated length, else the model's, else GPT-3's 2048. */
export const seqLengthOf = (p: AskParameters): number => p.seqLength ?? modelSeqLengthOf(p) ?? 2048;

/** "each of the 8 data-parallel ranks", "the one data-parallel rank". */
const onRanks = (ranks: number): string => (ranks === 1 ? 'the one data-parallel rank' : `each of the ${ranks.toLocaleString('en-US')} data-parallel ranks`);

/** How an answer says it took the default global batch, and why it is that size. */
export function defaultBatchNote(b: DefaultBatch): string {
  const head = `global batch ${countOf(b.sequences, 'sequence')}`;
  const tokens = compactCount(b.sequences * b.seqLength);
  switch (b.why) {
    case 'tokens': {
      // Moved from 4M tokens to a multiple more data-parallel sizes divide (withTwos): said, with the tokens it makes.
      const moved = Math.abs(b.sequences * b.seqLength - DEFAULT_BATCH_TOKENS) > 0.01 * DEFAULT_BATCH_TOKENS;
      return moved
        ? `${head} (${tokens} tokens: about the 4M Llama 2 trained with, rounded so that more data-parallel sizes divide it)`
        : `${head} (about 4M tokens, as Llama 2 trained)`;
    }
    case 'cluster':
      return `${head} (${tokens} tokens: one sequence per ${GPUS_PER_DEFAULT_SEQUENCE} GPUs, more than the usual 4M tokens on a cluster this large, as Llama 3 405B trained with 2,048 sequences on 16,384 H100s)`;
    case 'capped': {
      // The cap is 2^24 tokens, which Meta's table calls "16M" and an answer's decimal figures 16.8M: said as the answers
      // print it (QA: "up to 16M tokens a step" beside 16.8M). Rounded off it to a multiple the GPUs' splits divide
      // (batchNear), up past it too (2,250 sequences on 2,250 H100 nodes, 18.4M tokens): said with which way and how far.
      const cap = DEFAULT_BATCH_MAX_TOKENS / b.seqLength;
      const moved = Math.abs(b.sequences - cap) > 0.01 * cap;
      const share = (100 * Math.abs(b.sequences - cap)) / cap;
      const rounded = moved
        ? `; rounded ${b.sequences > cap ? 'up past' : 'down from'} the cap's ${countOf(cap, 'sequence')} by ${share < 10 ? share.toFixed(1) : Math.round(share)}% so that data-parallel sizes of these GPUs divide it`
        : '';
      return `${head} (${tokens} tokens: one sequence per ${GPUS_PER_DEFAULT_SEQUENCE} GPUs up to ${compactCount(DEFAULT_BATCH_MAX_TOKENS)} tokens (2^24) a step, `
        + `the "16M" every row of Llama 3 405B's Table 4 keeps on 16,384 H100s: 2,048 × 8,192 tokens at 8k, 128 × 131,072 at 128k${rounded})`;
    }
    case 'layout': return `${head} (${tokens} tokens: one micro-batch on ${onRanks(b.ranks)}, the least this layout runs)`;
    case 'split': {
      const instead = b.instead === undefined ? ''
        : `; ${Math.round((100 * (b.sequences - b.instead.published)) / b.instead.published)}% more than ${b.instead.model}'s published `
          + `${countOf(b.instead.published, 'sequence')}, which no split of these GPUs divides`;
      return `${head} (${tokens} tokens: one sequence on ${onRanks(b.ranks)}, the least some split of these GPUs divides${instead})`;
    }
    case 'published':
      return b.sequences === b.published
        ? `${head} (${tokens} tokens: ${b.model}'s published batch)`
        : Math.abs(b.sequences - b.published) <= DEFAULT_BATCH_SLACK * b.published
          ? `${head} (${tokens} tokens: near ${b.model}'s published ${countOf(b.published, 'sequence')}, rounded so that data-parallel sizes of these GPUs divide it)`
          // Further than the slack a deadline's search allows (deadlineBatchFor): said as a move, not as "near" (QA: 2,030 was "near" 1,536).
          : `${head} (${tokens} tokens: ${Math.round((100 * Math.abs(b.sequences - b.published)) / b.published)}% ${b.sequences > b.published ? 'more' : 'fewer'} `
            + `than ${b.model}'s published ${countOf(b.published, 'sequence')}, which no split of these GPUs divides)`;
  }
}
