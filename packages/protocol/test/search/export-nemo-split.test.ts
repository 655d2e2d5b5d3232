import { describe, expect, it } from 'vitest';
import { runSearch, toMegatronArgs, toNemoYaml } from '../../src/index.ts';

/**
 * NeMo 1.x MegatronBaseModel.__init__ asserts (num_layers // pipeline_model_parallel_size) % vp_size == 0: it reads the
 * layers, PP and v alone, so no hand-set split passes it where it fails; the remedy must change PP or v, or leave NeMo 1.x.
 */
const passesNemo1 = (layers: number, p: number, v: number): boolean => Math.floor(layers / p) % v === 0;
const warningOf = (yaml: string | undefined): string | undefined => yaml!.split('\n').find((l) => l.includes('NeMo 1.x asserts'));

// `search --model llama3-70b --gpu dgx-h100 --gpus 96 --global-batch 192 --pipeline 6 --virtual-stages 2 --pipeline-split layers`
// chooses this: 80 layers on 6 stages (12 + 14 × 4 + 12), v 2; 80 // 6 = 13 is odd.
const UNEVEN = {
  model: 'llama3-70b', cluster: { gpu: 'h100-sxm', gpusPerNode: 8, nodes: 12 },
  training: { globalBatchSize: 192, microBatchSize: 1, precision: 'bf16' },
  parallelism: { tensor: 2, pipeline: 6, context: 4, virtualStages: 2, schedule: 'interleaved', sequenceParallel: true, distributedOptimizer: true },
};

describe('NeMo 1.x\'s virtual-stage assertion: a remedy that passes it, never "set this split by hand"', () => {
  it('the premise: 80 // 6 = 13 fails for v 2, and the plan exports', () => {
    expect(passesNemo1(80, 6, 2)).toBe(false);
    expect(warningOf(toNemoYaml(UNEVEN))).toMatch(/which 80 \/\/ 6 = 13 fails for 2 whatever the layers of each stage .*no split set by hand passes it/);
    expect(toNemoYaml(UNEVEN)).not.toContain('set this split by hand');
  });

  it('names the PP nearest 6 either side that keep TP 2 · CP 4 on the 96 GPUs and pass it: 4 and 12', () => {
    // PP × DP = 96 / (TP 2 · CP 4) = 12; its divisors 2, 3, 4, 6, 12; passing for v 2: 2 (40), 3 (26), 4 (20), 12 (6); 6 (13) fails.
    const passing = [2, 3, 4, 6, 12].filter((q) => passesNemo1(80, q, 2));
    expect(passing).toEqual([2, 3, 4, 12]);
    expect(warningOf(toNemoYaml(UNEVEN))).toContain('PP 4 or 12 (the same TP 2 · CP 4 on the 96 GPUs; 80 // 4 = 20, 80 // 12 = 6: multiples of 2)');
  });

  it('and the v that divide 13 (13 alone), v 1, or the Megatron-LM export of the same plan', () => {
    const warning = warningOf(toNemoYaml(UNEVEN))!;
    expect(passesNemo1(80, 6, 13)).toBe(true);
    expect(warning).toContain('v 13 (a divisor of 13) or v 1 (no interleaving)');
    expect(warning).toContain('Megatron-LM arguments (--export megatron)');
    expect(toMegatronArgs(UNEVEN)).toContain('--num-virtual-stages-per-pipeline-rank 2');
  });

  it('the remedy works: the same search at PP 4 finds a plan whose NeMo export nothing refuses', () => {
    const a = runSearch({
      model: 'llama3-70b', cluster: { gpu: 'dgx-h100', gpus: 96 }, training: { globalBatchSize: 192 }, top: 1,
      constraints: { pipelineSizes: [4], virtualStageCounts: [2], pipelineSlots: ['layers'] },
    });
    if (!a.ok) throw new Error(a.message);
    expect(a.best.scenario.parallelism).toMatchObject({ pipeline: 4, virtualStages: 2 });
    expect(warningOf(toNemoYaml(a.best.scenario))).toBeUndefined();
  });
});

describe('a split counting the embedding and the loss: NeMo 2 named truthfully (it reads no YAML)', () => {
  // NVIDIA's Llama 3.1 405B recipe shape: 126 layers on PP 8, v 2; 126 // 8 = 15 is odd.
  const RECIPE = {
    model: 'llama3.1-405b', cluster: { gpu: 'h100-sxm', nodes: 16 },
    training: { globalBatchSize: 64, microBatchSize: 1, precision: 'bf16' },
    parallelism: { tensor: 8, pipeline: 8, context: 2, virtualStages: 2, sequenceParallel: true, embeddingInPipelineSplit: true, lossInPipelineSplit: true },
  };
  it('says the YAML is NeMo 1.x\'s and NeMo 2 takes the values in its Python config, not "use NeMo 2" on this YAML', () => {
    const warning = warningOf(toNemoYaml(RECIPE))!;
    expect(warning).toMatch(/fails for 2: this YAML is NeMo 1\.x's, which stops there; NeMo 2, .* reads no YAML: set the same values in its recipe's Python config/);
    expect(warning).not.toMatch(/use NeMo 2/);
  });
  it('and what passes NeMo 1.x: PP × DP = 128 / (8 · 2) = 8, of whose divisors 2 (63) and 4 (31) fail too; v 3 (the divisor of 15 next above 2) or v 1', () => {
    expect([2, 4].map((q) => passesNemo1(126, q, 2))).toEqual([false, false]);
    const warning = warningOf(toNemoYaml(RECIPE))!;
    expect(warning).not.toMatch(/ PP \d/);
    expect(warning).toContain('v 3 (a divisor of 15) or v 1 (no interleaving)');
  });
});
