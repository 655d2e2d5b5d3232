import { describe, expect, it } from 'vitest';
import { planInference } from '../src/index.ts';
import { llama70bBase as base } from './fixtures.ts';

describe('one output token: the prompt\'s prefill yields it, no token is decoded', () => {
  const search = { promptTokens: 2048, outputTokens: 1, tensor: [8], pipeline: [1] };

  it('a bound per generated token is not applied, and a warning says why: a plan meets the other bounds', () => {
    // Far below any decode step: with more than one token to generate no plan meets it.
    const bound = { maxDecodeSecondsPerToken: 1e-6 };
    expect(planInference(base, { ...search, outputTokens: 2, ...bound }).best).toBeUndefined();
    const plan = planInference(base, { ...search, ...bound });
    expect(plan.best).toBeDefined();
    expect(plan.warnings).toContainEqual(expect.stringMatching(/^with one output token no token is decoded .* maxDecodeSecondsPerToken is not applied/));
    // The best plan is the one without the bound.
    expect(plan.best!.shape.batch).toBe(planInference(base, search).best!.shape.batch);
    expect(planInference(base, search).warnings).toEqual([]);
  });

  it('when the first-token bound is missed, the closest plan is not said to decode a token', () => {
    const plan = planInference(base, { ...search, maxDecodeSecondsPerToken: 1e-6, maxPrefillSeconds: 1e-6 });
    expect(plan.best).toBeUndefined();
    expect(plan.closest!.why).toMatch(/^the closest plan \(TP 8, PP 1, batch 1\): its first token comes after .* against the 1\.00 µs bound$/);
    expect(plan.closest!.why).not.toContain('decodes');
  });
});
