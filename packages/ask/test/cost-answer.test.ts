import type { NodesResponseJson, SearchResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { compactCount, formatDays, nodesGpus } from '../src/format.ts';
import { parse } from '../src/parse.ts';

const costFigure = (a: ReturnType<typeof ask>) => a.figures.find((f) => f.label === 'Cost')?.value;
/** "$1.14M": a cost the protocol returned, as chat writes it. */
const dollars = (cost: number | undefined): string => `$${compactCount(cost ?? Number.NaN)}`;

describe('answers with GPU-hours give their cost at a stated price', () => {
  it('how long: the cost is the plan\'s GPU-hours × the price, as runNodes\'s own cost', () => {
    const a = ask('how long to train gpt3-175b on 128 A100 nodes at $1.50 per GPU hour');
    const data = a.data as Extract<NodesResponseJson, { ok: true }>;
    expect(data.cost).toBeCloseTo(data.gpuHours * 1.5, 6);
    expect(a.headline).toMatch(/^GPT-3 175B on A100 SXM4 80GB: [\d.]+ days to train 300B tokens on 128 nodes \(1,024 GPUs\) for \$\d+k$/);
    expect(a.headline.endsWith(` for ${dollars(data.cost)}`)).toBe(true);
    expect(costFigure(a)).toBe(`${dollars(data.cost)}: ${compactCount(data.gpuHours)} GPU-hours at $1.50/GPU-hour`);
  });

  it('how many nodes: the headline and the figure carry the cost, in the currency given', () => {
    const a = ask('how many nodes to train llama3-8b on 1T tokens in 14 days at €1.8/GPU-h');
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(/ in [\d.]+ days for €[\d.]+k \(deadline 14 days\)$/);
    const cost = (a.data as Extract<NodesResponseJson, { ok: true }>).cost ?? Number.NaN;
    expect(a.headline.endsWith(` for €${compactCount(cost)} (deadline 14 days)`)).toBe(true);
    expect(costFigure(a)?.startsWith(`€${compactCount(cost)}: `)).toBe(true);
    expect(costFigure(a)).toMatch(/^€[\d.]+k: [\d.]+k GPU-hours at €1\.80\/GPU-hour$/);
  });

  it('best config with tokens: runSearch is given the price, and its best plan\'s cost is the figure\'s', () => {
    const a = ask('best config for 70b on 64 nodes with 2T tokens at $2/GPU-hour', { candidateBudget: 20_000 });
    const best = (a.data as Extract<SearchResponseJson, { ok: true }>).best;
    expect(best.cost).toBeCloseTo(best.gpuHours! * 2, 6);
    expect(a.headline).toMatch(/ days for 2\.00T tokens, \$[\d.]+M\)$/);
    expect(a.headline.endsWith(`, ${dollars(best.cost)})`)).toBe(true);
    expect(costFigure(a)).toBe(`${dollars(best.cost)}: ${compactCount(best.gpuHours ?? Number.NaN)} GPU-hours at $2/GPU-hour`);
  });

  it('a stated layout (runEstimate) gives the cost of its time to train', () => {
    const a = ask('how long for gpt3-175b on 64 H100 with tp 8 pp 8 at $4/gpu-hour');
    expect(a.headline).toMatch(/ on 8 nodes \(64 GPUs\) for \$\d+k$/);
    expect(costFigure(a)).toMatch(/ at \$4\/GPU-hour$/);
  });

  it('a price with no currency is said to be in the currency given; no price, no cost', () => {
    expect(costFigure(ask('how long to train gpt3-175b on 128 nodes at 2 per GPU-hour'))).toMatch(/^\d+k \(in the currency given\): /);
    expect(costFigure(ask('how long to train gpt3-175b on 128 nodes'))).toBeUndefined();
  });

  it.each([
    ['how long and how much to train 13b on 1T tokens on 32 nodes at $3/gpu-hour', 'time', 32],
    ['what would it cost to train llama 3 8b on 15T tokens on 8 nodes at $2.50/hr per GPU', 'time', 8],
    ['how much to train 70b on 2T tokens at $2/gpu-hour', 'cheapest', undefined],
    ['how much hardware to train 70b in 30 days', 'nodes', undefined],
  ])('"%s" is a %s question on the nodes stated (%s)', (question, intent, nodes) => {
    const q = parse(question);
    expect(q.intent).toBe(intent);
    expect(q.parameters.nodes).toBe(nodes);
  });

  it('"how much would it cost" on a stated cluster is its time to train, never a default deadline\'s nodes', () => {
    const q = parse('how much would it cost to train llama3-70b on 2T tokens on 128 H100 nodes at $2/gpu-hour');
    expect(q.intent).toBe('time');
    expect(q.defaults.map((d) => d.field)).not.toContain('deadlineSeconds');
  });
});

