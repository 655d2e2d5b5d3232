import { describe, expect, it } from 'vitest';
import { estimateInference, type InferenceEstimate } from '../src/index.ts';
import { llama70bBase } from './fixtures.ts';

/** Llama 2 70B on TP 2 · PP 4, static batching: a batch of b runs as min(4, b) micro-batches. */
const at = (batch: number): InferenceEstimate => {
  const e = estimateInference(llama70bBase, { tensor: 2, pipeline: 4, batch, promptTokens: 2048, outputTokens: 256 });
  if (!e.ok) throw new Error(e.message);
  return e;
};

describe('static batching over pipeline stages costs each micro-batch at its own size', () => {
  it('a fifth prompt on 4 stages makes one micro-batch of 2, not four: each added prompt adds the same prefill', () => {
    const ttft = [4, 5, 6, 7, 8].map((b) => at(b).prefillSeconds);
    // Batches 5–8 split as [2,1,1,1] … [2,2,2,2]: the fuller micro-batch goes first, so from 6 on each added prompt
    // turns one later micro-batch of 1 into 2, adding its slowest stage's difference (a proportionate flow shop).
    const steps = ttft.slice(1).map((s, i) => s - ttft[i]!);
    for (const step of steps) expect(step).toBeGreaterThan(0);
    expect(steps[2]).toBeCloseTo(steps[1]!, 9);
    expect(steps[3]).toBeCloseTo(steps[1]!, 9);
    // Batch 5's first tokens come well before batch 8's (they were costed the same, each micro-batch at ⌈5/4⌉ = 2).
    expect(ttft[1]!).toBeLessThan(ttft[4]! * 0.85);
  });

  it('the activations held are the fuller micro-batch\'s prompts', () => {
    expect(at(5).forwardTokens).toBe(2 * 2048);
    expect(at(4).forwardTokens).toBe(2048);
  });
});
