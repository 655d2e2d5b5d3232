import { describe, expect, it } from 'vitest';
import { gpuById } from '@trainplan/hardware';
import {
  causalTileFraction, COMPUTE_CALIBRATION, estimatePlan, flashBlockEfficiency, flashLaunchEfficiency, flashWaveEfficiency, gemmSeconds, kernelContext, layerComputeCost, linearGemmShapes, peak16,
  tileWaveEfficiency, type PlanInput,
} from '../src/index.ts';
import { GEMM_TILES } from '../src/kernel-time.ts';
import { gpt3OnSelene, llamaOnH100 } from './fixtures.ts';

describe('GEMM tile and wave quantisation', () => {
  it('one full wave of 128×128 tiles on 108 SMs wastes nothing but the tile\'s own efficiency', () => {
    // The larger tiles would cover 128 × 13,824 half empty (one 128-row strip of 256-row tiles).
    const tile = GEMM_TILES.find((t) => t.m === 128 && t.n === 128)!;
    expect(tileWaveEfficiency(128, 128 * 108, 1, 108)).toBe(tile.efficiency);
  });
  it('larger tiles are at least as efficient as smaller ones (the guide\'s data-reuse argument)', () => {
    const reuse = (t: { m: number; n: number }) => (t.m * t.n) / (t.m + t.n);
    for (const a of GEMM_TILES) for (const b of GEMM_TILES) if (reuse(a) > reuse(b)) expect(a.efficiency).toBeGreaterThanOrEqual(b.efficiency);
  });
  it('one tile past a full wave loses efficiency (wave quantisation)', () => {
    expect(tileWaveEfficiency(128, 128 * 109, 1, 108)).toBeLessThan(0.6);
  });
  it('padding a dimension to the tile (tile quantisation) lowers efficiency', () => {
    // 1536×1152 is exactly one wave of 128×128 tiles on 108 SMs; one more row needs a 13th tile row.
    expect(tileWaveEfficiency(1536 + 1, 1152, 1, 108)).toBeLessThan(tileWaveEfficiency(1536, 1152, 1, 108));
  });
  it('without wave quantisation a partly empty last wave costs only its share (one tile past a full wave)', () => {
    const tile = GEMM_TILES.find((t) => t.m === 128 && t.n === 128)!;
    expect(tileWaveEfficiency(128, 128 * 109, 1, 108, false)).toBeGreaterThanOrEqual(tile.efficiency);
    expect(tileWaveEfficiency(128, 128 * 109, 1, 108, false)).toBeGreaterThan(tileWaveEfficiency(128, 128 * 109, 1, 108));
  });
  it('is never above 1', () => {
    for (const m of [1, 7, 128, 1000, 2048, 8192]) for (const n of [1, 64, 96, 3072, 12288]) {
      expect(tileWaveEfficiency(m, n, 1, 132)).toBeLessThanOrEqual(1);
    }
  });
});

describe('GEMM roofline', () => {
  const ctx = kernelContext(gpt3OnSelene, COMPUTE_CALIBRATION.ampere);
  it('a large square GEMM runs at the calibrated fraction of peak times its wave fill', () => {
    const n = 8192;
    const seconds = gemmSeconds(ctx, { m: n, n, k: n });
    const fraction = (2 * n ** 3) / seconds / gpuById('a100-80gb')!.peakFlops.bf16!;
    // 256×128 tiles: 32 × 64 = 2048 tiles on 108 SMs take 19 waves, 2048 / 2052 of them useful.
    const ceiling = COMPUTE_CALIBRATION.ampere.gemmPeakFraction * (2048 / (19 * 108));
    expect(fraction).toBeLessThanOrEqual(ceiling);
    expect(fraction).toBeGreaterThan(ceiling * 0.995); // less at most a kernel launch's share
  });
  it('a skinny GEMM is bound by HBM traffic, not tensor cores', () => {
    const seconds = gemmSeconds(ctx, { m: 8192, n: 8192, k: 16 });
    const bytes = 2 * (8192 * 16 * 2) + 2 * 8192 * 8192;
    expect(seconds).toBeGreaterThanOrEqual(bytes / gpuById('a100-80gb')!.hbmBandwidth);
  });
});

