import { describe, expect, it } from 'vitest';
import { activationBytesPerLayer, parameterBreakdown } from '@trainplan/model';
import { GiB } from '@trainplan/units';
import { estimatePlan } from '../src/index.ts';
import { activationInput } from '../src/plan-memory.ts';
import { gpt3OnSelene } from './fixtures.ts';

const ok = (r: ReturnType<typeof estimatePlan>) => (r.ok ? r : r.estimate)!;

// What a layer holds only while it runs, beyond its stored activations (packages/planner/src/plan-memory.ts).
describe('transient memory of the layer in its backward pass', () => {
  it('selective recompute with unfused attention rebuilds one layer\'s attention core: 5·as²b/t with dropout', () => {
    const plan = { ...gpt3OnSelene, recompute: 'selective' as const, attentionKernel: 'unfused' as const, sequenceParallel: true };
    const e = ok(estimatePlan(plan));
    const stage = e.stages[1]!; // a middle stage: no embedding terms
    const held = plan.pipeline - 1; // 1F1B, stage 1
    const stored = activationBytesPerLayer(activationInput(plan));
    const { seqLength: s, microBatchSize: b } = plan;
    const core = (5 * plan.model.attentionHeads * s * s * b) / plan.tensor; // Korthikanti Table 2: softmax 2, mask 1, dropout output 2
    expect(stage.memory.activationsBytes).toBe(Math.ceil(held * stage.layers * stored + core));
  });

  it('adds nothing with flash attention, which keeps its core anyway', () => {
    const plan = { ...gpt3OnSelene, recompute: 'selective' as const, sequenceParallel: true };
    const e = ok(estimatePlan(plan));
    const stage = e.stages[1]!;
    expect(stage.memory.activationsBytes).toBe(Math.ceil((plan.pipeline - 1) * stage.layers * activationBytesPerLayer(activationInput(plan))));
  });

  it('ZeRO-3 holds the largest gathered unit whole: its 16-bit weights and gradient (a layer, or a large vocabulary\'s embedding)', () => {
    // GPT-3 175B at TP 8 · DP 128 without a pipeline (ZeRO-3 runs with none: check-plan.ts): its one stage holds the
    // embedding and every layer, so the largest unit is a layer at its 51,200 vocabulary and the embedding at 512k.
    const zero3 = (vocabSize: number) => ({ ...gpt3OnSelene, model: { ...gpt3OnSelene.model, vocabSize }, pipeline: 1, data: 128, sharding: 'zero-3' as const });
    const gathered = (plan: ReturnType<typeof zero3>) => {
      const stage = ok(estimatePlan(plan)).stages[0]!.memory;
      return stage.otherBytes - GiB(1.5) - 0.1 * stage.activationsBytes;
    };
    const parts = parameterBreakdown(zero3(512_000).model);
    const layer = parts.perLayerTensorParallel / 8 + parts.perLayerReplicated;
    const embedding = (vocab: number) => (vocab * 12_288) / 8 + parts.positionEmbedding;
    expect(embedding(512_000)).toBeGreaterThan(layer); // 512,000 × 12,288 / 8 + 2,048 × 12,288 against 12h²/8 + 13h
    expect(embedding(51_200)).toBeLessThan(layer); // 51,200 × 12,288 / 8 + 2,048 × 12,288 = 103.8 M against 226.7 M
    expect(gathered(zero3(51_200))).toBeCloseTo(4 * layer, -1);
    expect(gathered(zero3(512_000))).toBeCloseTo(4 * embedding(512_000), -1);
    // Without ZeRO-3 nothing is gathered.
    const plain = ok(estimatePlan(gpt3OnSelene)).stages[1]!.memory;
    expect(plain.otherBytes - GiB(1.5) - 0.1 * plain.activationsBytes).toBeLessThan(2);
  });
});
