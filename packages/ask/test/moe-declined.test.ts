import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const OPTIONS = { publicUrl: null, today: '2026-11-28' } as const;

/**
 * A mixture-of-experts model named by its kind ("a 671B MoE", "8 experts top-2", "a mixture of experts 8x22B") is declined, as
 * "Mixtral" is: every preset is a dense decoder, and a dense plan of its total size would count every expert in every token.
 * QA found "a 671b moe model" and "a 47B MoE with 8 experts top-2" planned as dense 671B and 47B models with nothing said, and
 * "a mixture of experts 8x22b model" answered "name a model".
 */
describe('a mixture-of-experts model is declined, never planned dense', () => {
  it.each([
    ['how long to train a 671b moe model on 2048 h100 for 14.8T tokens', '671B'],
    ['how long to train a 47B MoE with 8 experts top-2 on 256 H100 for 1T tokens', '47B'],
    ['how many h100 for a mixture of experts 8x22b model', '8x22B'],
    ['how long to train 47B with 8 experts on 256 H100 for 1T tokens', '47B'],
    ['serve a 8x7b moe on 8 h100', '8x7B'],
  ])('"%s" is declined as a mixture-of-experts model (%s)', (question, size) => {
    const q = parse(question, OPTIONS);
    expect(q.stated.model).toBeUndefined();
    expect(q.stated.customModel).toBeUndefined();
    expect(q.problems).toEqual([`a mixture-of-experts model (${size}) is not modelled: every preset is a dense decoder, and planned dense its experts' parameters would all count in every token's FLOPs`]);
    // The experts' count and the size are the one model declined, never a second model said not read.
    expect(q.notRead).toEqual([]);
    const a = ask(question, OPTIONS);
    expect(a.ok).toBe(false);
    expect(a.headline).toContain('mixture-of-experts');
    expect(a.headline).not.toContain('name a model');
  });

  it('a dense model beside a node count written "16x8" is no mixture of experts', () => {
    const q = parse('how long to train a 7b on 1T tokens on 16x8 h100', OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject({ model: 'llama2-7b', nodes: 16, gpusPerNode: 8 });
  });
});