describe('a budget in money, at a price', () => {
  it('is runNodes\'s budget: the fastest plan it affords, within it, the smallest cluster that fits beside it', () => {
    const a = ask('how many nodes for 70b on 2T tokens with a $2M budget at $2/gpu-hour');
    const data = a.data as Extract<NodesResponseJson, { ok: true }>;
    expect(data.mode).toBe('fastest-within-budget');
    expect(data.cost).toBeLessThanOrEqual(2e6);
    expect(a.headline).toMatch(/ for \$[\d.]+M \(budget \$2M\)$/);
    expect(a.headline.endsWith(` for ${dollars(data.cost)} (budget $2M)`)).toBe(true);
    // The plan's own warnings (a planner's caveat) may come first: the search's note is found by what it says.
    const affords = a.notes.find((n) => n.startsWith('The fastest plan the budget affords'));
    expect(affords?.endsWith(` GPU-hours (${dollars(data.smallest?.cost)}).`)).toBe(true);
    expect(a.notes.at(-1)).toMatch(/^\$1\.\d\dM, within the \$2M budget \(\$\d+k left\)\.$/);
    expect(affords).toMatch(/^The fastest plan the budget affords \([\d,]+ cluster sizes searched\); the smallest cluster that fits: [\d,]+ nodes? \([\d,]+ GPUs\): [\d.,]+ days(?: \([\d.]+ years\))? for [\d.]+k GPU-hours \(\$[\d.]+M\)\.$/);
  });

  it('a GPU-hour budget alone says the same, never "meets the deadline" (there is none)', () => {
    const a = ask('how many h100 nodes to train llama 3 8b on 1.7M gpu hours');
    expect(a.notes.some((n) => /^The fastest plan the budget affords /.test(n))).toBe(true);
    expect(a.notes.join(' ')).not.toContain('meets the deadline');
  });

  it('a cheapest question with one is said against the cheapest', () => {
    expect(ask('cheapest way to train 70b on 2T tokens under $1M at $2/gpu-hour').notes.at(-1)).toMatch(/^Even the cheapest: \$1\.\d\dM, \d+(?:\.\d)?% over the \$1M budget\.$/);
  });
});

