import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';
import { runScale } from '@trainplan/protocol';
import { formatScaleReport } from '../../src/commands/scale.ts';

async function cli(args: string[]) {
  const io = fakeIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const GPT3 = ['scale', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--global-batch', '1536'];
/** The table's rows: node count → its cells. */
const rows = (out: string): Map<number, string[]> => new Map(out.split('\n')
  .filter((l) => /^\s+[\d,]+\s+[\d,]+\s+(?:[\d,]+|—)\s/.test(l))
  .map((l) => l.trim().split(/\s{2,}/))
  .map((cells) => [Number(cells[0]!.replaceAll(',', '')), cells]));

describe('trainplan scale', () => {
  it('efficiency is against the smallest size, whatever order --nodes lists', async () => {
    const { code, out } = await cli([...GPT3, '--nodes', '64,32,16']);
    expect(code).toBe(0);
    const r = rows(out);
    expect(r.get(16)![6]).toBe('100.0%');
    for (const n of [32, 64]) expect(Number.parseFloat(r.get(n)![6]!)).toBeLessThanOrEqual(100);
  });

  it('--weak grows the batch with the nodes from the first size listed; --trade-off adds the TP × PP table at it', async () => {
    const { code, out } = await cli([...GPT3, '--nodes', '64,32,16', '--weak', '--trade-off']);
    expect(code).toBe(0);
    expect(out).toMatch(/^weak scaling:\n/);
    const r = rows(out);
    expect([64, 32, 16].map((n) => r.get(n)![2])).toEqual(['1,536', '768', '384']);
    expect(r.get(16)![6]).toBe('100.0%');
    expect(out).toContain('\nTP × PP at 64 nodes (best of the other dimensions):\n');
    // TP 1 · PP 1 of a 175B model cannot hold its weights: the reason is the memory, per GPU.
    expect(out).toMatch(/\n\s+1\s+1\s+—\s+—\s+—\s+needs [\d.]+ GiB per GPU, the NVIDIA A100 SXM4 80GB has 80\.0 GiB\n/);
  });

  it('counts are grouped by thousands and tokens/s per GPU keeps three figures, as inference writes them (the help\'s 530B example)', async () => {
    const { code, out } = await cli(['scale', '--model', 'mt-nlg-530b', '--gpu', 'azure-ndm-a100-v4', '--global-batch', '1920',
      '--nodes', '105,140', '--tensor', '8', '--pipeline', '35', '--recompute', 'full']);
    expect(code).toBe(0);
    const row = rows(out).get(140)!;
    expect(row.slice(0, 3)).toEqual(['140', '1,120', '1,920']);
    expect(row[4]).toMatch(/^\d{2}\.\d$/); // about 39 tokens/s per GPU: "38.9", not "39"
  });

  it('--weak: a size whose batch per node would fall below one sequence has no plan, says why, exits 1, and is not the efficiency reference', async () => {
    // Before: the 1-node row planned a batch of 0 at 0 tokens/s and, as the smallest size, left every efficiency blank.
    const { code, out, err } = await cli(['scale', '--model', 'gpt3-1.3b', '--gpu', 'a100-80gb', '--nodes', '64,1', '--global-batch', '16', '--weak']);
    expect(code).toBe(1);
    const r = rows(out);
    expect(r.get(64)![6]).toBe('100.0%');
    const why = 'weak scaling keeps the first size\'s batch per node (16 sequences on 64 nodes): 1 node would take 0.25 of a sequence per step, under one; '
      + 'the sizes that keep it whole are multiples of 4 nodes';
    expect(r.get(1)!.slice(3)).toEqual(['—', '—', '—', '—', why]);
    expect(err).toBe(`trainplan: 1 node (8 GPUs): ${why}\n`);
  });

  it('--help shows a strong, a weak (--weak) and a --trade-off example, and each runs with exit 0', async () => {
    const { out } = await cli(['scale', '--help']);
    const examples = out.slice(out.indexOf('\nExamples:\n')).split('\n').filter((l) => l.startsWith('  trainplan scale '));
    expect(examples.some((e) => e.includes(' --weak'))).toBe(true);
    expect(examples.some((e) => e.includes(' --trade-off'))).toBe(true);
    for (const example of examples) {
      const run = await cli(example.trim().split(/\s+/).slice(1));
      expect({ example, code: run.code, err: run.err }).toEqual({ example, code: 0, err: '' });
    }
  });

  it('--sequence-parallel holds sequence parallelism at every size, as the request\'s parallelism.sequenceParallel does (the 530B selective + SP sweep)', async () => {
    const base = ['scale', '--model', 'mt-nlg-530b', '--gpu', 'azure-ndm-a100-v4', '--global-batch', '1920', '--nodes', '105,175', '--tensor', '8', '--pipeline', '35', '--recompute', 'selective'];
    const withSp = await cli([...base, '--sequence-parallel', '--json']);
    expect(withSp.code).toBe(0);
    const answer = JSON.parse(withSp.out) as { ok: boolean; points: { scenario?: { parallelism: { sequenceParallel: boolean } } }[] };
    expect(answer.points.map((p) => p.scenario?.parallelism.sequenceParallel)).toEqual([true, true]);
    // The same request written as JSON gets the same answer.
    expect(answer).toEqual(runScale({
      model: 'mt-nlg-530b', cluster: { gpu: 'azure-ndm-a100-v4' }, training: { globalBatchSize: 1920 }, nodes: [105, 175],
      parallelism: { tensor: 8, pipeline: 35, recompute: 'selective', sequenceParallel: true },
    }));
    // Without it, selective recompute keeps every layer norm's and dropout's activations whole on each TP rank: out of memory.
    expect((await cli(base)).code).toBe(1);
  });

  it('--trade-off at one node says "at 1 node", not "at 1 nodes"', async () => {
    const { code, out } = await cli(['scale', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--global-batch', '256', '--nodes', '1', '--trade-off']);
    expect(code).toBe(0);
    expect(out).toContain('\nTP × PP at 1 node (best of the other dimensions):\n');
  });

  it('--weak with a fixed plan: a scaled size\'s batch is named as scaled from --global-batch, and no size is suggested that fails the same way', async () => {
    const { code, out, err } = await cli(['scale', '-m', 'llama3-8b', '-g', 'dgx-h100', '-b', '4', '-n', '8,1,2,4', '--weak', '-t', '8', '-p', '1']);
    expect(code).toBe(1);
    const r = rows(out);
    // Before: "--global-batch: global batch 1 is not a multiple of …", though --global-batch was 4.
    const two = 'TP 8 · PP 1 · DP 2 · mbs 1 · no recompute: the weak-scaled batch of 1 sequence at 2 nodes (from --global-batch 4 on 8 nodes) '
      + 'is not a multiple of micro-batch × data-parallel = 1×2 = 2';
    expect(r.get(2)!.at(-1)).toBe(two);
    expect(r.get(8)!.at(-1)).toMatch(/: --global-batch: global batch 4 is not a multiple of micro-batch × data-parallel = 1×8 = 8$/);
    // Before: "… the sizes that keep it whole are multiples of 2 nodes", where TP 8 fails as at 2 nodes.
    expect(r.get(1)!.at(-1)).toMatch(/under one; with this plan no size keeps it whole and a multiple of micro-batch × data-parallel \(0\.5 sequences a node, not a multiple of 1×1 a node\)$/);
    expect(err).toContain('trainplan: 2 nodes (16 GPUs): the weak-scaled batch of 1 sequence at 2 nodes (from --global-batch 4 on 8 nodes)');
  });

  it('--weak: a size without a plan shows no batch ("—"), not the nearest whole one as if planned; --json keeps that number', async () => {
    const args = ['scale', '-m', 'llama3-8b', '-g', 'dgx-h100', '-b', '64', '-n', '3,4,6,8', '--weak', '-t', '8', '-p', '1'];
    const r = rows((await cli(args)).out);
    // Before: 85 and 171 (64 × 4/3 and 64 × 8/3, rounded). 3 and 6 nodes had a plan tried with their batch, which stays.
    expect([3, 4, 6, 8].map((n) => r.get(n)![2])).toEqual(['64', '—', '128', '—']);
    const json = JSON.parse((await cli([...args, '--json'])).out) as { points: { nodes: number; globalBatchSize: number }[] };
    expect(json.points.map((p) => p.globalBatchSize)).toEqual([64, 85, 128, 171]);
  });

  it('a size where nothing runs says why (the memory the closest plan needs) and exits 1, with one stderr line for it', async () => {
    const { code, out, err } = await cli([...GPT3, '--nodes', '1,16']);
    expect(code).toBe(1);
    const reason = rows(out).get(1)!.at(-1)!;
    expect(reason).toMatch(/^no configuration fits: out of memory: the plan that comes closest \(.*\) needs [\d.]+ GiB per GPU( on pipeline stage \d+)?, the NVIDIA A100 SXM4 80GB has 80\.0 GiB$/);
    expect(rows(out).get(16)![6]).toBe('100.0%');
    // Only the size without a plan, named with its reason.
    expect(err).toBe(`trainplan: 1 node (8 GPUs): ${reason}\n`);
  });

  it('a fixed plan that runs out of memory at a size says so in its row, beside the plan (not the plan alone, as if it ran)', async () => {
    // GPT-3 175B as TP 8 · PP 8 without recompute on 16 nodes: about 81 GiB per GPU against 80.
    const { code, out, err } = await cli([...GPT3, '--nodes', '16', '--tensor', '8', '--pipeline', '8', '--recompute', 'none']);
    expect(code).toBe(1);
    const row = rows(out).get(16)!;
    expect(row.slice(3, 7)).toEqual(['—', '—', '—', '—']);
    expect(row.at(-1)).toMatch(/^TP 8 · PP 8 · DP 2 · mbs 1 · no recompute: needs [\d.]+ GiB per GPU on pipeline stage 0, the NVIDIA A100 SXM4 80GB has 80\.0 GiB$/);
    expect(err).toMatch(/^trainplan: 16 nodes \(128 GPUs\): needs [\d.]+ GiB per GPU/);
  });

  it('under --json stdout is the JSON and stderr still names each size without a plan, one line each', async () => {
    const { code, out, err } = await cli([...GPT3, '--nodes', '1,2,16', '--json']);
    expect(code).toBe(1);
    const points: { nodes: number; reason?: string }[] = JSON.parse(out).points;
    const failed = points.filter((p) => p.reason !== undefined);
    expect(failed.map((p) => p.nodes)).toEqual([1, 2]);
    expect(err.split('\n').filter(Boolean)).toEqual(failed.map((p) => `trainplan: ${p.nodes} node${p.nodes === 1 ? '' : 's'} (${p.nodes * 8} GPUs): ${p.reason}`));
  });

  it('--json where no size runs answers ok: false with a reason (as search and nodes do), its points still there; the table and stderr as before', async () => {
    const args = [...GPT3, '--nodes', '3,5', '--tensor', '8', '--pipeline', '8'];
    const json = await cli([...args, '--json']);
    expect(json.code).toBe(1);
    const a = JSON.parse(json.out);
    expect(a).toMatchObject({ ok: false, reason: 'no-feasible-configuration', mode: 'strong' });
    expect(a.message).toMatch(/^no configuration runs on any of the 2 sizes asked: 3 nodes \(24 GPUs\): /);
    expect(a.points.map((p: { nodes: number }) => p.nodes)).toEqual([3, 5]);
    expect(json.err.split('\n').filter(Boolean)).toEqual(a.points.map((p: { nodes: number; gpus: number; reason: string }) => `trainplan: ${p.nodes} nodes (${p.gpus} GPUs): ${p.reason}`));
    const text = await cli(args);
    expect(text.code).toBe(1);
    expect(text.out).toMatch(/^strong scaling:\n/);
    expect(rows(text.out).get(5)!.at(-1)).toBe('40 GPUs are fewer than one replica of TP × PP × CP = 64 GPUs (whole replicas need a multiple of 8 nodes)');
    expect(text.err).toBe(json.err);
  });

  it('stderr groups a size\'s counts by thousands, as the table does: "100,000 nodes (800,000 GPUs)"', async () => {
    const { code, out, err } = await cli([...GPT3, '--nodes', '100000']);
    expect(code).toBe(1);
    expect(rows(out).get(100000)!.slice(0, 2)).toEqual(['100,000', '800,000']);
    expect(err).toMatch(/^trainplan: 100,000 nodes \(800,000 GPUs\): /);
  });

  it('a one-GPU size is counted in words: "1 node (1 GPU)"', async () => {
    const { err } = await cli(['scale', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--gpus-per-node', '1', '--nodes', '1,2', '--global-batch', '64']);
    expect(err).toMatch(/^trainplan: 1 node \(1 GPU\): /m);
    expect(err).toMatch(/^trainplan: 2 nodes \(2 GPUs\): /m);
  });

  it('--nodes reads each size as the other count flags do (2k, 1e3), spaces after commas allowed', async () => {
    const { out } = await cli([...GPT3, '--nodes', '16, 2k,1e3', '--tensor', '8', '--pipeline', '8', '--json']);
    expect(JSON.parse(out).points.map((p: { nodes: number }) => p.nodes)).toEqual([16, 2000, 1000]);
    const bad = await cli([...GPT3, '--nodes', '16,2x']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^trainplan: --nodes: .*got "2x"/);
  });

  it('an --input request without nodes is still told its field by its JSON path', async () => {
    const io = fakeIo({ files: { 'r.json': JSON.stringify({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 } }) } });
    expect(await main(['scale', '--input', 'r.json'], io)).toBe(2);
    expect(io.err()).toMatch(/^trainplan: nodes: missing required field: expected an array of 1 to 64 items\n$/);
  });

  it.each([
    ['16,,32', 'item 2 of "16,,32" is empty'],
    ['16,32,', 'item 3 of "16,32," is empty'],
  ])('--nodes %s names the empty item, not got ""', async (nodes, message) => {
    const { code, err } = await cli([...GPT3, '--nodes', nodes]);
    expect(code).toBe(2);
    expect(err.startsWith(`trainplan: --nodes: ${message} (usage: trainplan scale `)).toBe(true);
  });

  it('a sweep where every size runs exits 0 with nothing on stderr', async () => {
    const { code, err } = await cli([...GPT3, '--nodes', '16,32']);
    expect(code).toBe(0);
    expect(err).toBe('');
  });

  describe('--recompute without --tensor and --pipeline', () => {
    const LLAMA = ['scale', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--global-batch', '64', '--nodes', '1,2'];
    const recomputeOf = (out: string): string[] => JSON.parse(out).points.map((p: { scenario: { parallelism: { recompute: string } } }) => p.scenario.parallelism.recompute);

    it('searches only plans with that recompute mode at every size', async () => {
      // The premise: left free, the best plans recompute nothing.
      const free = await cli([...LLAMA, '--json']);
      expect(recomputeOf(free.out)).toEqual(['none', 'none']);
      const { code, out, err } = await cli([...LLAMA, '--recompute', 'full', '--json']);
      expect(code).toBe(0);
      expect(err).toBe('');
      expect(recomputeOf(out)).toEqual(['full', 'full']);
      const table = await cli([...LLAMA, '--recompute', 'selective']);
      expect([...rows(table.out).values()].map((cells) => cells.at(-1))).toEqual([expect.stringContaining('selective recompute'), expect.stringContaining('selective recompute')]);
    });

    it('a mode that is not one of none, selective or full is refused, naming the flag', async () => {
      const { code, err } = await cli([...LLAMA, '--recompute', 'partial']);
      expect(code).toBe(2);
      expect(err).toMatch(/^trainplan: --recompute: /);
    });
  });

  it('a size the --memory-fraction rules out says so by the flag, in the table and on stderr; --json keeps memoryFraction', async () => {
    const args = [...GPT3, '--nodes', '16', '--memory-fraction', '0.3'];
    const { code, out, err } = await cli(args);
    expect(code).toBe(1);
    expect(rows(out).get(16)!.at(-1)).toMatch(/^no configuration fits: .*, above the 24\.0 GiB the search leaves usable \(--memory-fraction 0\.3 of the NVIDIA A100 SXM4 80GB's 80\.0 GiB\)$/);
    expect(err).toMatch(/^trainplan: 16 nodes \(128 GPUs\): no configuration fits: .* usable \(--memory-fraction 0\.3 of .*\)\n$/);
    const json = await cli([...args, '--json']);
    expect(JSON.parse(json.out).points[0].reason).toMatch(/usable \(memoryFraction 0\.3 of .*\)$/);
    expect(json.err).toMatch(/usable \(--memory-fraction 0\.3 of .*\)\n$/);
  });
});

describe('scale: efficiency over 100%', () => {
  const answer = runScale({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 512 }, nodes: [16, 32], mode: 'weak' });
  if (!answer.ok) throw new Error(answer.message);
  it('is explained where a size\'s own best plan is another layout than the first size\'s', () => {
    const [first, second] = answer.points;
    // A made-up efficiency past 100% on the real sweep: only the note's rule is under test.
    const over = { ...answer, points: [first!, { ...second!, efficiency: 1.02, label: `${first!.label} (another)` }] };
    expect(formatScaleReport(over)).toContain('efficiency over 100% at 32 nodes: each size is searched on its own, and the best plan there is another layout than at 16 nodes');
    // The gain is said, as the efficiency column gives it (QA: "a little faster per GPU" said of 121.8%).
    expect(formatScaleReport(over)).toContain('another layout than at 16 nodes, 2.0% faster per GPU\n');
    const muchOver = { ...answer, points: [first!, { ...second!, efficiency: 1.218, label: `${first!.label} (another)` }] };
    expect(formatScaleReport(muchOver)).toContain('another layout than at 16 nodes, 21.8% faster per GPU\n');
    expect(formatScaleReport(muchOver)).toMatch(/\b121\.8%/);
    const same = { ...answer, points: [first!, { ...second!, efficiency: 1.02, label: first!.label }] };
    expect(formatScaleReport(same)).not.toContain('efficiency over 100%');
    const under = { ...answer, points: [first!, { ...second!, efficiency: 0.97, label: `${first!.label} (another)` }] };
    expect(formatScaleReport(under)).not.toContain('efficiency over 100%');
  });
});

describe('trainplan scale under FP8', () => {
  it('gives MFU of the FP8 peak and of the BF16 peak, in two columns of the sweep and of the trade-off table', async () => {
    const args = ['scale', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--global-batch', '64', '--nodes', '1,2', '--precision', 'fp8', '--trade-off'];
    const a = JSON.parse((await cli([...args, '--json'])).out);
    const { code, out } = await cli(args);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[1]!.trim().split(/\s{2,}/)).toEqual(['nodes', 'GPUs', 'batch', 'step', 'tokens/s/GPU', 'MFU (FP8 peak)', 'MFU (BF16 peak)', 'efficiency', 'plan']);
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const r = rows(out.slice(0, out.indexOf('\nTP × PP at ')));
    for (const p of a.points) {
      // Of the BF16 peak: the model TFLOP/s per GPU over the H100 SXM's dense BF16 peak, 989.4 TFLOP/s (NVIDIA's datasheet).
      expect(r.get(p.nodes)!.slice(5, 7), `${p.nodes} nodes`).toEqual([pct(p.mfu), pct(p.modelTflopsPerGpu / 989.4)]);
    }
    expect(lines.find((l) => l.trim().startsWith('TP  PP'))!.trim().split(/\s{2,}/))
      .toEqual(['TP', 'PP', 'step', 'tokens/s/GPU', 'MFU (FP8 peak)', 'MFU (BF16 peak)', 'plan or why not']);
  });
});

describe('trainplan scale prints the planner\'s warnings under the table', () => {
  it('one line per size and warning, naming the size: 4 micro-batches for 8 stages on 128 nodes', async () => {
    const { code, out } = await cli(['scale', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--global-batch', '64', '--nodes', '8,128', '--tensor', '8', '--pipeline', '8', '--recompute', 'full']);
    expect(code).toBe(0);
    const warned = out.split('\n').filter((l) => l.includes('⚠'));
    expect(warned).toEqual(['  ⚠ 128 nodes: only 4 micro-batches for 8 pipeline stages: the bubble dominates']);
  });

  it('a warning that holds at several sizes is one line naming them all, not a line per row', async () => {
    // Llama 3 70B at 8,192 tokens and batch 512: the best plan at each size splits the sequence over 4 context ranks,
    // and the planner's caveat about the 2,048-token chunks is the same sentence at each.
    const { code, out } = await cli(['scale', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--global-batch', '512', '--nodes', '32,64,128']);
    expect(code).toBe(0);
    const warned = out.split('\n').filter((l) => l.includes('⚠'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/^ {2}⚠ 32, 64 and 128 nodes: context parallelism of 4 splits each 8,192-token sequence into 2,048-token chunks/);
  });
});
