import type { NodesResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { CHINCHILLA, countOf, HOUR, near, ROUNDING, SIX } from './support/compute-optimal.ts';
import { ask } from '../src/answer/answer.ts';
import type { Answer } from '../src/answer/answer-types.ts';
import { computeOptimalSize } from '../src/answer/chinchilla-size.ts';
import { LLAMA3_STYLE, withArticle } from '../src/answer/compute-optimal.ts';
import { presetsNear } from '../src/answer/presets-near-size.ts';
import { asksWhatBudgetTrains } from '../src/lexicon/model-size-asked.ts';
import { normalize, parse } from '../src/parse.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

const OPTIONS = { publicUrl: null };

/**
 * The model planned, the tokens its plan buys and C as the headline says them: "About an 81.1B Llama 3-style model on 1.59T
 * tokens (…): C = 7.75e23 FLOPs at …".
 */
function headlineFigures(a: Answer): { n: number; d: number; c: number } {
  const m = /^About an? ([\d.]+[kMBT]) Llama 3-style model on ([\d.]+[kMBT]) tokens \(\d+ tokens per parameter[^)]*\): C = ([\d.]+e\d+) FLOPs at [\d.]+% MFU on /.exec(a.headline);
  expect(m, a.headline).not.toBeNull();
  return { n: countOf(m![1]!), d: countOf(m![2]!), c: Number(m![3]) };
}

/**
 * The closed form's N and D as the notes say them, each with how far it is from the size planned and the tokens bought:
 * "N = √(C / (6 × 20)) = 80.4B, 0.9% from the 81.1B planned; D = 20·N = 1.61T, 0.9% from the 1.59T its plan buys".
 */
function closedFormFigures(a: Answer): { n: number; nApart: number; planned: number; d: number; dApart: number; bought: number } {
  const note = a.notes.find((t) => t.startsWith('N = √(C / (6 × 20)) = ')) ?? '';
  const m = /^N = √\(C \/ \(6 × 20\)\) = ([\d.]+[kMBT]), ([\d.]+)% from the ([\d.]+[kMBT]) planned; D = 20·N = ([\d.]+[kMBT]), ([\d.]+)% from the ([\d.]+[kMBT]) its plan buys/.exec(note);
  expect(m, note).not.toBeNull();
  return {
    n: countOf(m![1]!), nApart: Number(m![2]), planned: countOf(m![3]!), d: countOf(m![4]!), dApart: Number(m![5]), bought: countOf(m![6]!),
  };
}


/** A percentage said to one decimal is the share within half its last decimal. */
const saidPercent = (said: number, share: number): boolean => Math.abs(said - share * 100) <= 0.05 + 1e-9;

/**
 * The size the plan's own figures give, by hand: its model FLOPs are its GPU-hours × 3,600 × the peak its MFU is of × the
 * MFU; 6ND's share of them is 6 × its parameters over its model FLOPs a token (a step's over the step's tokens); C is that
 * share of them, N = √(C / (6 × 20)), D = 20·N.
 */
function sizeByHand(data: NodesOk): { n: number; d: number; c: number } {
  const e = data.configuration.estimate;
  const modelFlops = data.gpuHours * HOUR * (e.peakTflopsPerGpu ?? 0) * 1e12 * e.mfu;
  const perToken = e.modelFlopsPerStep / (e.resolved.globalBatchSize * e.resolved.seqLength);
  const c = modelFlops * ((SIX * e.parameters) / perToken);
  const n = Math.sqrt(c / (SIX * CHINCHILLA));
  return { n, d: CHINCHILLA * n, c };
}

/** Sizes that agree within this are one: the iteration's stop (compute-optimal.ts CONVERGED). */
const CONVERGED = 0.03;

/**
 * The headline is the model planned and the tokens its plan buys (what every figure is of), C = 6 × those; the notes give
 * the closed form's N and D from C, and how far each is from those planned.
 */
