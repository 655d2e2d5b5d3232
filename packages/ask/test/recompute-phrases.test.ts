import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const BASE = 'how long to train a 13B model on 500B tokens on 16 nodes of H100';

describe('activation recompute as a question states it: negated, asked about, or set', () => {
  it.each([
    // QA: the negation read "recompute" alone, so "without activation checkpointing" forced full recompute.
    [`${BASE} without activation checkpointing`, 'none'],
    [`${BASE} without gradient checkpointing`, 'none'],
    [`${BASE} with no activation checkpointing`, 'none'],
    [`${BASE} w/o grad checkpointing`, 'none'],
    [`${BASE} without full recompute`, 'none'],
    [`${BASE} with activation checkpointing off`, 'none'],
    [`${BASE} with no recompute`, 'none'],
    // Not full, and the mode named beside the negation is the one meant.
    [`${BASE} without full recompute, selective only`, 'selective'],
    // Activation and gradient checkpointing are full recompute (Chen et al. 2016; Korthikanti et al. 2022 §4).
    [`${BASE} with activation checkpointing`, 'full'],
    [`${BASE} with gradient checkpointing`, 'full'],
    [`${BASE} with full recompute`, 'full'],
    [`${BASE} with selective recompute`, 'selective'],
  ])('"%s" states recompute %s', (question, recompute) => {
    const q = parse(question);
    expect(q.stated.recompute).toBe(recompute);
    expect(q.notRead).toEqual([]);
  });

  it.each([
    'should I use activation checkpointing for a 13B model on 500B tokens on 16 nodes of H100?',
    `${BASE}, do I need gradient checkpointing?`,
    `is activation checkpointing worth it for a 13B model on 500B tokens on 16 nodes of H100`,
    `${BASE} with or without activation checkpointing`,
  ])('"%s" asks whether to recompute: no mode is stated, and the answer says each was tried', (question) => {
    const q = parse(question);
    expect(q.stated.recompute).toBeUndefined();
    expect(q.defaults.find((d) => d.field === 'recompute')?.text).toMatch(/asked: no recompute mode fixed; the search tries none, selective and full/);
  });

  it('"checkpointing" alone saves a model, and sets no recompute', () => {
    expect(parse(`${BASE} with checkpointing every hour`).stated.recompute).toBeUndefined();
  });

  it('a memory question asking about it keeps the default mode and says how to plan the others', () => {
    const q = parse('memory for 70B with tp 8 pp 4 on A100 80GB, do I need activation checkpointing?');
    expect(q.parameters.recompute).toBe('selective');
    expect(q.defaults.find((d) => d.field === 'recompute')?.text).toMatch(/"do I need activation checkpointing" asked: say "with full recompute" or "without recompute"/);
  });

  it('"without activation checkpointing" is planned without recompute, as "with no recompute" is', () => {
    const negated = ask(`${BASE} without activation checkpointing`, { publicUrl: null });
    const plain = ask(`${BASE} with no recompute`, { publicUrl: null });
    expect(negated.scenario?.parallelism?.recompute).toBe('none');
    expect(negated.headline).toBe(plain.headline);
  });
});
