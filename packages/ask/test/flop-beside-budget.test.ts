import type { NodesResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

const options = { publicUrl: null } as const;

/** The reading of two budgets a question gives, if any. */
const twoBudgets = (question: string): string | undefined => parse(question).defaults.find((d) => d.text.startsWith('two budgets given: '))?.text;

/**
 * A compute in FLOPs beside a budget in money (or GPU-hours): the FLOPs size the model in closed form, and the other budget is
 * read, held against the plan's cost and said within or over, never dropped. QA: "what can I train with 1e24 FLOPs and $2M
 * on H100 at $2/GPU-hour" planned the FLOPs and said the $2M was "neither a price nor a budget".
 */
describe('"with 1e24 FLOPs and $2M": the money read as a second budget', () => {
  it('the $2M joined to the FLOPs by "and" is a budget, at the price given', () => {
    const q = parse('what can I train with 1e24 FLOPs and $2M on H100 at $2/GPU-hour');
    expect(q.stated.costBudget).toBe(2_000_000);
    expect(q.stated.pricePerGpuHour).toBe(2);
    expect(q.notRead ?? []).toEqual([]);
    expect(q.problems).toEqual([]);
  });

  it('which budget sized the model is said, and what the money buys in GPU-hours at the price', () => {
    // $2M / ($2 a GPU-hour) = 1M GPU-hours; $500k / $2.50 = 200k.
    expect(twoBudgets('what can I train with 1e24 FLOPs and $2M on H100 at $2/GPU-hour')).toBe(
      'two budgets given: the model is sized from the 1.00e24 FLOPs (the compute-optimal size read from the compute itself); the $2M budget, 1.00M GPU-hours at $2/GPU-hour, '
      + 'is held against the plan\'s cost, said within it or over it in the notes; for the size $2M buys instead, ask again without the FLOPs',
    );
    expect(twoBudgets('what can I train with a $500k budget and 1e24 FLOPs on H100 at $2.50/GPU-hour')).toContain('the $500k budget, 200k GPU-hours at $2.50/GPU-hour');
    expect(twoBudgets('what can I train with 1e24 FLOPs and 500k GPU-hours on H100')).toMatch(/^two budgets given: the model is sized from the 1\.00e24 FLOPs .*; the 500k GPU-hours are held against the plan's GPU-hours/);
  });

  it('the answer plans the FLOPs and says the plan over the money budget where it costs more', () => {
    const a = ask('what can I train with 1e24 FLOPs and $500k on H100 at $2/GPU-hour', options);
    expect(a.headline).toMatch(/^About an? [\d.]+B Llama 3-style model on [\d.]+T tokens for 1\.00e24 FLOPs/);
    const data = a.data as NodesOk;
    expect(data.cost).toBeGreaterThan(500_000);
    expect(a.assumptions).toContainEqual(expect.stringMatching(/^two budgets given: /));
    expect(a.notes).toContainEqual(expect.stringMatching(/over the \$500k budget\.$/));
  });

  it.each([
    ['what can I train with 1e24 FLOPs and $2M on H100', '"$2M"'],
    ['what can I train with $2M and 1e24 FLOPs on H100', '"with $2M"'],
  ])('"%s": with no price, the money is said not weighed and the FLOPs still answered, never the whole question refused', (question, phrase) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.costBudget).toBeUndefined();
    expect(q.notRead).toContainEqual(expect.objectContaining({ phrase, why: expect.stringMatching(/^not weighed: a budget in money needs a price per GPU-hour/) }));
  });

  it('neighbour: with a model named the FLOPs are no goal, and the money with no price says what to give', () => {
    expect(parse('train llama3-70b with 1e24 FLOPs and $2M').problems).toEqual([expect.stringMatching(/^a budget of \$2M needs a price per GPU-hour/)]);
  });

  it('neighbours: a FLOP budget alone has no such reading; money beside GPU-hours keeps its own reading', () => {
    expect(twoBudgets('what can I train with 1e24 FLOPs on H100 at $2/GPU-hour')).toBeUndefined();
    const q = parse('how many H100 nodes to train llama3-70b on 15T tokens with 5M GPU hours and $1M at $2/GPU-hour');
    expect(q.stated.costBudget).toBeUndefined();
    expect(q.notRead).toContainEqual(expect.objectContaining({ phrase: '"$1M"', why: expect.stringMatching(/^money neither a price nor a budget/) }));
  });
});
