import { describe, expect, it } from 'vitest';
import { runSearch, toMegatronArgs, toNemoYaml } from '../../src/index.ts';

/**
 * NeMo 1.x MegatronBaseModel.__init__ asserts (num_layers // pipeline_model_parallel_size) % vp_size == 0: it reads the
 * layers, PP and v alone, so no hand-set split passes it where it fails; the remedy must change PP or v, or leave NeMo 1.x.
 */
const passesNemo1 = (layers: number, p: number, v: number): boolean => Math.floor(layers / p) % v === 0;
const warningOf = (yaml: string | undefined): string | undefined => yaml!.split('\n').find((l) => l.includes('NeMo 1.x asserts'));

/** The (PP, v) a remedy names: each "--pipeline 4 --virtual-stages 2, 4 or 5" as PP 4 with v 2, 4 and 5, in order. */
const namedPairs = (warning: string): { pipeline: number; virtualStages: number[] }[] =>
  [...warning.matchAll(/--pipeline (\d+) --virtual-stages (\d+(?:(?:, | or )\d+)*)/g)]
    .map(([, q, ws]) => ({ pipeline: Number(q), virtualStages: ws!.split(/, | or /).map(Number) }));

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

  it('names only (PP, v) that both NeMo 1.x and the planner\'s split accept, with TP 2 · CP 4 held: PP 4 with v 2, 4, 5, 10 or 20', () => {
    // PP × DP = 96 / (TP 2 · CP 4) = 12; its divisors and Megatron's split of 80 layers (b = ⌈80/p⌉ on the middle stages):
    // PP 2: 40 + 40, but v > 1 on 2 stages needs overlapped sends (not asked for); PP 3: 27 + 27 + 26, no v > 1 divides both;
    // PP 4: 20 each, v 2, 4, 5, 10, 20 (every divisor of 20 past 1, up to one layer a chunk as the search tries), and NeMo's 80 // 4 = 20 the same; PP 6: 12 + 14 × 4 + 12, v 2, which NeMo's 13 fails;
    // PP 12: 5 + 7 × 10 + 5, no v > 1. The old remedy named PP 12 and v 13, which the planner refuses.
    const warning = warningOf(toNemoYaml(UNEVEN))!;
    expect(namedPairs(warning)).toEqual([{ pipeline: 4, virtualStages: [2, 4, 5, 10, 20] }, { pipeline: 6, virtualStages: [1] }]);
    expect(warning).toContain('holding TP 2 · CP 4 on the 96 GPUs and the layers alone in the split (--tensor 2 --context 4 --pipeline-split layers');
    expect(warning).not.toMatch(/PP 12|v 13/);
  });

  it('and v 1, or the Megatron-LM export of the same plan', () => {
    const warning = warningOf(toNemoYaml(UNEVEN))!;
    expect(warning).toContain('--pipeline 6 --virtual-stages 1 (no interleaving, nothing asserted)');
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
  it('and what passes NeMo 1.x: PP × DP = 128 / (8 · 2) = 8, of whose divisors none has a v both accept; so v 1 alone', () => {
    // 128 slots on p × v chunks (v ≤ 8): PP 2, 4, 8 each take v 2, 4 or 8; NeMo's 126 // p is 63, 31, 15, all odd. (v 3, which the
    // old remedy named as a divisor of 15, makes 24 chunks of 128 slots: the planner refuses it.)
    expect([2, 4, 8].flatMap((q) => [2, 4, 8].filter((w) => passesNemo1(126, q, w)))).toEqual([]);
    const warning = warningOf(toNemoYaml(RECIPE))!;
    expect(warning).not.toMatch(/v 3/);
    expect(namedPairs(warning).every(({ virtualStages }) => virtualStages.every((w) => w === 1))).toBe(true);
    expect(warning).toMatch(/search again for NeMo 1\.x with --tensor 8 --context 2 --pipeline-split embedding-and-loss (--pipeline \d+ --virtual-stages 1|v 1)/);
  });
});

