import { parameterBreakdown } from '@trainplan/model';
import { formatCountExact } from '@trainplan/units';
import { compactCount } from '../format.ts';
import { modelFactsOf, modelShapeOf } from '../model-of.ts';
import { normalize } from '../parse.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';

/**
 * "How many params is llama3 70b", "param count of gpt3 175b": the model's parameter count, counted from its shape by
 * packages/model's parameterBreakdown (Narayanan et al. SC'21 eq. 2 for GPT, the gated MLP and grouped-query attention
 * for Llama), with the count it was published as. QA: both were answered with a Chinchilla token budget, the count only
 * in its parenthesis (and the published 70B, not the shape's 70.6B).
 */

/**
 * Asking the count itself: "how many params", "what is the parameter count", "param count of", "number of parameters in";
 * and the active ones, "what are the active parameters of llama3-70b": every preset is dense, so they are all of them
 * (QA: that question ran a configuration search).
 */
export const ASKS_PARAMETER_COUNT = /^(?:how many|what(?:'s| is| are)?(?: the)?(?: number of)?|number of)\s+(?:(?:active|activated)\s+)?(?:parameters|params)\b|\b(?:(?:active|activated)\s+)?(?:parameter|param)\s+count\b/;
/** The active parameters asked ("how many active parameters"): the answer says they are all of the model's. */
const ASKS_ACTIVE = /\b(?:active|activated)\s+(?:parameters|params|parameter\s+count|param\s+count)\b/;
/** A token count or rate asked beside it ("tokens per parameter", "how many tokens"): the tokens answer, not this. */
const ASKS_TOKENS = /\btokens?\b|\bchinchilla\b|\bcompute[\s-]*optimal\b/;

/** Whether the question asks a model's parameter count, and nothing about tokens. */
export function asksParameterCount(q: ParsedQuestion): boolean {
  const normal = normalize(q.text);
  return q.stated.tokensPerParameter === undefined && ASKS_PARAMETER_COUNT.test(normal) && !ASKS_TOKENS.test(normal);
}

/** The parameter count of the question's model: its layers' and its embeddings' parts, and the count it was published as. */
export function answerParameterCount(q: ParsedQuestion): Answer {
  const base: Pick<Answer, 'intent' | 'question' | 'figures' | 'examples'> = { intent: q.intent, question: q.text, figures: [], examples: [] };
  const shape = modelShapeOf(q.parameters);
  const facts = modelFactsOf(q.parameters);
  if (shape === undefined || facts === undefined) {
    return { ...base, kind: 'refusal', ok: false, headline: 'I could not answer that: name a model (e.g. "how many parameters is llama3-70b")', assumptions: [], notes: [] };
  }
  const p = parameterBreakdown(shape);
  const embeddings = p.wordEmbedding + p.positionEmbedding + p.outputLayer;
  const whatEmbeds = p.outputLayer > 0 ? 'the embedding and output layer' : 'the embedding (tied with the output layer)';
  // As published, every digit ("70B", not "70.0B").
  const published = facts.published ? `; published as ${formatCountExact(facts.parameters).replace(/\s+/g, '')}` : '';
  const asked = q.stated.model ?? formatCountExact(facts.parameters).replace(/\s+/g, '');
  // Every model planned here is a dense decoder: each token runs every weight, so its active parameters are all of them.
  const active = ASKS_ACTIVE.test(normalize(q.text)) ? ', all active for every token: a dense model' : '';
  const headline = `${facts.name}: ${compactCount(p.total)} parameters${active} (${shape.layers} layers of ${compactCount(p.perLayer)}, ${compactCount(embeddings)} in ${whatEmbeds}${published})`;
  const notes = [
    'Counted from the model\'s shape (layers, hidden and FFN sizes, heads, vocabulary), the count every plan here computes with.',
    `To plan it, ask e.g. "how many H100 nodes to train ${q.stated.model ?? `a ${asked} model`} on 2T tokens in 30 days", or "how many tokens for ${asked}" for its compute-optimal tokens.`,
  ];
  const assumptions = q.defaults.filter((d) => d.field === 'model' || d.field === 'customModel').map((d) => d.text);
  return { ...base, kind: 'answer', ok: true, headline, assumptions, notes };
}
