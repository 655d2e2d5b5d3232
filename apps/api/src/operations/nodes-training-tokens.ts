import type { FieldIssue } from '@trainplan/protocol';

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * An estimate's scenario carries its token budget as training.tokens (the scenario contract's extension; /v1/estimate
 * and /v1/search read it there), while a nodes request takes it at the top level, beside the goal. A scenario copied
 * from an estimate into /v1/nodes was refused twice over ("training.tokens: unknown field", "tokens: missing required
 * field"). A body with training.tokens and no tokens now has it moved up; with both, and the same, the copy dropped.
 * Two different budgets are left to the schema, whose refusal of training.tokens tokensHint words (a silent pick of
 * either would answer a question the caller did not ask).
 */
export function hoistTrainingTokens(body: unknown): unknown {
  if (!isObject(body) || !isObject(body.training) || !Object.hasOwn(body.training, 'tokens')) return body;
  const { tokens, ...training } = body.training;
  if (body.tokens === undefined) return { ...body, training, tokens };
  return Object.is(body.tokens, tokens) ? { ...body, training } : body;
}

/** The schema's refusal of a training.tokens left beside a different top-level tokens: which one a nodes request reads. */
export function withTrainingTokensHint(issues: FieldIssue[], body: unknown): FieldIssue[] {
  const top = isObject(body) ? body.tokens : undefined;
  return issues.map((i) => (i.path === 'training.tokens'
    ? { ...i, message: `a nodes request takes one token budget, at the top level: training.tokens differs from tokens (${String(top)}); give tokens alone` }
    : i));
}
