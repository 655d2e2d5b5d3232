import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const BASE = 'how long to train a 13B model on 500B tokens on 16 nodes of H100';

describe('activation recompute as a question states it: negated, asked about, or set', () => {
  it('two phrases that contradict: the negation is planned and the other said back, never dropped', () => {
    const q = parse(`${BASE} without recompute but with activation checkpointing`);
    expect(q.stated.recompute).toBe('none');
    expect(q.notRead).toEqual([{ phrase: '"activation checkpointing"', why: 'contradicts "without recompute", which is planned; say one' }]);
  });

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
    // Re-test: negations with a verb between, the state said after the name, other languages, two negations.
    [`${BASE} not using activation checkpointing`, 'none'],
    [`${BASE} without using activation checkpointing`, 'none'],
    [`${BASE} and I don't use activation checkpointing`, 'none'],
    [`${BASE}, we do not need gradient checkpointing`, 'none'],
    [`${BASE} with activation checkpointing turned off`, 'none'],
    [`${BASE}, activation checkpointing: no`, 'none'],
    [`${BASE} sans activation checkpointing`, 'none'],
    [`${BASE} ohne activation checkpointing`, 'none'],
    [`${BASE} not without activation checkpointing`, 'full'],
    // A mode refused is not the one meant: "not selective" leaves the checkpointing named, full.
    [`${BASE} with gradient checkpointing, not selective`, 'full'],
    // "since" is no "sin".
    [`${BASE} since activation checkpointing is on`, 'full'],
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
