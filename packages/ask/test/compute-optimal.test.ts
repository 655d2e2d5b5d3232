import type { NodesResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { CHINCHILLA, countOf, HOUR, near, ROUNDING, SIX } from './support/compute-optimal.ts';
import { ask } from '../src/answer/answer.ts';
import type { Answer } from '../src/answer/answer-types.ts';
import { computeOptimalSize } from '../src/answer/chinchilla-size.ts';
import { cheapestOnLadder, groupUnit, nextLadderSize, replicaUnit, type LadderPoint, type SizeTried } from '../src/answer/cluster-ladder.ts';
import { answerComputeOptimal, LLAMA3_STYLE, withArticle } from '../src/answer/compute-optimal.ts';
import { presetsNear } from '../src/answer/presets-near-size.ts';
import { answerNodesOrTime } from '../src/answer/search-answer.ts';
import { answerTokensBought } from '../src/answer/tokens-bought.ts';
import { answerTokensBoughtOnLadder, type TokensBought } from '../src/answer/tokens-bought-ladder.ts';
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

/** GPUs a node of the synthetic curves below (a DGX H100's). */
const PER_NODE = 8;

/**
 * A synthetic time–cost curve for the ladder: each size's GPU-hours from `gpuHoursAt` (undefined: nothing runs there), its
 * time those GPU-hours over its GPUs, and the replica its plan takes; `asked` the sizes the ladder planned, in order.
 */
function curveOf(gpuHoursAt: (nodes: number) => number | undefined, replicaGpusAt: (nodes: number) => number = () => PER_NODE) {
  const asked: number[] = [];
  const at = (nodes: number): SizeTried<LadderPoint> => {
    asked.push(nodes);
    const gpuHours = gpuHoursAt(nodes);
    if (gpuHours === undefined) return {};
    const gpus = PER_NODE * nodes;
    return { point: { nodes, gpus, gpuHours, seconds: (gpuHours / gpus) * HOUR, replicaGpus: replicaGpusAt(nodes), groupGpus: PER_NODE } };
  };
  return { at, asked };
}

/** The whole numbers from `low` to `high`. */
const range = (low: number, high: number): number[] => Array.from({ length: high - low + 1 }, (_, i) => low + i);

describe('the cheap end of the time–cost curve on a ladder of sizes (cluster-ladder.ts)', () => {
  it('the ladder: every size to 16 nodes, then eight a doubling (sizes of at most four significant bits)', () => {
    expect([1, 7, 15, 16, 17, 18, 31, 32, 100, 1000, 1024].map(nextLadderSize)).toEqual([2, 8, 16, 18, 18, 20, 32, 36, 104, 1024, 1152]);
  });

  it('a replica of TP 8 · PP 13 (104 GPUs) is whole on multiples of 13 nodes of 8 GPUs, one of 72 on 9, one of 4 on every size', () => {
    const point = (replicaGpus: number, groupGpus = PER_NODE): LadderPoint => ({ nodes: 26, gpus: 26 * PER_NODE, seconds: 1, gpuHours: 1, replicaGpus, groupGpus });
    expect([104, 72, 4].map((gpus) => replicaUnit(point(gpus)))).toEqual([13, 9, 1]);
    // Tensor × context groups of TP 4 · CP 8 span 4 nodes; TP 8 one.
    expect([groupUnit(point(PER_NODE, 32)), groupUnit(point(PER_NODE, 8))]).toEqual([4, 1]);
  });

  it('GPU-hours rising with the nodes: the floor is the cheapest, planned with every size up to 16 past it and none below', () => {
    const curve = curveOf((n) => 1000 + n);
    const found = cheapestOnLadder(curve.at, 7.2);
    expect(found.cheapest?.nodes).toBe(8);
    // The ladder's 9 … 16, 18 … 24 (to 16 past the floor), then the window's 17 … 23 beside the cheapest, each once.
    expect([...curve.asked].sort((a, b) => a - b)).toEqual(range(8, 24));
    expect(found.searches).toBe(curve.asked.length);
  });

  it('a size between the ladder\'s steps that is cheaper (19 nodes, between 18 and 20) is found beside the cheapest', () => {
    const curve = curveOf((n) => (n === 19 ? 900 : 1000 + n));
    expect(cheapestOnLadder(curve.at, 8).cheapest?.nodes).toBe(19);
  });

  it('a cheaper replica family off the ladder: the first multiple of its 26 nodes past the floor, from the 416 the ladder found', () => {
    // Sizes of 26-node replicas (TP 8 · PP 26) train for 10% fewer GPU-hours; every family costs more with more nodes.
    const family = (n: number): boolean => n % 26 === 0;
    const curve = curveOf((n) => (family(n) ? 900 : 1000) + n / 100, (n) => (family(n) ? 26 * PER_NODE : PER_NODE));
    const found = cheapestOnLadder(curve.at, 238);
    // 416 = 16 × 26 is on the ladder (384 + 32); 260 = 10 × 26, the first multiple from 238, is neither on it nor within
    // 16 nodes of a size that is (256 and 288 are not of the family).
    expect(curve.asked).toContain(416);
    expect(found.cheapest?.nodes).toBe(260);
    expect(Math.min(...curve.asked)).toBe(238);
  });

  it('a model that fits from 40 nodes: the planner\'s nearest size that runs is taken at once, no size between planned', () => {
    const curve = curveOf((n) => (n < 40 ? undefined : 1000 + n));
    const at = (n: number): SizeTried<LadderPoint> => (n < 40 ? (curve.asked.push(n), { nearest: 40 }) : curve.at(n));
    expect(cheapestOnLadder(at, 8).cheapest?.nodes).toBe(40);
    expect(curve.asked.filter((n) => n < 40)).toEqual([8]);
  });

  it('nothing runs at any size: one size planned, no cheapest; a floor past the largest size plans none', () => {
    const none = curveOf(() => undefined);
    const found = cheapestOnLadder(none.at, 8);
    expect(found.cheapest).toBeUndefined();
    expect(none.asked).toEqual([8]);
    expect(cheapestOnLadder(curveOf((n) => n).at, 9000).searches).toBe(0);
  });
});

/**
 * The ladder against the whole time–cost curve, the exhaustive path (tokens-bought.ts): every size the loop plans, bought
 * both ways on the same question, must be bought identically (the size of cluster, the tokens, the days and the
 * GPU-hours). The loop's first size comes from the budget alone, and each next from the one before's plan, so where every
 * size is bought the same the curve's loop plans the same sizes and ends on the same plan: the headline's model, tokens,
 * nodes and days are the curve's exactly. Budgets from $100k to $50M, in money and GPU-hours, on A100, H100, H200 and
 * B200; the presets' rows beside them are notes, planned on the same nodes. About 5 s a question: the curve's searches.
 */
describe('the ladder buys what the whole time–cost curve buys (tokens-bought-ladder.ts against tokens-bought.ts)', () => {
  it.each([
    'what can I train for $100k on A100 at $1.5/GPU-hour',
    'what can I train for $5M on A100 at $1.5/GPU-hour',
    'what can I train for $20M on A100 at $1.2/GPU-hour',
    "what's the biggest model I can train with 10M H100 GPU-hours",
    'what can I train for $50M on H100 at $2/GPU-hour',
    "what's the biggest model I can train with 300k H200 GPU-hours",
    'what can I train for $3M on H200 at $2.5/GPU-hour',
    "what's the biggest model I can train with 2M B200 GPU-hours",
    'what can I train for $10M on B200 at $4/GPU-hour',
    'what can I train for $50M on B200 at $3/GPU-hour',
  ])('%s', (question) => {
    const bought: { ladder: Answer; curve: Answer }[] = [];
    const both: TokensBought = (x, answerOn) => {
      const ladder = answerTokensBoughtOnLadder(x, answerOn);
      if (x.stated.customModel !== undefined) bought.push({ ladder, curve: answerTokensBought(x, answerOn) });
      return ladder;
    };
    const a = answerComputeOptimal(parse(question), (x) => answerNodesOrTime(x, OPTIONS, null), both);
    expect(a.kind, a.headline).toBe('answer');
    expect(bought.length).toBeGreaterThan(0);
    const said = (b: Answer): Partial<NodesOk> => {
      const d = b.data as NodesOk;
      return { ok: d.ok, nodes: d.nodes, tokens: d.tokens, days: d.days, gpuHours: d.gpuHours };
    };
    for (const { ladder, curve } of bought) expect(said(ladder)).toEqual(said(curve));
    // The answer is the last size's plan.
    expect(said(a)).toEqual(said(bought[bought.length - 1]!.curve));
  }, 60_000);
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

  it('the size chosen of those that spend the budget within a year: from 8 nodes (500k GPU-hours over 8,760 hours is 57 GPUs)', () => {
    const a = answered();
    const data = a.data as NodesOk;
    expect(data.nodes).toBeGreaterThanOrEqual(8);
    expect(500_000 / data.gpus / 24).toBeLessThanOrEqual(365);
    expect(a.notes.some((n) => /^The size that trains the most tokens spending the budget within a year: the fewest GPU-hours a token of \d+ cluster sizes searched from 8 nodes \(fewer take over a year to spend it\)/.test(n))).toBe(true);
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
