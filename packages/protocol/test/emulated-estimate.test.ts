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

  it('on a 4:1 oversubscribed fat tree the pipeline sends crossing the spine are slower, and so is the step', () => {
    const flat = estimate({ communicationModel: 'emulated' });
    const oversubscribed = estimate({ communicationModel: 'emulated', oversubscription: 4 });
    // 51 nodes per leaf at 4:1 (64-port leaves): every GPU of a 64-node stage sends across the
    // spine, whose trunk carries a quarter of the leaf's NIC line rate.
    expect(oversubscribed.breakdown.pipelineCommSeconds! / flat.breakdown.pipelineCommSeconds!).toBeGreaterThan(2);
    expect(oversubscribed.stepTimeSeconds).toBeGreaterThan(flat.stepTimeSeconds);
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