function expectComputeOptimal(a: Answer): { n: number; data: NodesOk } {
  expect(a.kind).toBe('answer');
  const data = a.data as NodesOk;
  expect(data.ok).toBe(true);
  const e = data.configuration.estimate;
  const said = headlineFigures(a);
  const hand = sizeByHand(data);
  // The headline: the plan's own model and tokens, and C by hand from its GPU-hours and MFU.
  expect(near(said.n, e.parameters, ROUNDING), `N ${said.n} vs ${e.parameters} planned`).toBe(true);
  expect(near(said.d, data.tokens, ROUNDING), `D ${said.d} vs ${data.tokens} bought`).toBe(true);
  expect(near(said.c, hand.c, ROUNDING), `C ${said.c} vs ${hand.c}`).toBe(true);
  // C = 6·N·D of the headline's own figures, each rounded once.
  expect(near(said.c, SIX * said.n * said.d, 3 * ROUNDING)).toBe(true);
  // The closed form from C, beside the figures planned: N = √(C/120), D = 20·N, each a stated share from those planned.
  const closed = closedFormFigures(a);
  expect(near(closed.n, hand.n, ROUNDING), `closed-form N ${closed.n} vs ${hand.n}`).toBe(true);
  expect(near(closed.d, hand.d, ROUNDING), `closed-form D ${closed.d} vs ${hand.d}`).toBe(true);
  expect(near(closed.planned, e.parameters, ROUNDING)).toBe(true);
  expect(near(closed.bought, data.tokens, ROUNDING)).toBe(true);
  // The shares apart, from the plan's own fields: C = 6 × its parameters × its tokens.
  const nExact = Math.sqrt((SIX * e.parameters * data.tokens) / (SIX * CHINCHILLA));
  expect(saidPercent(closed.nApart, Math.abs(nExact / e.parameters - 1)), `${closed.nApart}% apart`).toBe(true);
  expect(saidPercent(closed.dApart, Math.abs((CHINCHILLA * nExact) / data.tokens - 1)), `${closed.dApart}% apart`).toBe(true);
  // Converged: the model planned is the closed form's size within the 3% the iteration stops at.
  expect(near(e.parameters, hand.n, CONVERGED)).toBe(true);
  expect(near(data.tokens, hand.d, CONVERGED)).toBe(true);
  return { n: hand.n, data };
}

describe('N = √(C / 6r), D = r·N (chinchilla-size.ts)', () => {
  it('10B parameters on 200B tokens is 6 × 10B × 200B = 1.2e22 FLOPs, and back', () => {
    const size = computeOptimalSize(1.2e22, 20);
    expect(size.parameters).toBeCloseTo(1e10, -1);
    expect(size.tokens).toBeCloseTo(2e11, -2);
  });

  it('at 100 tokens a parameter the same compute trains √5 × fewer parameters on √5 × more tokens', () => {
    const at20 = computeOptimalSize(1.2e22, 20);
    const at100 = computeOptimalSize(1.2e22, 100);
    expect(at20.parameters / at100.parameters).toBeCloseTo(Math.sqrt(5), 9);
    expect(at100.tokens / at20.tokens).toBeCloseTo(Math.sqrt(5), 9);
  });
});

describe('the Llama 3 presets beside a size (presets-near-size.ts)', () => {
  it('80B: 8B, 70B and 405B, smallest first (1.23B is the farthest on a log scale)', () => {
    expect(presetsNear(LLAMA3_STYLE, 80e9).map((p) => p.id)).toEqual(['llama3-8b', 'llama3-70b', 'llama3.1-405b']);
  });

  it('11B: 3B, 8B and 70B (1B and 405B farther on a log scale)', () => {
    expect(presetsNear(LLAMA3_STYLE, 11e9).map((p) => p.id)).toEqual(['llama3.2-3b', 'llama3-8b', 'llama3-70b']);
  });
});

describe('a model size asked of a budget is recognised (lexicon/model-size-asked.ts)', () => {
  it.each([
    'what can I train for $1M on H100 at $2/GPU-hour',
    'what model can I train for $1M on H100 at $2/GPU-hour',
    "what's the biggest model I can train with 500k H100 GPU-hours",
    'what model size is compute-optimal for 1M GPU-hours of A100',
    'what can I train on 256 H100 in 30 days',
    'what can I train for $1M',
  ])('%s', (question) => {
    const q = parse(question);
    expect(asksWhatBudgetTrains(normalize(q.text), q.intent, q.stated)).toBe(true);
    expect(q.problems.join(' ')).not.toMatch(/name a model|not answered here/);
  });

  it.each([
    ['a model named', 'how many tokens can I train llama3-8b on for $1M at $2/GPU-hour'],
    ['a token count fixed', 'we have 2M gpu hours of h100, how big a model can we train on 10T tokens?'],
    ['serving', "what's the biggest model I can serve on 8 H100"],
  ])('not with %s', (_why, question) => {
    const q = parse(question);
    expect(asksWhatBudgetTrains(normalize(q.text), q.intent, q.stated)).toBe(false);
  });
});

