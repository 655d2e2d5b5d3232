import { CONTRACT_EXAMPLE, daysText, runEstimate, runNodes, type EstimateJson, type EstimateOk, type NodesResponseJson, type ScenarioInput } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { frontierSection, headline, largestPart, nodesSection, outOfMemoryMessage, searchedNodesSection } from '../src/element/results.ts';
import { FRONTIER_REQUEST, frontierAnswer } from './support/frontier-answer.ts';
import { frontierSentence } from '../src/sizing/frontier-sentence.ts';
import { STYLES } from '../src/element/styles.ts';

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));

describe('the searched "how many nodes" answer', () => {
  const message = 'no cluster of up to 8,192 nodes meets the deadline: the fastest found takes 366.3 days on 512 nodes';

  it('says a failure once, even when the closest point repeats the message (runNodes gives it as its why)', () => {
    const n = { ok: false, reason: 'deadline-unreachable', message, searches: 3, closest: { why: message, nodes: 512, gpus: 4096 } } as unknown as NodesResponseJson;
    const shown = text(searchedNodesSection(n));
    expect(shown.split(message)).toHaveLength(2);
    expect(shown).toBe(`Best plan found: none; ${message}.`);
  });

  it('adds a closest point that says something else as its own sentence', () => {
    const why = 'nothing runs on 1 node (8 GPUs); the nearest size that runs is larger: 6 nodes (48 GPUs)';
    const n = { ok: false, reason: 'does-not-fit', message: 'no configuration of 1 node runs this model and batch', searches: 2, closest: { why } } as unknown as NodesResponseJson;
    expect(text(searchedNodesSection(n))).toBe(`Best plan found: none; no configuration of 1 node runs this model and batch. Closest: ${why}.`);
  });

  it('on GB200 NVL72 names the racks (NVLink domains) the GPUs fill beside the trays (nodes)', () => {
    const n = runNodes({ model: 'llama3-70b', cluster: { gpu: 'gb200' }, training: { globalBatchSize: 512 }, tokens: 1e12, nodes: 20 });
    if (!n.ok) throw new Error(n.message);
    expect(text(searchedNodesSection(n))).toMatch(/^Best plan found: 20 nodes \(80 GPUs in 2 NVLink domains of 72 GPUs, the last holding 8\) with TP /);
  });
});

