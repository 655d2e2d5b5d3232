import { describe, expect, it } from 'vitest';
import { runEstimate, runSearch, toMegatronArgs, toNemoYaml, type EstimateOk, type SearchOkJson } from '../src/index.ts';

/** Llama 3 70B on 8 H100 nodes, TP 8 · PP 4: a plan that fits with or without dropout. */
const llama = (training: Record<string, unknown> = {}) => ({
  model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 8 },
  training: { globalBatchSize: 128, ...training },
  parallelism: { tensor: 8, pipeline: 4, sequenceParallel: true, recompute: 'selective', distributedOptimizer: true },
});
const estimate = (scenario: unknown) => runEstimate(scenario) as EstimateOk;

describe('training.dropout defaults to how the model was trained', () => {
  it('Llama 3 70B (trained without dropout): off, the same answer as dropout: false', () => {
    const byDefault = estimate(llama());
    expect(byDefault.ok).toBe(true);
    expect(byDefault.resolved.dropout).toBe(false);
    expect(byDefault).toEqual(estimate(llama({ dropout: false })));
  });

  it('dropout: true still asks for it, and costs time and the masks\' memory (Korthikanti 2022, Table 2)', () => {
    const without = estimate(llama());
    const withDropout = estimate(llama({ dropout: true }));
    expect(withDropout.resolved.dropout).toBe(true);
    expect(withDropout.stepTimeSeconds).toBeGreaterThan(without.stepTimeSeconds);
    expect(withDropout.memory.activationsBytes).toBeGreaterThan(without.memory.activationsBytes);
  });

  it('GPT-3 175B (trained as Megatron-LM runs it): on', () => {
    const gpt3 = estimate({ ...llama(), model: 'gpt3-175b' });
    expect(gpt3.resolved.dropout).toBe(true);
  });

  it('a model given by its shape gets Megatron-LM\'s default, on', () => {
    const shape = { name: 'custom', layers: 32, hiddenSize: 4096, attentionHeads: 32, vocabSize: 32000, seqLength: 2048 };
    expect(estimate({ ...llama(), model: shape }).resolved.dropout).toBe(true);
  });
});

describe('a search plans with the model\'s dropout and exports it', () => {
  const answer = runSearch({ model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 8 }, training: { globalBatchSize: 128 }, top: 1 }) as SearchOkJson;

  it('writes dropout: false into the Llama plan, which then estimates the same', () => {
    expect(answer.ok).toBe(true);
    expect(answer.best.scenario.training.dropout).toBe(false);
    expect(runEstimate(answer.best.scenario)).toEqual(answer.best.estimate);
  });

  it('the Megatron-LM arguments turn its 0.1 default off, and the NeMo config says 0', () => {
    expect(toMegatronArgs(answer.best.scenario)).toContain('--attention-dropout 0');
    expect(toMegatronArgs(answer.best.scenario)).toContain('--hidden-dropout 0');
    expect(toNemoYaml(answer.best.scenario)).toMatch(/hidden_dropout: 0\n/);
  });
});

describe('resolved states the kernels costed, defaults included (a client sees which attention was assumed)', () => {
  const v100 = { model: 'gpt3-1.3b', cluster: { gpu: 'v100-32gb', nodes: 1 }, training: { globalBatchSize: 8, precision: 'fp16' }, parallelism: { tensor: 2 } };
  it('a V100 without a kernel named: unfused attention (it cannot run FlashAttention), a fused loss', () => {
    const e = estimate(v100);
    expect(e.ok).toBe(true);
    expect([e.resolved.attentionKernel, e.resolved.crossEntropyKernel]).toEqual(['unfused', 'fused']);
  });
  it('an H100 without one: flash; and a kernel named is the one stated', () => {
    expect(estimate(llama()).resolved.attentionKernel).toBe('flash');
    const named = estimate(llama({ attentionKernel: 'unfused', crossEntropyKernel: 'unfused' }));
    expect([named.resolved.attentionKernel, named.resolved.crossEntropyKernel]).toEqual(['unfused', 'unfused']);
  });
});