describe('"what can I train for $1M on H100 at $2/GPU-hour": the compute-optimal model the budget trains', () => {
  // Asked once, within a test's time (a plan's curve search takes seconds).
  let asked: Answer | undefined;
  const answered = (): Answer => (asked ??= ask('what can I train for $1M on H100 at $2/GPU-hour', OPTIONS));

  it('C, N and D from the plan\'s own GPU-hours and MFU, C = 6ND and D = 20N', () => {
    const a = answered();
    const { data } = expectComputeOptimal(a);
    // $1,000,000 / $2 a GPU-hour = 500,000 GPU-hours, spent in whole optimizer steps: never above, short by under a step.
    expect(data.gpuHours).toBeLessThanOrEqual(500_000);
    expect(data.gpuHours).toBeGreaterThan(500_000 * 0.999);
    expect(data.configuration.estimate.resolved.gpu).toBe('h100-sxm');
    expect(a.figures.find((f) => f.label === 'Cost')?.value).toMatch(/^\$1\.00M: 500k GPU-hours at \$2\/GPU-hour/);
  });

  it('the headline names the model planned and its tokens, those the figures and the cost are of', () => {
    const a = answered();
    const said = headlineFigures(a);
    // The decoder planned, as its reading gives its count ("… (~81.1B parameters)"), and the tokens its time to train is of.
    const shape = /\(~([\d.]+[kMBT]) parameters\)/.exec(a.assumptions[0] ?? '');
    expect(shape, a.assumptions[0]).not.toBeNull();
    expect(countOf(shape![1]!)).toBe(said.n);
    const train = a.figures.find((f) => f.label === 'Time to train')?.value ?? '';
    expect(countOf(/ for ([\d.]+[kMBT]) tokens/.exec(train)?.[1] ?? '')).toBe(said.d);
  });

  it('the presets near it on the same budget, with their tokens a parameter, and Llama 3 8B\'s 15T said', () => {
    const a = answered();
    const rows = a.notes.filter((n) => /^Llama 3(?:\.\d)? \d+B: /.test(n));
    expect(rows.length).toBe(3);
    // Each row's tokens a parameter is its tokens over its published size: 8B far past 20, 405B short of it.
    const ratio = (row: string): number => countOf(/: ([\d.]+[kMBT]) tokens/.exec(row)![1]!) / countOf(/^Llama [\d.]+ ([\d.]+B)/.exec(row)![1]!);
    const [small, , large] = rows;
    expect(ratio(small!)).toBeGreaterThan(CHINCHILLA);
    expect(small).toMatch(/over-trained/);
    expect(ratio(large!)).toBeLessThan(CHINCHILLA);
    expect(large).toMatch(/under-trained/);
    expect(a.notes.some((n) => /^Llama 3 8B trained on 15\.0T tokens \(about 1,875 a parameter\)/.test(n))).toBe(true);
  });
});

describe('a larger budget trains a larger model', () => {
  it('400k GPU-hours: a larger N and D than 100k', () => {
    const small = expectComputeOptimal(ask("what's the biggest model I can train with 100k H100 GPU-hours", OPTIONS));
    const large = expectComputeOptimal(ask("what's the biggest model I can train with 400k H100 GPU-hours", OPTIONS));
    expect(large.n).toBeGreaterThan(small.n);
    expect(large.data.tokens).toBeGreaterThan(small.data.tokens);
  });
});

describe('"what can I train on 256 H100 in 30 days": the cluster named is the one planned', () => {
  it('on its 32 nodes, within its 256 × 720 GPU-hours', () => {
    const a = ask('what can I train on 256 H100 in 30 days', OPTIONS);
    const { data } = expectComputeOptimal(a);
    expect(data.nodes).toBe(32);
    expect(data.gpus).toBe(256);
    expect(data.gpuHours).toBeLessThanOrEqual(256 * 30 * 24);
    expect(data.days).toBeLessThanOrEqual(30);
  });
});

describe('money with no price: refused as this question, asking for the price', () => {
  it.each(['what can I train for $1M', 'what can I train for $1M on H100'])('%s', (question) => {
    const a = ask(question, OPTIONS);
    expect(a.kind).toBe('refusal');
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/^I could not size the compute-optimal model a budget trains: a budget of \$1M needs a price per GPU-hour/);
    expect(a.headline).not.toMatch(/name a model|didn't understand/);
  });

  it('a cluster with no time: asks for one', () => {
    const a = ask('what can I train on 256 H100', OPTIONS);
    expect(a.kind).toBe('refusal');
    expect(a.headline).toContain('the model a cluster trains is sized on its time: give one ("in 30 days")');
  });
});

describe('the article a size is read with', () => {
  it.each([
    ['8B', 'an'], ['80.4B', 'an'], ['812B', 'an'], ['11B', 'an'], ['11.5B', 'an'], ['18B', 'an'],
    ['110B', 'a'], ['180B', 'a'], ['27B', 'a'], ['1.1T', 'a'],
  ])('%s → "%s" (eight, eighty, eleven, eighteen open with a vowel; one hundred ten does not)', (size, article) => {
    expect(withArticle(size)).toBe(`${article} ${size}`);
  });
});
