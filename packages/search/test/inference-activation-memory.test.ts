import { describe, expect, it } from 'vitest';
import { withShapeDefaults } from '@trainplan/model';
import { estimateInference, kvCacheBytesPerTokenFor, planInference, type InferenceEstimate, type InferenceShape } from '../src/index.ts';
import { forwardActivationBytes } from '../src/inference/activation-memory.ts';
import { llama70bBase as base } from './fixtures.ts';

const GiB = 2 ** 30;
const RUNTIME = 2 * GiB;

function estimate(s: InferenceShape): InferenceEstimate {
  const e = estimateInference(base, s);
  if (!e.ok) throw new Error(e.message);
  return e;
}

describe('the activations of one forward pass (a prefill\'s working set)', () => {
  it('Llama 2 70B on TP 4: the MLP\'s peak, the residual stream and its input (2h) beside gate, up and their product (3·f/t), in 16 bits', () => {
    expect(forwardActivationBytes(base.model, 4, 1000)).toBe(1000 * (2 * 8192 + (3 * 28672) / 4) * 2);
    // A plain MLP holds two f-wide tensors, not three.
    const plain = { ...base.model, gatedMlp: false };
    expect(forwardActivationBytes(plain, 4, 1000)).toBe(1000 * (2 * 8192 + (2 * 28672) / 4) * 2);
  });

  it('with a narrow MLP attention\'s Q, K, V and output are the larger working set', () => {
    const narrow = withShapeDefaults({ name: 'narrow', layers: 2, hiddenSize: 1024, attentionHeads: 8, ffnHiddenSize: 1024, gatedMlp: true, vocabSize: 1000, seqLength: 2048 });
    expect(forwardActivationBytes(narrow, 1, 10)).toBe(10 * (2 * 1024 + 4 * 1024) * 2);
  });
});

describe('static batching holds the activations of its prompts prefilled together (Llama 2 70B, TP 4, 2,048 + 512 tokens)', () => {
  const shape = { tensor: 4, pipeline: 1, promptTokens: 2048, outputTokens: 512 };

  it('the largest batch fits the GPU with them; the batch the KV cache alone would allow does not, and the refusal names them', () => {
    const one = estimate({ ...shape, batch: 1 });
    const kvPerSequence = 2560 * kvCacheBytesPerTokenFor(base, 4, 80);
    const kvOnly = Math.floor((one.capacityBytes - one.weightsBytesPerGpu - RUNTIME) / kvPerSequence);
    const full = estimate({ ...shape, batch: one.maxBatch });
    // b prompts of 2,048 tokens in one pass, 2,048 × (2 × 8,192 + 3 × 28,672 / 4) × 2 bytes = 148 MiB of activations a sequence.
    expect(full.forwardTokens).toBe(one.maxBatch * 2048);
    expect(full.activationBytesPerGpu).toBe(forwardActivationBytes(base.model, 4, one.maxBatch * 2048));
    expect(full.totalBytesPerGpu).toBeCloseTo(full.weightsBytesPerGpu + full.kvCacheBytesPerGpu + full.activationBytesPerGpu + RUNTIME, 0);
    expect(full.totalBytesPerGpu).toBeLessThanOrEqual(full.capacityBytes);
    expect(estimateInference(base, { ...shape, batch: one.maxBatch + 1 }).ok).toBe(false);
    // Each sequence brings 200 MiB of cache (2,560 tokens × 80 KiB) and 148 MiB of activations: 200/348 of the KV cache's batch.
    expect(one.maxBatch / kvOnly).toBeGreaterThan(0.55);
    expect(one.maxBatch / kvOnly).toBeLessThan(0.6);
    const over = estimateInference(base, { ...shape, batch: kvOnly });
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.message).toContain(`activations ${(forwardActivationBytes(base.model, 4, kvOnly * 2048) / GiB).toFixed(1)} GiB for ${(kvOnly * 2048).toLocaleString('en-US')} tokens in one forward pass`);
  });

  it('with PP the batch is prefilled a micro-batch at a time: its prompts\' activations, not the whole batch\'s', () => {
    const e = estimate({ ...shape, pipeline: 2, batch: 10 });
    expect(e.forwardTokens).toBe(5 * 2048);
  });

  it('no point the planner returns needs more than the GPU\'s memory, activations included', () => {
    const plan = planInference(base, { promptTokens: 2048, outputTokens: 512 });
    expect(plan.points.length).toBeGreaterThan(10);
    for (const p of plan.points) {
      expect(p.totalBytesPerGpu).toBeLessThanOrEqual(p.usableBytes);
      expect(p.activationBytesPerGpu).toBeGreaterThan(0);
    }
  });
});

describe('continuous batching holds the activations of one iteration: its decode tokens and the prompts or chunks admitted', () => {
  const shape = { tensor: 8, pipeline: 1, promptTokens: 2048, outputTokens: 128, batching: 'continuous' as const };

  it('64 sequences of 128 tokens admit half a prompt an iteration: the 64 decode tokens and one whole prompt', () => {
    expect(estimate({ ...shape, batch: 64 }).forwardTokens).toBe(64 + 2048);
  });

  it('in chunks of 512 tokens, the 32 sequences they keep running take one chunk an iteration with their decode tokens', () => {
    // 4 chunks a prompt; a slot held 128 + 4 − 1 = 131 iterations; 32 slots admit 32/131 of a prompt an iteration, 4 × 32/131
    // = 0.98 of a chunk: at most one chunk rides an iteration. (33 slots would need 33 × 2,048 / 131 = 516 prompt tokens an iteration: chunkBatchLimit.)
    const e = estimate({ ...shape, batch: 32, prefillChunkTokens: 512 });
    expect(e.forwardTokens).toBe(32 + 512);
    expect(e.activationBytesPerGpu).toBe(forwardActivationBytes(base.model, 8, 32 + 512));
  });

  it('in chunks of 4,096 tokens (two prompts), 256 sequences of 128 tokens admit 2 prompts an iteration: the whole budget', () => {
    const e = estimate({ ...shape, batch: 256, prefillChunkTokens: 4096 });
    expect(e.forwardTokens).toBe(256 + 2 * 2048);
    expect(e.activationBytesPerGpu).toBe(forwardActivationBytes(base.model, 8, 256 + 2 * 2048));
  });

  it('its largest batch fits with them, and one more does not', () => {
    const one = estimate({ ...shape, batch: 1 });
    const full = estimate({ ...shape, batch: one.maxBatch });
    expect(full.totalBytesPerGpu).toBeLessThanOrEqual(full.capacityBytes);
    expect(estimateInference(base, { ...shape, batch: one.maxBatch + 1 }).ok).toBe(false);
  });
});
