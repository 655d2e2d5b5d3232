import { describe, expect, it } from 'vitest';
import { inFieldLabels } from '../src/serving/field-labels.ts';
import { servingAnswer } from './support/serving-answer.ts';

/** A request field's wire name: camelCase, as the protocol's messages write them for API callers. */
const WIRE_NAME = /\b[a-z]+[A-Z][A-Za-z]*\b/;

describe('the serving element names fields by the labels of its form, not their wire names', () => {
  it('its warnings, on real answers (no bound: static batching at a first token past 2 s; a per-token bound alone)', () => {
    for (const values of [{ batching: 'static' }, { batching: 'static', 'max-token-ms': '50' }] as Record<string, string>[]) {
      const { answer, view } = servingAnswer(values);
      // The premise: the protocol said it in wire names.
      expect(answer.warnings?.some((w) => WIRE_NAME.test(w))).toBe(true);
      expect(view.warnings.length).toBe(answer.warnings!.length);
      for (const w of view.warnings) expect(w).not.toMatch(WIRE_NAME);
    }
    const { view } = servingAnswer({ batching: 'static' });
    expect(view.warnings).toContainEqual(expect.stringContaining('give “Per token ≤ (ms)” and “First token ≤ (s)”'));
  });
  it('a quoted value stays after the label; a one-word field is a label only with one (it is an English word too)', () => {
    expect(inFieldLabels('use batching "continuous" to admit prompts')).toBe('use “Batching” continuous to admit prompts');
    expect(inFieldLabels('use kvCachePrecision "fp16", or kvCachePrecision "fp8"')).toBe('use “KV cache” fp16, or “KV cache” fp8');
    expect(inFieldLabels('the batching of the gpus stays')).toBe('the batching of the gpus stays');
    // A name the form has no field for is left as it is.
    expect(inFieldLabels('give candidateBudget')).toBe('give candidateBudget');
  });
});
