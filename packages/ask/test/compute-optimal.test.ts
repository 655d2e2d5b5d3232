import type { NodesResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import type { Answer } from '../src/answer/answer-types.ts';
import { computeOptimalSize } from '../src/answer/chinchilla-size.ts';
import { LLAMA3_STYLE, withArticle } from '../src/answer/compute-optimal.ts';
import { presetsNear } from '../src/answer/presets-near-size.ts';
import { asksWhatBudgetTrains } from '../src/lexicon/model-size-asked.ts';
import { normalize, parse } from '../src/parse.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

const OPTIONS = { publicUrl: null };
/** Seconds in an hour. */
const HOUR = 3600;
/** Chinchilla's tokens a parameter (Hoffmann et al. 2022), and 6ND's FLOPs a parameter a token (Kaplan et al. 2020). */
const CHINCHILLA = 20;
const SIX = 6;
/**
 * The headline's figures are to three significant figures (compactCount, toExponential(2)): half a unit in the third
 * figure is at most 0.5% of the figure.
 */
const ROUNDING = 0.005;

/** "2.5B" → 2.5e9. */
function countOf(written: string): number {
  const scale: Record<string, number> = { k: 1e3, M: 1e6, B: 1e9, T: 1e12 };
  const m = /^([\d.]+)([kMBT])$/.exec(written);
  if (m === null) throw new Error(`not a count: ${written}`);
  return Number(m[1]) * scale[m[2]!]!;
}

/** N, D and C as the headline says them: "About a 79.7B Llama 3-style model on 1.59T tokens (…): C = 7.62e23 FLOPs at …". */
function headlineFigures(a: Answer): { n: number; d: number; c: number } {
  const m = /^About an? ([\d.]+[kMBT]) Llama 3-style model on ([\d.]+[kMBT]) tokens \(\d+ tokens per parameter[^)]*\): C = ([\d.]+e\d+) FLOPs at [\d.]+% MFU on /.exec(a.headline);
  expect(m, a.headline).not.toBeNull();
  return { n: countOf(m![1]!), d: countOf(m![2]!), c: Number(m![3]) };
}

const near = (value: number, expected: number, share: number): boolean => Math.abs(value / expected - 1) <= share;

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

/** The answer's figures agree with the plan's by hand, C = 6ND, D = 20N, and the plan is of that size and buys those tokens. */
function expectComputeOptimal(a: Answer): { n: number; data: NodesOk } {
  expect(a.kind).toBe('answer');
  const data = a.data as NodesOk;
  expect(data.ok).toBe(true);
  const said = headlineFigures(a);
  const hand = sizeByHand(data);
  expect(near(said.n, hand.n, ROUNDING), `N ${said.n} vs ${hand.n}`).toBe(true);
  expect(near(said.d, hand.d, ROUNDING), `D ${said.d} vs ${hand.d}`).toBe(true);
  expect(near(said.c, hand.c, ROUNDING), `C ${said.c} vs ${hand.c}`).toBe(true);
  // C = 6·N·D and D = 20·N of the headline's own figures, each rounded once.
  expect(near(said.c, SIX * said.n * said.d, 3 * ROUNDING)).toBe(true);
  expect(near(said.d, CHINCHILLA * said.n, 2 * ROUNDING)).toBe(true);
  // Converged: the model planned is the size said, and the tokens its plan buys are the 20·N said, within the 3% the
  // iteration stops at.
  expect(near(data.configuration.estimate.parameters, hand.n, 0.03)).toBe(true);
  expect(near(data.tokens, hand.d, 0.03)).toBe(true);
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