/**
 * Every (PP, v) a remedy names, searched again as it says (TP, CP and the split's layout held, the rest as before): each finds a
 * plan whose NeMo export nothing refuses, or (v 1 alone offered, where no (PP, v) passes both NeMo 1.x and the planner) runs
 * without interleaving. The searches as the CLI runs them: `trainplan search --model … --gpu … --nodes/--gpus … --global-batch …`.
 */
describe.each([
  {
    // `search --model llama3-70b --gpu h100-sxm --nodes 27 --global-batch 540 --export nemo`: TP 2 · PP 9 (+loss) · CP 4 · v 3.
    // PP × DP = 216 / 8 = 27; with the loss, 81 slots on p × v chunks: PP 3 takes v 3 or 9 (NeMo's 80 // 3 = 26: neither),
    // PP 9 v 3 or 9 (80 // 9 = 8: neither), PP 27 v 3 (80 // 27 = 2: no). The old remedy named v 2 or 4 on PP 9: 18 or 36 chunks.
    name: 'TP 2 · PP 9 (+loss) · CP 4 · v 3 on 27 nodes', request: { model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 27 }, training: { globalBatchSize: 540 } },
    constraints: {}, plan: { tensor: 2, pipeline: 9, context: 4, virtualStages: 3, lossInPipelineSplit: true, embeddingInPipelineSplit: false },
    interleaved: false,
  },
  {
    name: 'TP 2 · PP 6 · CP 4 · v 2 on 96 GPUs', request: { model: 'llama3-70b', cluster: { gpu: 'dgx-h100', gpus: 96 }, training: { globalBatchSize: 192 } },
    constraints: { pipelineSizes: [6], virtualStageCounts: [2], pipelineSlots: ['layers'] }, plan: { tensor: 2, pipeline: 6, context: 4, virtualStages: 2 },
    interleaved: true,
  },
])('$name: each (PP, v) the NeMo remedy names finds a plan when searched again', ({ request, constraints, plan, interleaved }) => {
  const searched = runSearch({ ...request, top: 1, constraints });
  if (!searched.ok) throw new Error(searched.message);
  const warning = warningOf(toNemoYaml(searched.best.scenario));

  it('the premise: the search chooses the plan, and NeMo 1.x refuses it', () => {
    expect(searched.best.scenario.parallelism).toMatchObject(plan);
    expect(warning).toBeDefined();
  });

  it('every pair named passes NeMo 1.x and, searched with TP, CP, PP, v and the split held, gives a plan NeMo takes', () => {
    const { tensor = 1, context = 1 } = searched.best.scenario.parallelism ?? {};
    const slots = /--pipeline-split ([a-z-]+)/.exec(warning!)![1]!;
    expect(warning).toContain(`--tensor ${tensor} --context ${context} --pipeline-split ${slots}`);
    const pairs = namedPairs(warning!).flatMap(({ pipeline, virtualStages }) => virtualStages.map((v) => ({ pipeline, v })));
    expect(pairs.length).toBeGreaterThan(0);
    expect(pairs.some(({ v }) => v > 1)).toBe(interleaved);
    for (const { pipeline, v } of pairs) {
      expect(passesNemo1(80, pipeline, v), `PP ${pipeline} v ${v}`).toBe(true);
      const again = runSearch({
        ...request, top: 1,
        constraints: { tensorSizes: [tensor], contextSizes: [context], pipelineSizes: [pipeline], virtualStageCounts: [v], pipelineSlots: [slots as 'layers'] },
      });
      expect(again.ok && again.best.scenario.parallelism, `PP ${pipeline} v ${v}`).toMatchObject({ pipeline, virtualStages: v });
      if (again.ok) expect(warningOf(toNemoYaml(again.best.scenario)), `PP ${pipeline} v ${v}`).toBeUndefined();
    }
  });
});
