import { describe, expect, it } from 'vitest';
import { gpuById } from '@trainplan/hardware';
import { estimatePlan, type PlanEstimate, type PlanInput } from '../src/index.ts';
import { a100Fabric, llamaOnH100 } from './fixtures.ts';

function ok(input: PlanInput): PlanEstimate {
  const e = estimatePlan(input);
  if (!e.ok) throw new Error(`expected a feasible plan: ${e.message}`);
  return e;
}

/** Llama 3 70B at `seqLength` tokens, one sequence a micro-batch, on H100s with enough GPUs for the CP asked. */
const at = (seqLength: number, context: number, more: Partial<PlanInput> = {}): PlanInput => ({
  ...llamaOnH100, seqLength, context, nodes: (4 * 4 * context * 2) / 8, data: 2, globalBatchSize: 16, recompute: 'full', ...more,
});

describe('long sequences', () => {
  it('warns where one GPU\'s attention launch runs past the 32,768 tokens the attention model was fitted on, not at or under it', () => {
    const past = ok(at(65_536, 1)).warnings.find((w) => w.includes('past the 32,768'));
    expect(past).toMatch(/^each GPU's attention runs over 65,536 tokens, past the 32,768 .*5–8% longer than charged/);
    expect(ok(at(131_072, 2)).warnings.some((w) => w.includes('(its share of the 131,072-token sequence)'))).toBe(true);
    expect(ok(at(131_072, 4)).warnings.some((w) => w.includes('past the 32,768'))).toBe(false);
    expect(ok(at(32_768, 1)).warnings.some((w) => w.includes('past the 32,768'))).toBe(false);
  });
  it('says nothing of it on an A100: the measurement and the fitted constants are Hopper\'s', () => {
    const a100 = at(65_536, 1, { gpu: gpuById('a100-80gb')!, fabric: a100Fabric });
    expect(ok(a100).warnings.some((w) => w.includes('past the 32,768'))).toBe(false);
  });
  it('gives the causal MFU where it is a tenth or more below the full count: Llama 3 70B at 32k (causal ÷ full FLOPs about 0.81)', () => {
    const e = ok(at(32_768, 2));
    const note = e.warnings.find((w) => w.startsWith('MFU counts attention over every (query, key) pair'));
    expect(note).toBeDefined();
    const causal = Number(/it is ([\d.]+)%/.exec(note!)![1]) / 100;
    expect(causal / e.mfu).toBeGreaterThan(0.75);
    expect(causal / e.mfu).toBeLessThan(0.9);
    // At 8,192 tokens the two counts are within a tenth: no second figure.
    expect(ok(at(8_192, 2)).warnings.some((w) => w.startsWith('MFU counts attention'))).toBe(false);
  });
  it('a recomputed layer repeats its ring attention\'s K/V exchanges: full recompute adds one forward\'s exchanges a layer to the total', () => {
    // A GPU with room for every activation, so the plan without recompute runs too: only the time is compared.
    const roomy = { gpu: { ...llamaOnH100.gpu, hbmBytes: 2 ** 40 } };
    const none = ok(at(65_536, 4, { ...roomy, recompute: 'none' }));
    const full = ok(at(65_536, 4, { ...roomy, recompute: 'full' }));
    const b = (e: PlanEstimate) => e.breakdown.contextParallelCommTotalSeconds;
    expect(b(none)).toBeGreaterThan(0);
    // Forward exchanges are a third of forward + backward (backward sends twice the K/V, dK/dV included: comm-time.ts).
    expect(b(full) / b(none)).toBeGreaterThan(1.2);
    expect(b(full) / b(none)).toBeLessThan(1.6);
  });
});
