import { describe, expect, it } from 'vitest';
import { runEstimate, validateEstimate, validateScenarios, type EstimateJson } from '../src/index.ts';
import { minimalScenario } from './support/scenarios.ts';

const issuesOf = (answer: EstimateJson | EstimateJson[]) => (Array.isArray(answer) ? answer : [answer]).flatMap((a) => (a.ok ? [] : a.issues ?? []));

describe('runEstimate', () => {
  it.each<[string, unknown[], string[]]>([
    ['a field of the second scenario', [minimalScenario, { ...minimalScenario, cluster: { gpu: 'h100-sxm', nodes: 0 } }], ['[1].cluster.nodes']],
    ['a whole scenario that is not an object', [null], ['[0]']],
    ['an unknown preset (found by resolving, not validating)', [{ ...minimalScenario, model: 'no-such-model' }], ['[0].model']],
  ])('prefixes the issue paths of an array with [i] as the validator writes them: %s', (_, input, paths) => {
    const answer = runEstimate(input);
    expect(issuesOf(answer).map((i) => i.path)).toEqual(paths);
    // The same paths validateScenarios gives, where it finds the issue.
    const validation = validateScenarios(input);
    if (!validation.ok) expect(validation.issues.map((i) => i.path)).toEqual(paths);
  });

  it('a system id in cluster.gpu stands for its GPU, node size and network, as the search takes it', () => {
    const scenario = (cluster: Record<string, unknown>) => ({ ...minimalScenario, model: 'llama3-8b', cluster: { ...cluster, nodes: 2 }, training: { globalBatchSize: 64 }, parallelism: { tensor: 8 } });
    const bySystem = runEstimate(scenario({ gpu: 'dgx-h100' })) as EstimateJson;
    const byGpu = runEstimate(scenario({ gpu: 'h100-sxm', gpusPerNode: 8, network: 'ndr-ib-8x' })) as EstimateJson;
    if (!bySystem.ok || !byGpu.ok) throw new Error('refused');
    expect(bySystem.resolved.gpu).toBe('h100-sxm');
    expect(bySystem.stepTimeSeconds).toBe(byGpu.stepTimeSeconds);
    const unknown = runEstimate(scenario({ gpu: 'dgx-z' })) as EstimateJson;
    expect(!unknown.ok && unknown.issues?.[0]?.message).toMatch(/unknown GPU "dgx-z"; known: .*; or a system id: .*dgx-h100/);
  });

  it('names the first three issues in the message and counts the rest', () => {
    const answer = runEstimate({ model: 1, cluster: 2, training: 3, parallelism: 4, extra: 5 });
    expect(answer).toMatchObject({ ok: false, reason: 'invalid' });
    const { message, issues = [] } = answer as Extract<EstimateJson, { ok: false }>;
    expect(issues.length).toBeGreaterThan(3);
    expect(message).toBe(`${issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join('; ')} (and ${issues.length - 3} more)`);
  });

  it('names unknown preset ids in the same answer as the schema\'s issues, not only once those are mended', () => {
    const answer = runEstimate({ model: 'gpt5', cluster: { gpu: 'a200', nodes: 1, network: 'ib-9000' } });
    expect(issuesOf(answer).map((i) => i.path)).toEqual(['training', 'model', 'cluster.gpu', 'cluster.network']);
    expect(issuesOf(runEstimate([{ model: 'gpt5', cluster: { gpu: 'h100-sxm', nodes: 1 } }])).map((i) => i.path)).toEqual(['[0].training', '[0].model']);
  });

  it('in an array, a planner rule\'s message names its slot as its issues do (QA: "[0]" was in the path, not the message)', () => {
    const bad = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1000 } };
    const answers = runEstimate([bad, bad]) as EstimateJson[];
    answers.forEach((a, i) => {
      if (a.ok) throw new Error('batch 1000 on 1,024 GPUs runs');
      expect(a.issues?.[0]?.path).toBe(`[${i}].training.globalBatchSize`);
      expect(a.message).toMatch(new RegExp(`^\\[${i}\\]\\.training\\.globalBatchSize: global batch 1,000 is not a multiple`));
    });
    // Alone, the scenario has no slot: the field's path alone.
    const one = runEstimate(bad) as EstimateJson;
    expect(one.ok ? '' : one.message).toMatch(/^training\.globalBatchSize: global batch 1,000 is not a multiple/);
  });

  it('an empty array is one issue about the whole input, without a leading ": "', () => {
    expect(runEstimate([])).toMatchObject({ ok: false, reason: 'invalid', message: 'expected a scenario or a non-empty array of scenarios, got an empty array' });
  });
});

describe('GB200 NVL72: groups across racks are costed across them', () => {
  const onTrays = (trays: number) => runEstimate({
    model: 'llama3-70b', cluster: { gpu: 'gb200', nodes: trays }, training: { globalBatchSize: trays * 32, microBatchSize: 1, precision: 'bf16' },
    parallelism: { tensor: 8, sequenceParallel: true, recompute: 'selective', distributedOptimizer: true },
  }) as EstimateJson;

  it('the data-parallel all-reduce of a TP-8 plan never gets cheaper per step as racks are added (1, 2, 4, 8, 16 racks)', () => {
    // It was costed as NVLink shared 1/racks ways up to 72 ranks (4 and 8 racks: 2.5–5× too slow), then as the network.
    const dp = [18, 36, 72, 144, 288].map((trays) => {
      const e = onTrays(trays);
      if (!e.ok) throw new Error(e.message);
      return e.breakdown.dataParallelCommSeconds;
    });
    for (let i = 1; i < dp.length; i++) expect(dp[i]!).toBeGreaterThanOrEqual(dp[i - 1]! * (1 - 1e-9));
    // Across racks each rack's 9 ranks of a group leave through their own NICs: the step grows by (d − 1)/d, not by racks.
    expect(dp[4]! / dp[1]!).toBeLessThan(1.2);
  });
});