describe('a layer\'s linear GEMMs (Megatron\'s column- and row-parallel linears)', () => {
  it('GPT-3 175B at TP 8: QKV 3h/8 wide, the projection and fc2 reducing h/8 and 4h/8, fc1 4h/8 wide', () => {
    const h = 12288;
    expect(gpt3OnSelene.model.hiddenSize).toBe(h);
    const shapes = linearGemmShapes(gpt3OnSelene.model, 8, 2048);
    expect(shapes.map((g) => [g.name, g.m, g.n, g.k])).toEqual([
      ['qkv', 2048, (3 * h) / 8, h], ['proj', 2048, h, h / 8], ['fc1', 2048, (4 * h) / 8, h], ['fc2', 2048, h, (4 * h) / 8],
    ]);
  });
  it('grouped-query attention narrows QKV to the query width plus two key/value groups; a gated MLP doubles fc1', () => {
    // Llama 3 70B: h 8,192, 64 heads of 128, 8 key/value heads, SwiGLU of 28,672 (Meta's params.json).
    const llama = { ...gpt3OnSelene.model, hiddenSize: 8192, attentionHeads: 64, kvHeads: 8, ffnHiddenSize: 28672, gatedMlp: true };
    const [qkv, , fc1, fc2] = linearGemmShapes(llama, 8, 8192);
    expect(qkv!.n).toBe((8192 + 2 * 8 * 128) / 8);
    expect(fc1!.n).toBe((2 * 28672) / 8);
    expect(fc2!.k).toBe(28672 / 8);
  });
});

describe('causal flash attention tiles', () => {
  it('one 128-token tile is computed whole; 2,048 tokens compute 17 of every 32 tiles (16 × 17 / 2 of 16 × 16)', () => {
    expect(causalTileFraction(128)).toBe(1);
    expect(causalTileFraction(2048)).toBe(17 / 32);
    // A partial last tile is computed as a whole one.
    expect(causalTileFraction(2049)).toBe(causalTileFraction(2176));
  });
  it('falls toward one half as the sequence grows, never below it', () => {
    const fractions = [256, 1024, 4096, 16384, 131072].map(causalTileFraction);
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]).toBeLessThan(fractions[i - 1]!);
    expect(fractions.at(-1)).toBeGreaterThan(0.5);
    expect(fractions.at(-1)).toBeLessThan(0.501);
  });
});

describe('a flash kernel\'s per-block cost (flashBlockEfficiency)', () => {
  it('is k̄ / (k̄ + c) for k̄ the key tiles a causal query tile meets on average, (T + 1) / 2 for T tiles', () => {
    expect(flashBlockEfficiency(8192, 8192, 9)).toBeCloseTo(32.5 / 41.5, 12);
    expect(flashBlockEfficiency(2048, 2048, 9)).toBeCloseTo(8.5 / 17.5, 12);
  });
  it('costs nothing without a per-block cost, and less as sequences grow', () => {
    expect(flashBlockEfficiency(1024, 1024, 0)).toBe(1);
    const shares = [2048, 8192, 32768, 131072].map((s) => flashBlockEfficiency(s, s, 9));
    for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeGreaterThan(shares[i - 1]!);
    expect(shares.at(-1)).toBeGreaterThan(0.98);
  });
  it('context parallelism launches over each GPU\'s chunk: half the keys a block meets, a lower share', () => {
    expect(flashBlockEfficiency(4096, 8192, 9)).toBeLessThan(flashBlockEfficiency(8192, 8192, 9));
  });
  it('in a layer: the attention of a 2,048-token sequence runs at a lower rate than an 8,192-token one, on Hopper, not on Ampere', () => {
    // Causal attention FLOPs grow as s² over the causal tiles: time per FLOP is what the block cost moves.
    const perFlop = (input: PlanInput) => {
      const cost = layerComputeCost(input, kernelContext(input, COMPUTE_CALIBRATION[input.gpu.generation]), peak16(input.gpu));
      return (cost.attentionForward - COMPUTE_CALIBRATION[input.gpu.generation].kernelOverhead) / (input.seqLength ** 2 * causalTileFraction(input.seqLength));
    };
    const at = (base: PlanInput, seqLength: number): PlanInput => ({ ...base, context: 1, seqLength, model: { ...base.model, seqLength } });
    const hopper = perFlop(at(llamaOnH100, 2048)) / perFlop(at(llamaOnH100, 8192));
    // Llama 3 70B at TP 4: 16 heads a GPU, one sequence, 132 SMs; 5 key tiles a block.
    const share = (s: number) => flashLaunchEfficiency({ localTokens: s, seqLength: s, sequencesTimesHeads: 16, smCount: 132, overheadTiles: 5 });
    expect(COMPUTE_CALIBRATION.hopper.attentionBlockOverheadTiles).toBe(5);
    expect(hopper).toBeCloseTo(share(8192) / share(2048), 6);
    expect(hopper).toBeGreaterThan(1.5);
    const ampereLlama: PlanInput = { ...llamaOnH100, gpu: gpt3OnSelene.gpu, fabric: gpt3OnSelene.fabric };
    expect(perFlop(at(ampereLlama, 2048)) / perFlop(at(ampereLlama, 8192))).toBeCloseTo(1, 6);
  });
});

