import { describe, expect, it } from 'vitest';
import { runNodes } from '@trainplan/protocol';
import { flagDeadlineBatchFor, flagDefaultBatch } from '../../src/default-batch.ts';
import { main } from '../../src/main.ts';
import { machineFields, trainingFields } from '../../src/search-flags.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[]) {
  const io = fakeIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** The JSON answer and the assumed-batch line (stderr under --json). */
async function json(args: string[]) {
  const { code, out, err } = await cli([...args, '--json']);
  return { code, a: JSON.parse(out), err };
}

// Llama 3 8B on H100 for 1T tokens in a week: a few dozen sizes, each a search of a few ms.
const LLAMA = ['nodes', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--tokens', '1T'];
const DAYS = 7;

describe('trainplan nodes without --global-batch: one default batch policy for a deadline and for --nodes', () => {
  it('the fewest nodes answered meets the deadline as --nodes answers that size at its batch, and every smaller size checked misses it (or runs nothing) at both of its batches', async () => {
    const { code, a, err } = await json([...LLAMA, '--days', String(DAYS)]);
    expect(code).toBe(0);
    expect(a.mode).toBe('fewest-nodes');
    const batchOf = (x: { configuration: { scenario: { training: { globalBatchSize: number } } } }) => x.configuration.scenario.training.globalBatchSize;
    // Each size at the batch --nodes takes there, or at the multiple across its aim where that is faster (@trainplan/ask deadlineBatchFor).
    const batchFor = flagDeadlineBatchFor({ model: 'llama3-8b', gpu: 'h100-sxm' });
    expect([batchFor(a.nodes), batchFor.alternativeFor(a.nodes)]).toContain(batchOf(a));
    // The size answered, asked on its own at that batch: the same days, within the deadline.
    const own = await json([...LLAMA, '--nodes', String(a.nodes), '--global-batch', String(batchOf(a))]);
    expect(own.code).toBe(0);
    expect(own.a.days).toBe(a.days);
    expect(own.a.days).toBeLessThanOrEqual(DAYS);
    // The assumed line says how each size was planned, and names the answer's batch.
    expect(err).toContain(`trainplan: assumed (no --global-batch): each cluster size at the batch --nodes takes there, or the multiple across its aim where faster; on ${a.nodes} nodes: global batch ${batchOf(a)} sequences`);
    // Every smaller size the check counts, asked on its own at --nodes' batch and at the one across its aim: none meets
    // the deadline (the check's "misses" and "runs no plan" are true).
    expect(a.checked.complete).toBe(true);
    expect(a.checked.fromNodes).toBeLessThan(a.nodes);
    let noPlan = 0;
    for (let n = a.checked.fromNodes; n < a.nodes; n++) {
      const across = batchFor.alternativeFor(n);
      const sizes = [await json([...LLAMA, '--nodes', String(n)]), ...(across === undefined ? [] : [await json([...LLAMA, '--nodes', String(n), '--global-batch', String(across)])])];
      for (const size of sizes) if (size.a.ok) expect(size.a.days, `${n} nodes at ${batchOf(size.a)} sequences`).toBeGreaterThan(DAYS);
      if (sizes.every((size) => !size.a.ok)) noPlan += 1;
    }
    expect(noPlan).toBe(a.checked.noPlan);
  });

  it('Llama 3 8B, 15T tokens in 30 days (QA): a size is planned at the batch across its aim where that is faster, and the answer says so', async () => {
    // 112 nodes' own 560 sequences (9% over 512) take 30.8 days; 448 (12.5% under) take 27.5. 103 nodes' own 515 take 33.6
    // days; 412 (20% under) take 29.9. The answer was 115 nodes (460 sequences), every size below said to miss.
    const L8 = ['nodes', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--tokens', '15T'];
    const at = async (nodes: number, batch?: number) => (await json([...L8, '--nodes', String(nodes), ...(batch === undefined ? [] : ['--global-batch', String(batch)])])).a;
    const batchFor = flagDeadlineBatchFor({ model: 'llama3-8b', gpu: 'h100-sxm' });
    expect([batchFor(112), batchFor.alternativeFor(112)]).toEqual([560, 448]);
    expect((await at(112, 448)).days).toBeLessThan((await at(112, 560)).days);
    // --nodes 112 with no batch plans both and takes the faster, as the deadline does.
    expect((await at(112)).days).toBe((await at(112, 448)).days);
    const { code, a } = await json([...L8, '--days', '30']);
    expect(code).toBe(0);
    expect(a.nodes).toBeLessThan(112);
    const batch = a.configuration.scenario.training.globalBatchSize;
    // The batch stays within 25% under and 10% over the 512-sequence (4M-token) aim.
    expect(batch).toBeGreaterThanOrEqual(0.75 * 512);
    expect(batch).toBeLessThanOrEqual(1.1 * 512);
    expect((await at(a.nodes, batch)).days).toBe(a.days);
    const { out } = await cli([...L8, '--days', '30']);
    if (batch !== batchFor(a.nodes)) {
      expect(out).toContain(`faster on this size than the ${batchFor(a.nodes)} its own default rounds to`);
      expect(out).toContain(`--nodes ${a.nodes} --global-batch ${batch} plans that size alone at it`);
    }
  });

  it('--global-batch holds one batch at every size, as before: the assumed line is not printed and the answer is at that batch', async () => {
    const { a, err } = await json([...LLAMA, '--days', String(DAYS), '--global-batch', '512']);
    expect(a.configuration.scenario.training.globalBatchSize).toBe(512);
    expect(err).not.toContain('assumed');
  });
});

describe('trainplan nodes --days: the scan below the answer slides with each smaller size that meets the deadline', () => {
  // 14.1 days: 276 nodes take 14.08 (14 days before the optimizer step counted the gradient buffer's zeroing, 2026-11-29).
  it('Llama 3 8B, 15T tokens in 14.1 days on H100: 276 nodes meet it (its own batch, 552), which a fixed window under 408 stopped short of', async () => {
    const { a } = await json(['nodes', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--tokens', '15T', '--days', '14.1']);
    const alone = await json(['nodes', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--tokens', '15T', '--nodes', '276']);
    expect(alone.a.days).toBeLessThanOrEqual(14.1);
    expect(a.nodes).toBeLessThanOrEqual(276);
    // The 128 sizes below the answer were all searched (or the floor below which none can meet it was reached).
    expect(a.checked.complete || a.nodes - a.checked.fromNodes === 128).toBe(true);
  });
});

describe('trainplan nodes --nodes N without --global-batch', () => {
  it('--days 30 answers 103 nodes (QA); --nodes 103 answers the same plan, days and batch, to the bit, and says why that batch', async () => {
    const L8 = ['nodes', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--tokens', '15T'];
    const deadline = (await json([...L8, '--days', '30'])).a;
    expect(deadline.nodes).toBe(103);
    const { code, a, err } = await json([...L8, '--nodes', String(deadline.nodes)]);
    expect(code).toBe(0);
    expect(a.seconds).toBe(deadline.seconds);
    expect(a.gpuHours).toBe(deadline.gpuHours);
    expect(a.configuration.scenario).toEqual(deadline.configuration.scenario);
    // By hand: 103 is prime; its own default is 515 = 5 · 103, the multiple across the 512 aim 412 = 4 · 103, which runs
    // 412-way data parallelism: faster, and taken by both.
    expect(a.configuration.scenario.training.globalBatchSize).toBe(412);
    expect(err).toMatch(/^trainplan: assumed \(no --global-batch\): global batch 412 sequences .*faster on this size than the 515 .*; --global-batch 515 plans it at its own default$/m);
    // --global-batch 515 holds that batch, slower there.
    const given = (await json([...L8, '--nodes', '103', '--global-batch', '515'])).a;
    expect(given.configuration.scenario.training.globalBatchSize).toBe(515);
    expect(given.days).toBeGreaterThan(a.days);
  });

  it('plans at the batch its assumed line names, even one rounded more than 10% from 4M tokens (a deadline would not take it)', async () => {
    // Llama 3 70B on 450 A100 nodes: 3,600 GPUs round the 512-sequence aim to 450, which 512 does not divide over them.
    const { code, out } = await cli(['nodes', '--model', 'llama3-70b', '--gpu', 'a100-80gb', '--tokens', '2T', '--nodes', '450', '--json']);
    const a = JSON.parse(out);
    expect(code).toBe(0);
    expect(a.configuration.scenario.training.globalBatchSize).toBe(450);
    const said = await cli(['nodes', '--model', 'llama3-70b', '--gpu', 'a100-80gb', '--tokens', '2T', '--nodes', '450']);
    expect(said.out).toMatch(/^assumed \(no --global-batch\): global batch 450 sequences/);
  });
});

describe('trainplan nodes --gpu-hours and --frontier without --global-batch: each size at the batch --nodes takes there', () => {
  const batchOf = (x: { configuration: { scenario: { training: { globalBatchSize: number } } } }) => x.configuration.scenario.training.globalBatchSize;

  it('a budget\'s fastest size is what --nodes answers for it, and faster than a batch held at 4M tokens (Llama 3 70B, 15T tokens, 5.7M GPU-hours)', async () => {
    const LLAMA70 = ['nodes', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--tokens', '15T'];
    const { code, a, err } = await json([...LLAMA70, '--gpu-hours', '5.7M']);
    expect(code).toBe(0);
    expect(a.mode).toBe('fastest-within-budget');
    expect(a.gpuHours).toBeLessThanOrEqual(5.7e6);
    const own = await json([...LLAMA70, '--nodes', String(a.nodes), '--global-batch', String(batchOf(a))]);
    expect({ days: own.a.days, gpuHours: own.a.gpuHours }).toEqual({ days: a.days, gpuHours: a.gpuHours });
    const batchFor = flagDeadlineBatchFor({ model: 'llama3-70b', gpu: 'h100-sxm' });
    expect([batchFor(a.nodes), batchFor.alternativeFor(a.nodes)]).toContain(batchOf(a));
    expect(err).toContain(`trainplan: assumed (no --global-batch): each cluster size at the batch --nodes takes there, or the multiple across its aim where faster; on ${a.nodes.toLocaleString('en-US')} nodes: global batch ${batchOf(a).toLocaleString('en-US')} sequences`);
    // 990 nodes at their own batch stay within the budget in 29.7 days: the answer is no slower (a batch held at 512 answered 256 nodes, 104 days).
    const n990 = await json([...LLAMA70, '--nodes', '990']);
    expect(n990.a.gpuHours).toBeLessThanOrEqual(5.7e6);
    expect(a.days).toBeLessThanOrEqual(n990.a.days);
    const held = await json([...LLAMA70, '--gpu-hours', '5.7M', '--global-batch', '512']);
    expect(batchOf(held.a)).toBe(512);
    expect(held.err).not.toContain('assumed');
  });

  it('the time–cost curve\'s cheapest size is what --nodes answers for it (Llama 3 70B, 2T tokens)', async () => {
    const LLAMA70 = ['nodes', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--tokens', '2T'];
    const { a, err } = await json([...LLAMA70, '--frontier']);
    const own = await json([...LLAMA70, '--nodes', String(a.nodes)]);
    expect({ batch: batchOf(own.a), gpuHours: own.a.gpuHours }).toEqual({ batch: batchOf(a), gpuHours: a.gpuHours });
    expect(err).toContain('each cluster size at the batch --nodes takes there');
  });
});

describe('trainplan nodes: a refused request plans no assumed batch', () => {
  it.each([[[]], [['--json']]])('fewer tokens than one step%j: the refusal and how to plan a smaller step on stderr, no "assumed (…)" planning line', async (extra) => {
    const { code, err } = await cli(['nodes', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--tokens', '1k', '--days', '30', ...extra]);
    expect(code).toBe(2);
    expect(err).not.toContain('assumed (no --global-batch)');
    expect(err.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^trainplan: --tokens: 1,000 tokens are less than one optimizer step/),
      expect.stringMatching(/^trainplan: hint: that batch is the default assumed for this size \(no --global-batch given\)/),
    ]);
  });
});

describe('trainplan nodes with a deadline and a budget agrees with the budget alone', () => {
  // QA: GPT-3 175B on H100, 300B tokens, 320k GPU-hours: the budget alone answers 1,554 nodes in 1.04 days, yet with a
  // deadline of 1.05 days the deadline's search (time is not monotone in the nodes at each size's batch) said no size
  // meets both.
  const GPT3 = ['nodes', '--model', 'gpt3-175b', '--gpu', 'h100-sxm', '--tokens', '300B', '--gpu-hours', '320k'];
  it('a deadline the budget\'s own answer meets is met, within the budget', async () => {
    const alone = await json(GPT3);
    expect(alone.code).toBe(0);
    const deadline = alone.a.days * 1.01;
    const both = await json([...GPT3, '--days', String(deadline)]);
    expect(both.code).toBe(0);
    expect(both.a.days).toBeLessThanOrEqual(deadline);
    expect(both.a.gpuHours).toBeLessThanOrEqual(320e3);
  }, 120_000);
});

describe('trainplan nodes --gpu-hours at the default batch agrees with brute force past the bisection\'s boundary', () => {
  // QA: GPT-3 175B on H100, 300B tokens, 320k GPU-hours: a bisection between 1,536 nodes (within) and 2,048 (over) ended
  // at 1,554 nodes (1.04 days), while 1,666 nodes, two model-parallel replicas of TP 2 · PP 14 · CP 4 more at their own
  // batch, take 0.97 days within the budget; the sizes between hold no whole replicas, so only a scan of that shape's
  // multiples finds it.
  const v = { model: 'gpt3-175b', gpu: 'h100-sxm', tokens: '300B' };
  const BUDGET = 320e3;
  it('the answer is the fastest of every size from 1,536 to 2,047 nodes within the budget, each at the batch the budget plans it at', async () => {
    const alone = await json(['nodes', '--model', v.model, '--gpu', v.gpu, '--tokens', v.tokens, '--gpu-hours', '320k']);
    expect(alone.code).toBe(0);
    const batchFor = flagDeadlineBatchFor(v);
    const request = { ...machineFields(v), training: { ...trainingFields(v), globalBatchSize: flagDefaultBatch(v).sequences }, tokens: 300e9 };
    let fastest: { nodes: number; days: number } | undefined;
    for (let n = 1536; n < 2048; n++) {
      const a = runNodes({ ...request, nodes: n }, { globalBatchFor: batchFor });
      if (a.ok && a.gpuHours <= BUDGET && (!fastest || a.days < fastest.days)) fastest = { nodes: n, days: a.days };
    }
    expect(fastest).toBeDefined();
    expect(alone.a.gpuHours).toBeLessThanOrEqual(BUDGET);
    expect({ nodes: alone.a.nodes, days: alone.a.days }).toEqual(fastest);
  }, 180_000);
});

describe('trainplan nodes --nodes N where the published batch splits no layout', () => {
  // QA: GPT-3 Small's published 256 sequences split no layout of 65,536 GPUs, and the answer fell back to 8,191 nodes.
  // The default batch now takes the least that some layout of the GPUs runs (@trainplan/ask someLayoutRuns): one
  // sequence on each of 1,024 data-parallel ranks of 64 GPUs. The nearest-size message
  // itself is tested in protocol's nodes-no-plan.test.ts.
  it('8,192 H100 nodes take 1,024 sequences, which some layout runs, and answer there', async () => {
    const { code, out } = await cli(['nodes', '--model', 'gpt3-126m', '--gpu', 'h100-sxm', '--tokens', '300B', '--nodes', '8192']);
    expect(code).toBe(0);
    expect(out).toMatch(/^assumed \(no --global-batch\): global batch 1,024 sequences .*GPT-3 Small's published 256 sequences, which no split of these GPUs divides\)/);
  });
});

describe('trainplan nodes --nodes N with fewer tokens than the assumed batch\'s step', () => {
  // QA: the refusal blamed --tokens for a batch the user never gave.
  it('the refusal says the batch was assumed and how to plan a smaller step; with --global-batch given, no such hint', async () => {
    const args = ['nodes', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--tokens', '5M', '--nodes', '612'];
    const assumed = await cli(args);
    expect(assumed.code).toBe(2);
    expect(assumed.err).toMatch(/^trainplan: --tokens: 5,000,000 tokens are less than one optimizer step/);
    expect(assumed.err).toContain('trainplan: hint: that batch is the default assumed for this size (no --global-batch given): give --global-batch');
    const given = await cli([...args, '--global-batch', '1024']);
    expect(given.code).toBe(2);
    expect(given.err).not.toContain('hint:');
  });
});

describe('the default batch counts the GPUs --gpus-per-node gives', () => {
  // Llama 3 8B (8,192 tokens) on 1,024 nodes: 8 GPUs a node are 8,192 GPUs, and one sequence per 8 GPUs (1,024) is more
  // than 4M tokens' 512; at 4 a node the 4,096 GPUs take 512, the 4M-token aim (@trainplan/ask defaultBatch).
  it.each([[undefined, 1024], ['4', 512]] as const)('--gpus-per-node %s on 1,024 H100 nodes: %i sequences', (perNode, sequences) => {
    const v = { model: 'llama3-8b', gpu: 'h100-sxm', nodes: '1024', ...(perNode !== undefined && { 'gpus-per-node': perNode }) };
    expect(flagDefaultBatch(v).sequences).toBe(sequences);
  });
});
