import { describe, expect, it } from 'vitest';
import { runEstimate } from '../src/index.ts';

/** GPT-3 13B on 128 DGX A100 (HDR), TP 8 × PP 2 × DP 64: each stage spans 64 nodes, more than a leaf holds. */
const scenario = (cluster: Record<string, unknown>) => ({
  model: 'gpt3-13b',
  cluster: { gpu: 'a100-80gb', gpusPerNode: 8, nodes: 128, network: 'hdr-ib-8x', ...cluster },
  training: { globalBatchSize: 1536, microBatchSize: 1, precision: 'bf16' },
  parallelism: { tensor: 8, pipeline: 2, recompute: 'full', distributedOptimizer: true },
});

type Ok = { ok: true; stepTimeSeconds: number; breakdown: Record<string, number> };
function estimate(cluster: Record<string, unknown>): Ok {
  const r = runEstimate(scenario(cluster)) as unknown as Ok | { ok: false; message: string };
  if (!r.ok) throw new Error(r.message);
  return r;
}

describe("scenario extension cluster.communicationModel: 'emulated'", () => {
  it('on a non-blocking fat tree the emulated estimate agrees with the closed-form one within 2%', () => {
    const closed = estimate({});
    const emulated = estimate({ communicationModel: 'emulated' });
    expect(Math.abs(emulated.stepTimeSeconds / closed.stepTimeSeconds - 1)).toBeLessThanOrEqual(0.02);
    for (const key of ['tensorParallelCommSeconds', 'pipelineCommSeconds', 'dataParallelCommTotalSeconds']) {
      expect(Math.abs((emulated.breakdown[key] as number) / (closed.breakdown[key] as number) - 1)).toBeLessThanOrEqual(0.02);
    }
  });

  it('states how the collectives were costed, and warns that the closed form leaves an oversubscription out', () => {
    type Answer = Ok & { resolved: { communicationModel: string; oversubscription: number }; warnings: string[] };
    const run = (cluster: Record<string, unknown>) => runEstimate(scenario(cluster)) as unknown as Answer;
    const closed = run({ oversubscription: 4 });
    const emulated = run({ communicationModel: 'emulated', oversubscription: 4 });
    expect(closed.resolved).toMatchObject({ communicationModel: 'closed-form', oversubscription: 4 });
    expect(emulated.resolved).toMatchObject({ communicationModel: 'emulated', oversubscription: 4 });
    expect(run({}).resolved).toMatchObject({ communicationModel: 'closed-form', oversubscription: 1 });
    const unused = /^leaf oversubscription 4:1 is modelled only by the emulated communication model/;
    expect(closed.warnings.filter((w) => unused.test(w))).toHaveLength(1);
    // The closed form's answer is the non-blocking one, as the warning says.
    expect(closed.stepTimeSeconds).toBe(run({}).stepTimeSeconds);
    expect(emulated.warnings.some((w) => unused.test(w))).toBe(false);
    expect(run({}).warnings.some((w) => w.includes('oversubscription'))).toBe(false);
  });

  it('on a 4:1 oversubscribed fat tree the pipeline sends crossing the spine are slower, and so is the step', () => {
    const flat = estimate({ communicationModel: 'emulated' });
    const oversubscribed = estimate({ communicationModel: 'emulated', oversubscription: 4 });
    // 32 nodes per leaf at 4:1 (HDR's 40-port QM8700: round(40 · 4/5) down, 8 up): every GPU of a 64-node stage sends
    // across the spine, whose trunk carries a quarter of the leaf's NIC line rate.
    expect(oversubscribed.breakdown.pipelineCommSeconds! / flat.breakdown.pipelineCommSeconds!).toBeGreaterThan(2);
    expect(oversubscribed.stepTimeSeconds).toBeGreaterThan(flat.stepTimeSeconds);
  });

  it('sees every stage boundary where it is: GPT-3 175B, TP 8 × PP 8 on 128 nodes (16 per stage) at 8:1 crosses leaf trunks', () => {
    // 16-node stages; at 8:1 a 40-port HDR leaf holds 36 nodes (round(40 · 8/9)), so the sends of nodes 20–35, 56–71
    // and 92–107 cross a leaf whose trunk carries an eighth of its NIC rate: slower than a boundary inside one leaf.
    const gpt3 = (cluster: Record<string, unknown>) => ({
      ...scenario(cluster), model: 'gpt3-175b', parallelism: { tensor: 8, pipeline: 8, recompute: 'full', distributedOptimizer: true },
    });
    const run = (cluster: Record<string, unknown>) => runEstimate(gpt3(cluster)) as unknown as Ok & { warnings: string[] };
    const flat = run({ communicationModel: 'emulated' });
    const blocking = run({ communicationModel: 'emulated', oversubscription: 8 });
    expect(blocking.breakdown.pipelineCommSeconds! / flat.breakdown.pipelineCommSeconds!).toBeGreaterThan(2);
    expect(blocking.warnings.filter((w) => w.startsWith('not emulated'))).toEqual([]);
  });

  it('says which collectives the closed form costed when the emulator declined them, and why', () => {
    // 1024 DGX-1 nodes, TP 8: eight data-parallel rings of 1024 GPUs share each node's 4 NICs, which
    // needs the full (not symmetric) emulation, over the default event budget.
    const r = runEstimate({
      model: 'gpt3-1.3b', cluster: { gpu: 'v100-32gb', nodes: 1024, communicationModel: 'emulated' },
      training: { globalBatchSize: 8192 }, parallelism: { tensor: 8, pipeline: 1 },
    }) as unknown as Ok & { warnings: string[] };
    expect(r.ok).toBe(true);
    expect(r.warnings).toContainEqual(expect.stringMatching(/^not emulated, NCCL's closed form used instead: all-reduce of 1,024 GPUs: .*event budget/));
  });

  it('an emulated estimate is memoised: the second is at least 5× faster than the first', () => {
    const s = scenario({ communicationModel: 'emulated', oversubscription: 2 });
    const t0 = performance.now();
    runEstimate(s);
    const first = performance.now() - t0;
    const t1 = performance.now();
    runEstimate(s);
    const second = performance.now() - t1;
    expect(second * 5).toBeLessThan(first);
  });

  it.each([
    [{ communicationModel: 'simulated' }, 'cluster.communicationModel'],
    [{ oversubscription: 0.5 }, 'cluster.oversubscription'],
  ])('rejects %j naming the field', (cluster, path) => {
    const r = runEstimate(scenario(cluster)) as unknown as { ok: boolean; issues?: { path: string }[] };
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).toContain(path);
  });
});
