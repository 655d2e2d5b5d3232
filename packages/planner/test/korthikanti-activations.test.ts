import { describe, expect, it } from 'vitest';
import { estimatePlan, type PlanInput } from '../src/index.ts';
import { gpt3OnSelene } from './fixtures.ts';

/**
 * The activation memory the planner composes for a pipeline stage against Korthikanti et al. 2022 (arXiv:2205.05198)
 * in the paper's symbols: Table 2 per layer, §4.2.3 (1F1B's first stage keeps p micro-batches of its L/p layers,
 * L layers' worth whatever p is) and §4.3 (the first stage's embedding dropout mask, sbhp/t with sequence parallelism;
 * the last stage's final norm, output layer and fp32 logits, 4sbh/t·(1 + v/h)). GPT-3 175B, t = 8, p = 8, s = 2048, b = 1,
 * 16-bit values, unfused attention with dropout, as the paper ran it.
 */
const a = 96, h = 12288, L = 96, v = 51200, s = 2048, b = 1, t = 8, p = 8;
const sbh = s * b * h;
const plan: PlanInput = { ...gpt3OnSelene, attentionKernel: 'unfused', dropout: true, sequenceParallel: true, recompute: 'none' };

/** Activation bytes of the first and last stages. */
function stages(input: PlanInput): { first: number; last: number } {
  const e = estimatePlan(input);
  const estimate = e.ok ? e : e.estimate;
  if (estimate === undefined) throw new Error(e.ok ? '' : e.message);
  return { first: estimate.stages[0]!.memory.activationsBytes, last: estimate.stages[p - 1]!.memory.activationsBytes };
}

describe('a pipeline stage holds what Korthikanti et al. 2022 count (GPT-3 175B, t = 8, p = 8)', () => {
  it('tensor + sequence parallel: the first stage holds sbhL/t·(34 + 5as/h) plus the embedding dropout mask sbhp/t', () => {
    expect(stages(plan).first).toBe(((sbh * L) / t) * (34 + (5 * a * s) / h) + (sbh * p) / t);
  });

  it('tensor parallel alone: sbhL·(10 + 24/t + 5as/(ht)), and the embedding mask sbhp whole on every rank', () => {
    expect(stages({ ...plan, sequenceParallel: false }).first).toBe(sbh * L * (10 + 24 / t + (5 * a * s) / (h * t)) + sbh * p);
  });

  it('selective recompute: 34·sbhL/t, plus the one attention core 5as²b/t its backward rebuilds at a time', () => {
    expect(stages({ ...plan, recompute: 'selective' }).first).toBe((34 * sbh * L) / t + (5 * a * s * s * b) / t + (sbh * p) / t);
  });

  it('full recompute: 2·sbhL/t of layer inputs, plus one layer rebuilt whole, sbh/t·(34 + 5as/h)', () => {
    expect(stages({ ...plan, recompute: 'full' }).first).toBe((2 * sbh * L) / t + (sbh / t) * (34 + (5 * a * s) / h) + (sbh * p) / t);
  });

  it('the last stage holds one micro-batch of its L/p layers and 4sbh/t·(1 + v/h) for the final norm, output layer and logits', () => {
    expect(stages(plan).last).toBe(((sbh * L) / (t * p)) * (34 + (5 * a * s) / h) + ((4 * sbh) / t) * (1 + v / h));
  });

  it('under GPipe every micro-batch\'s forward runs before any backward: the last stage holds m of each term, the logits too', () => {
    // Huang et al. 2019 (GPipe): the stage keeps every micro-batch's activations until the backward pass begins.
    const m = 8;
    const gpipe: PlanInput = { ...plan, schedule: 'gpipe', globalBatchSize: m * b * plan.data };
    expect(stages(gpipe).last).toBe(m * (((sbh * L) / (t * p)) * (34 + (5 * a * s) / h) + ((4 * sbh) / t) * (1 + v / h)));
  });
});