describe('the time–cost curve section', () => {
  it('draws the chart with its sentence for a frontier answer (GPT-3 175B, 300B tokens on A100 80GB)', () => {
    const n = frontierAnswer();
    const html = frontierSection(n, 128);
    expect(html).toContain('<svg class="chart frontier"');
    expect(text(html)).toContain(frontierSentence(n, 128));
    // The chart's point labels are bare grouped numbers ("1,536"): the caption says they are node counts, not a batch (QA).
    expect(text(html)).toContain('labels: node counts');
    // The cheapest is the size of fewest GPU-hours; the scenario's 128 nodes come next, before the fastest.
    const cheapest = n.frontier!.reduce((a, b) => (b.gpuHours < a.gpuHours ? b : a));
    expect(text(html)).toMatch(new RegExp(`Cheapest: ${cheapest.nodes.toLocaleString('en-US')} nodes, [\\d.]+ days, [\\d.]+ [kM] GPU-hours; 128 nodes: [\\d.]+ days for \\+\\d+%; fastest: `));
    // The fastest size at twice the batch, under the curve.
    if (!n.ok || !n.largerBatch) throw new Error('expected a larger-batch hint for the fastest size');
    expect(html).toContain('data-larger-batch="3072"');
    expect(text(html)).toContain(n.largerBatch.message);
  });

  it('says in its caption what each ring is: the cheapest\'s solid, the fastest\'s dotted, the scenario\'s own outline (QA: the dotted ring went unexplained)', () => {
    const html = frontierSection(frontierAnswer(), 128);
    // The three marks the chart draws, and the one of them styled dotted (styles.ts).
    for (const mark of ['class="mark cheapest"', 'class="mark fastest"', 'class="dot current"']) expect(html).toContain(mark);
    expect(STYLES).toMatch(/\.mark\.fastest\{stroke-dasharray:/);
    expect(STYLES).not.toMatch(/\.mark\.cheapest\{/);
    const caption = text(html.match(/<p class="caption">Line:[^<]*<\/p>/)![0]);
    expect(caption).toMatch(/ringed: the cheapest and, dotted, the fastest; outlined: your node count;/);
  });

  it('says every size is at the form\'s global batch, which the request sends (QA: the bot, sizing a batch to each cluster, named another fastest)', () => {
    const n = frontierAnswer();
    // FRONTIER_REQUEST's batch, 1,536 sequences, at every size searched.
    expect(new Set(n.frontier!.map((s) => s.globalBatchSize))).toEqual(new Set([1536]));
    expect(text(frontierSection(n, 128))).toContain('Each size at your batch, 1,536 sequences.');
    // Sizes at their own batches (as the API answers a request without one) are not said to share one.
    const own = { ...n, frontier: n.frontier!.map((s, i) => ({ ...s, globalBatchSize: 512 * (i + 1) })) };
    expect(text(frontierSection(own, 128))).not.toContain('Each size at');
  });

  it("says runNodes's reason when there is no curve", () => {
    const n = runNodes({ ...FRONTIER_REQUEST, tokens: 1000 });
    if (n.ok) throw new Error('expected a refusal: fewer tokens than one step');
    const html = frontierSection(n, 128);
    expect(html).not.toContain('<svg');
    expect(html).toContain('data-frontier="invalid"');
    expect(text(html)).toContain(`Time–cost curve: ${n.message}`);
  });
});

describe('the searched answer when the batch holds the plan back', () => {
  it("adds runNodes's larger-batch hint under the answer (GPT-3 175B in 2 days on H100 at 2048 sequences)", () => {
    const n = runNodes({ model: 'gpt3-175b', cluster: { gpu: 'h100-sxm' }, training: { globalBatchSize: 2048 }, tokens: 300e9, days: 2 });
    if (!n.ok || !n.largerBatch) throw new Error('expected an answer with a larger-batch hint');
    const html = searchedNodesSection(n);
    expect(html).toContain('data-larger-batch="4096"');
    expect(text(html)).toContain(n.largerBatch.message);
  });

  it('adds nothing when there is no hint', () => {
    const n = { ok: true, nodes: 2, gpus: 16, days: 3, gpuHours: 72, configuration: { label: 'TP 1 · PP 1 · DP 16' } } as unknown as NodesResponseJson;
    expect(searchedNodesSection(n)).not.toContain('data-larger-batch');
  });
});

describe('the "how many nodes" answer counts in words', () => {
  const budget = { tokens: 1e9, deadlineDays: 30 };

  it('says "1 node", not "1 nodes"', () => {
    expect(text(nodesSection({ kind: 'meets', nodes: 1, gpus: 8, days: 2, gpuHours: 384 }, budget))).toMatch(/^Your configuration: 1 node \(8 GPUs\) train/);
    expect(text(nodesSection({ kind: 'too-slow', fastestNodes: 1, fastestDays: 40 }, budget))).toContain('the fastest tried, 1 node, takes');
    expect(text(nodesSection({ kind: 'meets', nodes: 2, gpus: 16, days: 1, gpuHours: 384 }, budget))).toMatch(/^Your configuration: 2 nodes \(16 GPUs\)/);
  });

  it('groups the thousands of a deadline and of days to train: "36,500-day deadline", "takes 12,345.6 days", never "36500"', () => {
    const meets = { kind: 'meets', nodes: 1, gpus: 8, days: 2, gpuHours: 384 } as const;
    const long = { tokens: 1e9, deadlineDays: 36_500 };
    expect(text(nodesSection(meets, long))).toContain('within the 36,500-day deadline');
    expect(text(nodesSection({ kind: 'none', message: 'x' }, long))).toContain('tokens in 36,500 days');
    // Days to one decimal at any size, as the CLI's time to train (protocol's daysText).
    expect(text(nodesSection({ kind: 'too-slow', fastestNodes: 1, fastestDays: 12_345.6 }, budget))).toContain('takes 12,345.6 days');
    expect(text(nodesSection(meets, budget))).toContain('in 2.0 days, within the 30-day deadline');
  });

  it('says a deadline as it was typed: 30 is a "30-day deadline", not "30.0-day" (QA); 2.5 stays 2.5', () => {
    const meets = { kind: 'meets', nodes: 1, gpus: 8, days: 2, gpuHours: 384 } as const;
    expect(text(nodesSection(meets, { tokens: 1e9, deadlineDays: 30 }))).toContain('within the 30-day deadline');
    expect(text(nodesSection(meets, { tokens: 1e9, deadlineDays: 2.5 }))).toContain('within the 2.5-day deadline');
    expect(text(nodesSection({ kind: 'none', message: 'x' }, { tokens: 1e9, deadlineDays: 0.25 }))).toContain('tokens in 0.25 days');
  });

  it('and a searched answer on one GPU says "1 node (1 GPU)"', () => {
    const n = { ok: true, nodes: 1, gpus: 1, days: 3, gpuHours: 72, configuration: { label: 'TP 1 · PP 1 · DP 1' } } as unknown as NodesResponseJson;
    expect(text(searchedNodesSection(n))).toMatch(/^Best plan found: 1 node \(1 GPU\) with TP 1/);
  });
});

describe('the out-of-memory message beside the micro-batch', () => {
  const need = ' (needs 99.8 GiB of 80.0 GiB per GPU)';

  it('lists the levers it is given (memoryLevers checks each), the last after "or"', () => {
    expect(outOfMemoryMessage(need, ['more t'])).toBe('out of memory (needs 99.8 GiB of 80.0 GiB per GPU): try more t');
    expect(outOfMemoryMessage('', ['full recompute', 'more p', 'the distributed optimizer'])).toBe('out of memory: try full recompute, more p, or the distributed optimizer');
  });

  it('says so when no change the form offers lowers the peak', () => {
    expect(outOfMemoryMessage(need, [])).toBe(`out of memory${need}: no change here lowers it; try a GPU with more memory`);
  });

  it('names the largest part of the refused plan\'s memory', () => {
    expect(largestPart({ weightsBytes: 5e9, gradientsBytes: 10e9, optimizerBytes: 30e9, activationsBytes: 118 * 2 ** 30, otherBytes: 13e9, totalBytes: 0, capacityBytes: 0, fits: false }))
      .toBe('; activations 118 GiB');
  });
});

describe('the headline figures', () => {
  /** A headline figure as the reader sees it: its value and its label. */
  const figure = (html: string, name: string) => {
    const m = html.match(new RegExp(`<div data-stat="${name}"><b>([^<]*)</b><span>([^<]*)</span></div>`));
    if (!m) throw new Error(`no figure ${name}`);
    return { value: m[1]!, label: m[2]! };
  };
  const percent = (value: string) => Number(value.replace('%', ''));
  const estimate = (s: ScenarioInput) => {
    // One scenario, one estimate.
    const e = runEstimate(s) as EstimateJson;
    if (!e.ok) throw new Error(e.message);
    return e as EstimateOk;
  };

  it.each([
    // Published sizes: GPT-3 175B (Brown et al. 2020); Llama 3 8B and 70B, 8.03 B and 70.6 B (Meta's model cards).
    ['gpt3-175b', { tensor: 8, pipeline: 8 }, '175 B'],
    ['llama3-70b', { tensor: 8, pipeline: 8 }, '70.6 B'],
    ['llama3-8b', { tensor: 8, pipeline: 1 }, '8.03 B'],
  ] as const)('states %s\'s parameters with their unit ("%s" parameters)', (model, degrees, shown) => {
    const e = estimate({ model, cluster: { gpu: 'h100-sxm', nodes: 16 }, training: { globalBatchSize: 512 }, parallelism: { ...degrees, recompute: 'full' } });
    expect(figure(headline(e), 'parameters')).toEqual({ value: shown, label: 'parameters' });
  });

  it('puts HFU beside MFU, above it by the recomputed forwards: HFU / MFU is the hardware over the model FLOPs, at most 4/3 with full recompute', () => {
    const e = estimate(CONTRACT_EXAMPLE);
    const html = headline(e);
    const mfu = percent(figure(html, 'mfu').value);
    const hfu = percent(figure(html, 'hfu').value);
    expect(figure(html, 'hfu').label).toMatch(/^HFU/);
    // Full recompute runs every forward a second time: 3 passes' FLOPs become up to 4.
    expect(hfu).toBeGreaterThan(mfu);
    expect(hfu / mfu).toBeLessThanOrEqual(4 / 3 + 0.01);
    // Each shown to 0.1 points: the ratio of the shown figures is within that rounding of the FLOPs' ratio.
    expect(Math.abs(hfu / mfu - e.hardwareFlopsPerStep / e.modelFlopsPerStep)).toBeLessThan(0.1 / mfu + 0.1 / hfu);
    // HFU comes right after MFU.
    const order = [...html.matchAll(/data-stat="(\w+)"/g)].map((m) => m[1]);
    expect(order.indexOf('hfu')).toBe(order.indexOf('mfu') + 1);
  });

  it('says an FP8 plan\'s MFU is of the FP8 peak, its value mfu as the estimate gives it; a BF16 plan\'s is plain MFU', () => {
    const plan = (precision: 'bf16' | 'fp8') => estimate({
      model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 8 }, training: { globalBatchSize: 128, precision },
      parallelism: { tensor: 8, pipeline: 4, sequenceParallel: true, recompute: 'selective', distributedOptimizer: true },
    });
    const fp8 = plan('fp8');
    expect(figure(headline(fp8), 'mfu')).toEqual({ value: `${(fp8.mfu * 100).toFixed(1)}%`, label: 'MFU (of the FP8 peak)' });
    expect(figure(headline(plan('bf16')), 'mfu').label).toBe('MFU');
  });

  it('shows HFU equal to MFU without recompute (nothing is computed twice)', () => {
    const html = headline(estimate({ ...CONTRACT_EXAMPLE, parallelism: { ...CONTRACT_EXAMPLE.parallelism, recompute: 'none' }, cluster: { ...CONTRACT_EXAMPLE.cluster, gpu: 'h200' } }));
    expect(figure(html, 'hfu').value).toBe(figure(html, 'mfu').value);
  });

  // From 1 s to 10 years, as units' formatDuration says them: hours under a day, whole minutes under an hour, seconds
  // under a minute. QA: a plan of 0.990 days read "0.990 days" here where the CLI said "23.8 hours".
  it.each([
    [1, '1.00 s'], [90, '2 minutes'], [1800, '30 minutes'], [3600, '1.0 hours'], [0.99 * 86_400, '23.8 hours'],
    [86_400, '1.0 days'], [45 * 86_400, '45.0 days'], [3652.5 * 86_400, '3,652.5 days'],
  ])('says a time to train of %d s as the CLI\'s report does: "%s"', (seconds, said) => {
    const e = estimate(CONTRACT_EXAMPLE);
    const timeToTrain = { tokens: 300e9, seconds, days: seconds / 86_400, gpuHours: 1 };
    expect(figure(headline({ ...e, timeToTrain }), 'days')).toEqual({ value: said, label: 'to train 300 B tokens' });
    // The CLI's time to train (apps/cli estimate-report.ts timeToTrainLines) is protocol's daysText.
    expect(said).toBe(daysText(timeToTrain.days));
  });
});

describe('the two "how many nodes" answers with Auto', () => {
  const budget = { tokens: 300e9, deadlineDays: 30 };
  const searched = { ok: true, nodes: 96, gpus: 768, days: 29.1, gpuHours: 536_000, configuration: { label: 'TP 8 · PP 8 · DP 12' } } as unknown as NodesResponseJson;
  const paragraphs = (html: string) => [...html.matchAll(/<p data-(?:searched-)?answer="[^"]*">(.*?)<\/p>/g)].map((m) => text(m[1]!));

  it('label the searched one "Best plan found" and the one at the form\'s configuration "Your configuration", each once', () => {
    const html = searchedNodesSection(searched) + nodesSection({ kind: 'meets', nodes: 128, gpus: 1024, days: 20.5, gpuHours: 504_000 }, budget);
    const [best, yours, ...rest] = paragraphs(html);
    expect(rest).toEqual([]);
    expect(best).toMatch(/^Best plan found: 96 nodes \(768 GPUs\) with TP 8 · PP 8 · DP 12: /);
    expect(yours).toMatch(/^Your configuration: 128 nodes \(1,024 GPUs\) train /);
    expect(text(html).split('Best plan found')).toHaveLength(2);
    expect(text(html).split('Your configuration')).toHaveLength(2);
  });

  it.each([
    [{ kind: 'too-slow', fastestNodes: 1536, fastestDays: 40 } as const, /^Your configuration: not reachable; the fastest tried, 1,536 nodes, takes 40\.0 days\.$/],
    [{ kind: 'none', message: 'no node count runs this configuration' } as const, /^Your configuration: no node count trains 300 B tokens in 30 days: no node count runs this configuration\.$/],
  ])('label the answer at the form\'s configuration when it misses too (%o)', (answer, says) => {
    expect(paragraphs(nodesSection(answer, budget))[0]).toMatch(says);
  });
});
