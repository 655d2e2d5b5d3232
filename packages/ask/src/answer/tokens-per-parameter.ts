import { CHINCHILLA_TOKENS_PER_PARAMETER } from '../defaults.ts';
import { compactCount } from '../format.ts';
import { modelFactsOf } from '../model-of.ts';
import { CHINCHILLA_READING, normalize } from '../parse.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';
import { ASKS_PARAMETER_COUNT } from './parameter-count.ts';

/**
 * "Chinchilla optimal tokens for 70B", "how many tokens at 20 tokens per parameter for llama3-8b": the training tokens
 * themselves, the model's parameters × the tokens per parameter (Chinchilla's 20: Hoffmann et al. 2022,
 * arXiv:2203.15556), never a cluster plan the question did not ask for. A question that also asks a plan (a cluster, a
 * deadline, a budget, a price, a cost) is planned on those tokens instead (defaults.ts takes them).
 */

/** Words asking a token count or an amount of data. */
const ASKS_TOKENS = /\b(?:tokens?|data(?:set)?(?:[\s-]*size)?|how much data|budget of tokens)\b/;
/** Words asking a plan's figures: then the tokens are planned with, not answered alone. */
const ASKS_PLAN = /\b(?:nodes?|gpus?|how long|days?|weeks?|months?|cost|cheapest|price|memory|step[\s-]*time|mfu|config\w*|layout|throughput|serve|serving)\b/;

/**
 * A token count asked of a model, no rate named: "tokens for 70B", "how many tokens for 70B", "how many training tokens
 * to train llama3-8b". Chinchilla's rate is taken, said (QA: "tokens for 70B" ran a configuration search, while
 * "chinchilla optimal tokens for 70B" answered the tokens). Not a rate ("tokens per second for 70B").
 */
const ASKS_TOKEN_COUNT = /^(?:(?:how many|how much|what(?:'s| is| are)?(?: the)?|number of|amount of)\s+)?(?:(?:training|train|optimal)\s+)?tokens?\s+(?:for|of|to train|to pretrain|should|would|do|does|are|is|needed|required)\b/;

/**
 * "tokens per parameter for 70B" (the rate asked of a model), "how many parameters does llama3-70b have" (the count the
 * answer states): answered here, never a configuration search (QA: both ran one, "Best for Llama 3 70B … 194 days").
 */
const ASKS_RATE_OF_MODEL = /^(?:(?:how many|what(?:'s| is| are)?(?: the)?)\s+)?(?:(?:training|optimal|chinchilla(?:[\s-]*optimal)?)\s+)?tokens?\s*(?:per|a|\/)\s*param(?:eter)?s?\s+(?:for|of|in)\b/;

/** The rate per parameter a question asks the tokens at: its own, or Chinchilla's where it asks a token count of a model (ASKS_TOKEN_COUNT). */
function rateAsked(q: ParsedQuestion): number | undefined {
  const normal = normalize(q.text);
  const asks = ASKS_TOKEN_COUNT.test(normal) || ASKS_RATE_OF_MODEL.test(normal) || ASKS_PARAMETER_COUNT.test(normal);
  return q.stated.tokensPerParameter ?? (asks ? CHINCHILLA_TOKENS_PER_PARAMETER : undefined);
}

/** Whether the question asks only the tokens a model trains on at a rate per parameter. */
export function asksTokensAlone(q: ParsedQuestion): boolean {
  const s = q.stated;
  if (rateAsked(q) === undefined || s.tokens !== undefined) return false;
  if (s.nodes !== undefined || s.gpus !== undefined || s.deadlineSeconds !== undefined || s.gpuHours !== undefined || s.costBudget !== undefined || s.pricePerGpuHour !== undefined) return false;
  if (q.intent === 'serving' || q.intent === 'memory' || q.intent === 'collective' || q.intent === 'rate' || q.intent === 'help') return false;
  const normal = normalize(q.text).replace(/\b\d[\d.]*\s*tokens?\s*(?:per|\/|a)\s*param\w*/g, ' ');
  return (ASKS_TOKENS.test(normal) || ASKS_PARAMETER_COUNT.test(normal)) && !ASKS_PLAN.test(normal);
}

/** The tokens a model trains on at the question's tokens per parameter, with where the rate comes from. */
export function answerTokensPerParameter(q: ParsedQuestion): Answer {
  const perParameter = rateAsked(q) ?? CHINCHILLA_TOKENS_PER_PARAMETER;
  const facts = modelFactsOf(q.parameters);
  const base: Pick<Answer, 'intent' | 'question' | 'figures' | 'examples'> = { intent: q.intent, question: q.text, figures: [], examples: [] };
  if (facts === undefined) {
    return { ...base, kind: 'refusal', ok: false, headline: 'I could not answer that: name a model or a size (e.g. "chinchilla optimal tokens for 70B")', assumptions: [], notes: [] };
  }
  const tokens = perParameter * facts.parameters;
  const chinchilla = perParameter === CHINCHILLA_TOKENS_PER_PARAMETER;
  const source = chinchilla ? ': the compute-optimal ratio of Hoffmann et al. 2022, Chinchilla, arXiv:2203.15556' : ', as asked';
  const headline = `${facts.name}: about ${compactCount(tokens)} training tokens at ${perParameter} tokens per parameter (${compactCount(facts.parameters)} parameters × ${perParameter}${source})`;
  const notes = [
    ...(facts.defaultTrainingTokens === undefined ? [] : [`${facts.name} was published as trained on ${compactCount(facts.defaultTrainingTokens)} tokens, ${(facts.defaultTrainingTokens / tokens).toFixed(1)}× this: training past compute-optimal buys a better model of the same size, cheaper to serve.`]),
    ...(chinchilla ? ['Compute-optimal for a fixed training compute budget (the model size and tokens that minimise loss for those FLOPs); it says nothing of inference cost.'] : []),
    `To plan it, ask e.g. "how many H100 nodes to train ${q.stated.model ?? `a ${compactCount(facts.parameters)} model`} on ${compactCount(tokens)} tokens in 30 days".`,
  ];
  const assumptions = q.defaults.filter((d) => d.field === 'model' || d.field === 'customModel' || d.field === 'tokensPerParameter').map((d) => d.text);
  // "tokens for 70B": no rate in the question, Chinchilla's taken and said as "chinchilla optimal" would have it read.
  if (q.stated.tokensPerParameter === undefined) assumptions.unshift(`no tokens per parameter given: ${CHINCHILLA_READING}`);
  return { ...base, kind: 'answer', ok: true, headline, assumptions, notes };
}