describe('cheapest: the time–cost frontier\'s cheapest size', () => {
  it.each([
    ['cheapest way to train 70B on 2T tokens at $2/GPU-hour'],
    ['what\'s the most cost-effective cluster for llama3-70b on 15T tokens'],
    ['lowest cost to train gpt3-175b on H100'],
    ['how much does it cost to train a 7b model on 1T tokens at $2/gpu-hour'],
  ])('"%s" is a cheapest question, with no deadline assumed', (question) => {
    const q = parse(question);
    expect(q.intent).toBe('cheapest');
    expect(q.parameters.deadlineSeconds).toBeUndefined();
  });

  const a = ask('cheapest way to train 70B on 2T tokens at $2/GPU-hour');
  const data = a.data as Extract<NodesResponseJson, { ok: true }>;

  it('answers runNodes\'s frontier mode: the fewest GPU-hours of every size searched, costed', () => {
    expect(data.mode).toBe('cost-time-frontier');
    expect(data.gpuHours).toBe(Math.min(...data.frontier!.map((p) => p.gpuHours)));
    expect(data.cost).toBeCloseTo(data.gpuHours * 2, 6);
    // The cheapest size, then (past a year, frontier-notes.ts overAYear) a faster one after "; ".
    const [cheapest] = a.headline.split('; ');
    expect(cheapest).toMatch(/^Cheapest for Llama 3 70B \(2\.00T tokens\) on H100 SXM5 80GB: [\d,]+ nodes \([\d,]+ GPUs\), [\d.,]+ days?(?: \((?:[\d.]+ years|over a year)\))?, [\d.]+k GPU-hours \(\$[\d.]+M\)$/);
    expect(cheapest?.endsWith(`GPU-hours (${dollars(data.cost)})`)).toBe(true);
    expect(costFigure(a)?.startsWith(`${dollars(data.cost)}: `)).toBe(true);
    expect(a.figures.map((f) => f.label)).toEqual(['Step time', 'MFU', 'Memory per GPU', 'Throughput', 'Time to train', 'Cost']);
  });

  it('notes the trade-off at Pareto sizes: under 90 and 30 days, and the fastest, each with its extra GPU-hours', () => {
    const faster = a.notes.filter((n) => /^(?:Faster: |The fastest, )/.test(n));
    expect(faster.length).toBeGreaterThanOrEqual(2);
    expect(faster.length).toBeLessThanOrEqual(3);
    // Under a day in hours: each size at its own batch, the fastest trains 2T tokens in 12 hours, as the CLI's nodes --frontier says.
    expect(faster.at(-1)).toMatch(/^The fastest, [\d,]+ nodes \([\d,]+ GPUs\): [\d.]+ (?:days?|hours) for [\d.]+[kM] GPU-hours \(\$[\d.]+M, \+\d+%\)\.$/);
    expect(faster.at(-1)).toContain(`GPU-hours (${dollars(data.fastest?.cost)}, +`);
    const shownDays = faster.map((n) => Number(/: ([\d.]+) day/.exec(n)?.[1]));
    expect(shownDays[0]).toBeLessThanOrEqual(90);
    expect(shownDays.some((d) => d <= 30)).toBe(true);
  });

  it('notes runNodes\'s larger-batch hint for the fastest size, when twice the batch trains it materially faster', () => {
    const hint = data.largerBatch;
    if (!hint) throw new Error('expected a larger-batch hint at the fastest size');
    expect(hint.nodes).toBe(data.fastest!.nodes);
    // After the trade-off it qualifies, before how to ask for a deadline.
    expect(a.notes.indexOf(hint.message)).toBe(a.notes.findIndex((n) => n.startsWith('The fastest, ')) + 1);
    expect(a.notes.at(-1)).toMatch(/^Give a deadline/);
  });

  it('with a deadline, answers the cheapest size that meets it: of the curve above within 60 days, or the fewest nodes that meet it', () => {
    const d = ask('cheapest way to train 70B on 2T tokens in 60 days at $2/GPU-hour');
    const got = d.data as Extract<NodesResponseJson, { ok: true }>;
    const fewest = ask('how many nodes to train 70B on 2T tokens in 60 days at $2/GPU-hour').data as Extract<NodesResponseJson, { ok: true }>;
    expect(got.days).toBeLessThanOrEqual(60);
    expect(got.gpuHours).toBe(Math.min(fewest.gpuHours, ...data.frontier!.filter((p) => p.days <= 60).map((p) => p.gpuHours)));
    expect(d.headline).toMatch(/^Cheapest for Llama 3 70B on H100 SXM5 80GB: \d+ nodes .* for \$[\d.]+M \(deadline 60 days\)$/);
    expect(d.notes.some((n) => n.startsWith('The fewest GPU-hours of the '))).toBe(true);
  }, 120_000);

  it('a GPU-hour budget without a deadline is said against the cheapest', () => {
    const b = ask('cheapest way to train llama3-8b on 1T tokens with a budget of 10k GPU-hours');
    expect((b.data as Extract<NodesResponseJson, { ok: true }>).mode).toBe('cost-time-frontier');
    expect(b.notes.at(-1)).toMatch(/^Even the cheapest: [\d.]+k GPU-hours, \d+% over the 10k GPU-hour budget\.$/);
  });
});

describe('a price with its currency after the number is costed like any other', () => {
  it('"cost to train llama3 70b on 2T tokens at 2.5 $/gpu-hour on h100": the cheapest plan costed at 2.5, no price asked for', () => {
    const a = ask('cost to train llama3 70b on 2T tokens at 2.5 $/gpu-hour on h100');
    const data = a.data as Extract<NodesResponseJson, { ok: true }>;
    expect(data.cost).toBeCloseTo(data.gpuHours * 2.5, 6);
    expect(a.headline.split('; ')[0]?.endsWith(`GPU-hours (${dollars(data.cost)})`)).toBe(true);
    expect(costFigure(a)).toBe(`${dollars(data.cost)}: ${compactCount(data.gpuHours)} GPU-hours at $2.50/GPU-hour`);
    expect(a.notes.join(' ')).not.toContain('Give a price');
  });

  it('"how many nodes for 175B in 30 days on 300B tokens at 2 $ per gpu hour": the plan\'s GPU-hours × 2', () => {
    const a = ask('how many nodes for 175B in 30 days on 300B tokens at 2 $ per gpu hour');
    const data = a.data as Extract<NodesResponseJson, { ok: true }>;
    expect(data.cost).toBeCloseTo(data.gpuHours * 2, 6);
    expect(costFigure(a)).toBe(`${dollars(data.cost)}: ${compactCount(data.gpuHours)} GPU-hours at $2/GPU-hour`);
  });
});