describe('a causal flash launch\'s last wave (flashWaveEfficiency)', () => {
  it('is half a wave of its B blocks over S SMs: B/S waves of work take B/S + 1/2', () => {
    expect(flashWaveEfficiency(132, 132)).toBeCloseTo(1 / 1.5, 12);
    expect(flashWaveEfficiency(1320, 132)).toBeCloseTo(10 / 10.5, 12);
  });
  it('a launch of many blocks loses little to it; the launch model is only Hopper\'s (no per-block cost, no tail)', () => {
    expect(flashWaveEfficiency(100_000, 132)).toBeGreaterThan(0.999);
    expect(flashLaunchEfficiency({ localTokens: 2048, seqLength: 2048, sequencesTimesHeads: 1, smCount: 108, overheadTiles: 0 })).toBe(1);
  });
});

describe('context parallelism\'s chunks and the flash rate they leave (an estimate\'s warning)', () => {
  const warningsOf = (input: PlanInput): readonly string[] => {
    const e = estimatePlan(input);
    if (!('warnings' in e)) throw new Error(`the plan is refused: ${e.message}`);
    return e.warnings;
  };
  const chunkWarning = (input: PlanInput) => warningsOf(input).find((w) => w.startsWith('context parallelism of'));
  const at = (base: PlanInput, seqLength: number): PlanInput => ({ ...base, seqLength, model: { ...base.model, seqLength } });

  it('Llama 3 70B at 8,192 tokens with CP 2 (NVIDIA\'s recipe) is not warned: 4k chunks keep most of the rate', () => {
    expect(chunkWarning(llamaOnH100)).toBeUndefined();
  });
  it('2,048-token sequences split in two are, with both rates', () => {
    const share = (local: number) => Math.round(100 * flashLaunchEfficiency({
      localTokens: local, seqLength: 2048, sequencesTimesHeads: 16, smCount: 132, overheadTiles: COMPUTE_CALIBRATION.hopper.attentionBlockOverheadTiles,
    }));
    expect(chunkWarning(at(llamaOnH100, 2048))).toBe(`context parallelism of 2 splits each 2,048-token sequence into 1,024-token chunks: flash attention runs at ${share(1024)}% `
      + `of its long-sequence rate on them, ${share(2048)}% on whole sequences (a thread block's fixed cost over fewer key tiles, and fewer blocks to fill the GPU)`);
  });
  it('not where the GPU generation charges no per-block cost (Ampere)', () => {
    expect(chunkWarning({ ...at(llamaOnH100, 2048), gpu: gpt3OnSelene.gpu, fabric: gpt3OnSelene.fabric })).toBeUndefined();
  });
});