describe('an out-of-memory answer carries the plan it refused', () => {
  // The contract example less its recompute: recompute defaults to none, and 175B at TP 8 · PP 8 then needs 81.2 GiB.
  const scenario = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, parallelism: { tensor: 8, pipeline: 8 } };
  const answer = runEstimate(scenario) as EstimateJson;

  it('its resolved settings (the defaults it took in view), its memory and its parameters, as a feasible estimate states them', () => {
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.reason).toBe('out-of-memory');
    expect(answer.resolved).toMatchObject({ model: 'gpt3-175b', tensor: 8, pipeline: 8, data: 16, recompute: 'none' });
    expect(answer.memory?.fits).toBe(false);
    expect(answer.memory?.totalBytes).toBe(answer.neededBytes);
    const withFull = runEstimate({ ...scenario, parallelism: { ...scenario.parallelism, recompute: 'full' } }) as EstimateJson;
    expect(withFull.ok && withFull.parameters).toBe(answer.parameters);
    expect(validateEstimate(answer).ok).toBe(true);
  });
});

describe('GPUs that do not fill whole nodes', () => {
  it('are refused by the estimate as by the search: naming the nearest whole-node counts (under one node, a part of one runs)', () => {
    const at = (gpus: number) => runEstimate({ ...minimalScenario, cluster: { gpu: 'a100-80gb', gpus } }) as EstimateJson;
    const twelve = at(12);
    expect(twelve.ok).toBe(false);
    expect(issuesOf(twelve)).toEqual([{ path: 'cluster.gpus', message: '12 GPUs do not fill whole nodes of 8 GPUs: ask for 8 (1 node) or 16 (2 nodes), or give cluster.nodes' }]);
    expect(issuesOf(at(4)).map((i) => i.path)).not.toContain('cluster.gpus');
  });
});

describe('the peak an estimate\'s MFU and HFU are of', () => {
  // Llama 3 70B on 8 nodes of H100, TP 8 · PP 4: the same plan in BF16 and FP8.
  const plan = (precision: 'bf16' | 'fp8') => runEstimate({
    model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 8 }, training: { globalBatchSize: 128, microBatchSize: 1, precision },
    parallelism: { tensor: 8, pipeline: 4, sequenceParallel: true, recompute: 'selective', distributedOptimizer: true },
  }) as EstimateJson;
  it.each([['bf16', 989.4], ['fp8', 1978.9]] as const)('%s: peakTflopsPerGpu is the H100 SXM\'s dense %s peak (989.4 / 1,978.9 TFLOP/s, NVIDIA H100 whitepaper), and mfu = model TFLOP/s ÷ it', (precision, peak) => {
    const e = plan(precision);
    if (!e.ok) throw new Error(e.message);
    expect(e.peakTflopsPerGpu).toBeCloseTo(peak, 6);
    expect(e.mfu).toBeCloseTo(e.modelTflopsPerGpu / peak, 12);
    expect(e.hfu).toBeCloseTo(e.hardwareTflopsPerGpu / peak, 12);
    expect(validateEstimate(e).ok).toBe(true);
  });
});

describe('the breakdown adds up to the step', () => {
  // The contract lists six breakdown fields; the schema says stepTimeSeconds is their sum with contextParallelCommSeconds
  // (QA: context parallelism over 4 nodes left 3.4 s of a 19.0 s step outside the six, only in the extension key).
  const CONTRACT_PARTS = ['computeSeconds', 'tensorParallelCommSeconds', 'pipelineBubbleSeconds', 'pipelineCommSeconds', 'dataParallelCommSeconds', 'optimizerSeconds'] as const;
  it.each([
    ['context parallelism across 4 nodes, its exchange exposed', {
      model: 'llama3-8b', cluster: { gpu: 'h200', nodes: 4 }, training: { globalBatchSize: 64, microBatchSize: 1, seqLength: 32768 },
      parallelism: { tensor: 2, context: 16, sequenceParallel: true, recompute: 'selective', distributedOptimizer: true },
    }, true],
    ['the contract example, no context parallelism', {
      model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, parallelism: { tensor: 8, pipeline: 8, recompute: 'full' },
    }, false],
  ])('%s', (_, scenario, exposed) => {
    const a = runEstimate(scenario) as Extract<EstimateJson, { ok: true }>;
    expect(a.ok).toBe(true);
    const b = a.breakdown as unknown as Record<string, number>;
    const six = CONTRACT_PARTS.reduce((sum, k) => sum + b[k]!, 0);
    expect(six + b.contextParallelCommSeconds!).toBeCloseTo(a.stepTimeSeconds, 9);
    // Where the exchange is exposed the six alone fall short of the step by it; elsewhere it is 0 and they sum alone.
    if (exposed) expect(b.contextParallelCommSeconds!).toBeGreaterThan(0.1 * a.stepTimeSeconds);
    else expect(b.contextParallelCommSeconds).toBe(0);
  });
});