describe('two wordings of one cost question are one intent: the cheapest plan', () => {
  const wordings = [
    'cost of llama3-70b on 2T tokens on h100 at 2 usd per gpu hour',
    'cost to train llama3 70b on 2T tokens at $2/GPU-hour',
    'training cost of llama3-70b on 2T tokens at $2/GPU-hour',
  ];
  it.each(wordings)('"%s" is a cheapest question, no default cluster assumed', (question) => {
    const q = parse(question);
    expect(q.intent).toBe('cheapest');
    expect(q.parameters.nodes).toBeUndefined();
  });

  it('and gets the same answer', () => {
    const [a, b] = wordings.slice(0, 2).map((w) => ask(w, { publicUrl: null }));
    expect(a?.headline).toBe(b?.headline);
  });

  it('a cheapest plan over a year says a faster size of the curve in its headline: more nodes, fewer days, within a quarter', () => {
    const a = ask('cost to train llama3 70b on 2T tokens at $2/GPU-hour', { publicUrl: null });
    const data = a.data as Extract<NodesResponseJson, { ok: true }>;
    expect(data.days).toBeGreaterThan(365);
    const faster = /; faster: ([\d,]+) nodes \([\d,]+ GPUs\) train it in ([\d.]+) days for [\d.]+k GPU-hours \((\$[\d.]+M), \+[\d.]+%\)$/.exec(a.headline);
    expect(faster).not.toBeNull();
    const nodes = Number(faster?.[1]?.replace(/,/g, ''));
    const size = data.frontier?.find((p) => p.nodes === nodes);
    expect(size?.pareto).toBe(true);
    expect(nodes).toBeGreaterThan(data.nodes);
    expect(Number(faster?.[2])).toBeLessThanOrEqual(90);
    expect(faster?.[3]).toBe(dollars(size?.cost));
  });

  it('"cheapest way to train llama3-70b on 2T tokens at $2/GPU-hour": "over a year" is said of the cheapest\'s days, not of the faster size after it', () => {
    const a = ask('cheapest way to train llama3-70b on 2T tokens at $2/GPU-hour', { publicUrl: null });
    const data = a.data as Extract<NodesResponseJson, { ok: true }>;
    // Between one year and two: formatDays says no years of its own, so the headline says "over a year" beside the days.
    expect(data.days).toBeGreaterThan(365);
    expect(data.days).toBeLessThan(730);
    const cheapest = `: ${nodesGpus(data)}, ${formatDays(data.days)} (over a year), ${compactCount(data.gpuHours)} GPU-hours (${dollars(data.cost)}); faster: `;
    expect(a.headline).toContain(cheapest);
    // Said once, of the cheapest: the faster size's clause carries its own days alone.
    expect(a.headline.match(/over a year/g)).toHaveLength(1);
    expect(a.headline).not.toMatch(/; over a year: /);
  });
});

describe('a price asked in other words, with none given', () => {
  it.each([
    ["what's the price of training llama3-8b on 1T tokens on 64 H100"],
    ['how much is a run of llama3-8b on 1T tokens on 64 H100'],
    ['budget for llama3-8b on 1T tokens on 64 H100'],
  ])('%s: asks for a price, as "cost to …" does', (question) => {
    const a = ask(question, { publicUrl: null });
    expect(a.notes.some((n) => n.startsWith('No price given'))).toBe(true);
  });
});

describe('money the asker has, with a price, is the budget planned against', () => {
  it('"I have $10M and H100s at $2/hour": the fastest plan $10M affords at $2 a GPU-hour, nothing left unread', () => {
    const a = ask('I have $10M and H100s at $2/hour, how big a model / how many nodes for llama3-70b on 15T tokens', { publicUrl: null });
    const data = a.data as Extract<NodesResponseJson, { ok: true }>;
    expect(data.mode).toBe('fastest-within-budget');
    // At most $10M: the plan's GPU-hours × $2.
    expect(data.cost).toBeCloseTo(data.gpuHours * 2, 6);
    expect(data.cost ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(10_000_000);
    expect(a.headline).toMatch(/ for \$[\d.]+M \(budget \$10M\)$/);
    expect(a.notes.filter((n) => n.startsWith('Not read'))).toEqual([]);
  });
});
