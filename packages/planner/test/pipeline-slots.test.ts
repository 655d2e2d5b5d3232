import { withShapeDefaults } from '@trainplan/model';
import { describe, expect, it } from 'vitest';
import { checkPlan, estimatePlan, type PlanEstimate, type PlanInput } from '../src/index.ts';
import { llamaOnH100 } from './fixtures.ts';

/**
 * Llama 3.1 405B as NVIDIA's Megatron-Bridge recipe runs it on 128 H100: TP 8 · PP 8 · VPP 2 · CP 4 (the
 * recipe's 128k sequence shortened to 8k, as its DGX Cloud performance configs set it), with
 * account_for_embedding_in_pipeline_split and account_for_loss_in_pipeline_split.
 */
const llama405: PlanInput = {
  ...llamaOnH100,
  model: withShapeDefaults({
    name: 'llama3.1-405b', layers: 126, hiddenSize: 16384, attentionHeads: 128, kvHeads: 8, ffnHiddenSize: 53248,
    vocabSize: 128256, seqLength: 8192, gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary',
    linearBias: false, normalization: 'rmsnorm',
  }),
  nodes: 32,
  globalBatchSize: 256,
  tensor: 8,
  pipeline: 8,
  context: 4,
  data: 1,
  virtualStages: 2,
  schedule: 'interleaved',
  recompute: 'none',
  overlapTensorParallelComm: true,
  overlapPipelineComm: true,
};

const ok = (r: ReturnType<typeof estimatePlan>): PlanEstimate => {
  if (!r.ok) throw new Error(r.message);
  return r;
};

describe('pipeline slots: the embedding and the loss counted as layers in the split', () => {
  it('the layers alone cannot interleave 126 layers on 8 stages (15 on the first and last); counting both, 128 slots make 8 × 2 chunks', () => {
    const alone = checkPlan(llama405);
    expect(alone.map((i) => i.rule)).toEqual(['interleave-indivisible']);
    expect(alone[0]!.message).toMatch(/the stages hold 15, 16 × 6, 15 layers/);
    expect(checkPlan({ ...llama405, pipelineSlots: 'embedding-and-loss' })).toEqual([]);
  });

  it('the refusal names the flags that make the split interleave, and only those that do', () => {
    // 126 layers on 8 stages: one slot more (127) divides by neither 8 nor 16 chunks, two (128) by both.
    expect(checkPlan(llama405)[0]!.message).toMatch(
      /; or count the embedding and the loss each as a layer \(parallelism\.embeddingInPipelineSplit and lossInPipelineSplit\): each stage then holds 16 slots$/,
    );
    // v 4 on 8 stages needs 32 chunks: 126 + 2 = 128 slots make them, v 5 (40 chunks) no count of slots from 126 to 128 does.
    expect(checkPlan({ ...llama405, virtualStages: 4 })[0]!.message).toContain('embeddingInPipelineSplit and lossInPipelineSplit');
    expect(checkPlan({ ...llama405, virtualStages: 5 })[0]!.message).not.toContain('InPipelineSplit');
    // 127 layers on 8 stages with v 2: the embedding alone makes 128 slots.
    const odd = checkPlan({ ...llama405, model: { ...llama405.model, layers: 127 } });
    expect(odd[0]!.message).toMatch(/or count the embedding as a layer \(parallelism\.embeddingInPipelineSplit\): each stage then holds 16 slots$/);
  });

  it('the estimate places 15, 16 × 6, 15 layers, as Megatron-Core builds them', () => {
    const e = ok(estimatePlan({ ...llama405, pipelineSlots: 'embedding-and-loss' }));
    expect(e.stages.map((s) => s.layers)).toEqual([15, 16, 16, 16, 16, 16, 16, 15]);
  });

  it('refuses slots the stages do not divide, naming the sizes that do', () => {
    const issues = checkPlan({ ...llama405, pipeline: 12, virtualStages: 1, schedule: '1f1b', nodes: 48, pipelineSlots: 'embedding-and-loss' });
    expect(issues.map((i) => [i.path, i.rule])).toEqual([['parallelism.pipeline', 'pipeline-split']]);
    expect(issues[0]!.message).toContain('126 layers and the embedding and the loss make 128 slots, which 12 pipeline stages do not divide');
    expect(issues[0]!.message).toContain('use 2, 4, 8, 16, 32, 64 stages');
  });

  it('refuses interleaving whose p·v chunks do not divide the slots', () => {
    const issues = checkPlan({ ...llama405, virtualStages: 3, pipelineSlots: 'embedding-and-loss' });
    expect(issues.map((i) => i.rule)).toContain('interleave-indivisible');
    expect(issues.find((i) => i.rule === 'interleave-indivisible')!.message).toMatch(/128 slots, which do not split into the interleaved schedule's 8 × 3 equal model chunks/);
  });

  it('counting the embedding moves the lighter stage to the first, which holds the most micro-batches: less memory there', () => {
    // Llama 3 70B on 9 stages: the layers alone 9, 9 × 7, 8; with the embedding counted (81 slots) 8, 9 × 8.
    const plan: PlanInput = { ...llamaOnH100, pipeline: 9, nodes: 18, data: 2, virtualStages: 1, schedule: '1f1b', globalBatchSize: 144 };
    const alone = ok(estimatePlan(plan));
    const counted = ok(estimatePlan({ ...plan, pipelineSlots: 'embedding' }));
    expect(alone.stages.map((s) => s.layers)).toEqual([9, 9, 9, 9, 9, 9, 9, 9, 8]);
    expect(counted.stages.map((s) => s.layers)).toEqual([8, 9, 9, 9, 9, 9, 9, 9, 9]);
    expect(counted.stages[0]!.memory.activationsBytes).toBeLessThan(alone.stages[0]!.memory.activationsBytes);
    // The last stage now holds the logits and a full 9 layers: it sets the pace, so the step is no faster.
    expect(counted.stepTimeSeconds).toBeGreaterThanOrEqual(alone.stepTimeSeconds);
  });

  it('where the layer counts are the same as the layers alone\'s (126 on 16 stages, v 1), the estimate is the same', () => {
    const plan: PlanInput = { ...llama405, pipeline: 16, nodes: 64, virtualStages: 1, schedule: '1f1b', overlapPipelineComm: false };
    const alone = ok(estimatePlan(plan));
    const counted = ok(estimatePlan({ ...plan, pipelineSlots: 'embedding-and-loss' }));
    expect(counted.stages.map((s) => s.layers)).toEqual(alone.stages.map((s) => s.layers));
    expect(counted.stepTimeSeconds).toBe(alone.stepTimeSeconds);
    expect(counted.memory.totalBytes).toBe(alone.memory.totalBytes);
  });
});

describe('the message when the layers have no split over the stages', () => {
  // Llama 3.1 405B's other settings, its layers and pipeline changed, no interleaving: only the split is at issue.
  const issue = (layers: number, pipeline: number): string => checkPlan({
    ...llama405, model: { ...llama405.model, layers }, pipeline, virtualStages: 1, schedule: '1f1b', nodes: pipeline * 4,
  }).find((i) => i.rule === 'pipeline-split')!.message;

  it('96 layers on 64 stages: says the middle stages alone would take more than there are (2 × 62 = 124 > 96), never a negative count', () => {
    const m = issue(96, 64);
    expect(m).toContain('the 62 middle stages at ⌈L/p⌉ = 2 layers each take 124, more than the 96');
    expect(m).not.toMatch(/-\d/);
    // By hand: the cluster is 64 × 32 GPUs at TP 8 · CP 4, so q stages fit where q divides 64: 32 is the largest below 64,
    // and 96 / 32 = 3 a stage (49 stages would split the layers, 1 + 47 × 2 + 1, but no TP 8 · CP 4 layout of 2,048 GPUs takes it).
    expect(m).toContain('32 is the most that split, evenly, that the GPUs take');
  });

  it('96 layers on 26 stages: 4 × 24 = 96 leave none for the first and last; says trainplan\'s rule is its own, not Megatron\'s', () => {
    const m = issue(96, 26);
    expect(m).toContain('leave 0 for the first and last');
    expect(m).toContain("allow thinner middle stages; trainplan plans ⌈L/p⌉");
    // By hand: 26 × 32 GPUs take q stages where q divides 26: 13 (⌈96/13⌉ = 8 on 11 middle stages, 8 left: 4 and 4)
    // splits; 2 is the most of them that divides 96.
    expect(m).toContain('13 is the most that split that the GPUs take, 2 the most that split evenly');
  });
});
