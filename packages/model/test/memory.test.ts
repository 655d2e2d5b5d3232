import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  activationBytesPerLayer, bytesPerParameter, embeddingActivationBytes, fp8WeightCopyBytes, inFlightMicroBatches, kvCacheBytesPerToken, modelStateBytes,
  type ActivationInput,
} from '../src/index.ts';
import { gpt3_175b, korthikanti22b, llama3_70b } from './fixtures.ts';

// Korthikanti et al. 2022, Table 2: activation bytes per layer (16-bit), asserted exactly.
describe('activation memory per layer (Korthikanti Table 2)', () => {
  const shape = gpt3_175b;
  const s = 2048, b = 1, h = 12288, a = 96;
  const base: ActivationInput = {
    shape, microBatchSize: b, seqLength: s, tensorParallel: 1, sequenceParallel: false, recompute: 'none',
    attentionKernel: 'unfused', dropout: true,
  };
  const sbh = s * b * h;

  it('no parallelism: sbh(34 + 5as/h)', () => {
    expect(activationBytesPerLayer(base)).toBe(sbh * (34 + (5 * a * s) / h));
  });
  it.each([2, 4, 8])('tensor parallel t=%i: sbh(10 + 24/t + 5as/(ht))', (t) => {
    expect(activationBytesPerLayer({ ...base, tensorParallel: t })).toBeCloseTo(sbh * (10 + 24 / t + (5 * a * s) / (h * t)), 3);
  });
  it.each([2, 4, 8])('tensor + sequence parallel t=%i: sbh/t(34 + 5as/h)', (t) => {
    expect(activationBytesPerLayer({ ...base, tensorParallel: t, sequenceParallel: true }))
      .toBeCloseTo((sbh / t) * (34 + (5 * a * s) / h), 3);
  });
  it.each([2, 4, 8])('tensor + sequence parallel + selective recompute t=%i: 34·sbh/t', (t) => {
    expect(activationBytesPerLayer({ ...base, tensorParallel: t, sequenceParallel: true, recompute: 'selective' }))
      .toBeCloseTo((sbh / t) * 34, 3);
  });
  it('full recompute keeps the layer input: 2·sbh, and 2·sbh/t with sequence parallelism', () => {
    expect(activationBytesPerLayer({ ...base, tensorParallel: 8, recompute: 'full' })).toBe(2 * sbh);
    expect(activationBytesPerLayer({ ...base, tensorParallel: 8, sequenceParallel: true, recompute: 'full' })).toBe((2 * sbh) / 8);
  });
  it('flash attention removes the 5as/h term, keeping an fp32 log-sum-exp per query and head', () => {
    const flash = activationBytesPerLayer({ ...base, attentionKernel: 'flash' });
    expect(flash).toBe(34 * sbh + 4 * a * s * b);
  });
  it('GQA shrinks K and V; SwiGLU keeps three f-wide intermediates', () => {
    const input = { ...base, shape: llama3_70b, seqLength: 8192, attentionKernel: 'flash' as const, dropout: false };
    const sbh70 = 8192 * 8192;
    const expected = sbh70 * (8 + 2 * (1 + 2 * (8 / 64)) + 2) + 2 * 3 * 8192 * 28672 + 4 * 64 * 8192;
    expect(activationBytesPerLayer(input)).toBe(expected);
  });
  it('FP8 keeps the four linear inputs at one byte: QKV, MLP and projection inputs sbh each and the fc2 input sbf less', () => {
    // GPT-3: f = 4h, so 3·sbh + 4·sbh = 7·sbh of the 34.
    expect(activationBytesPerLayer(base) - activationBytesPerLayer({ ...base, linearInputBytes: 1 })).toBe(7 * sbh);
    // Tensor parallel without sequence parallelism: the QKV and MLP inputs are whole on every rank, the others split.
    const tp8 = { ...base, tensorParallel: 8 };
    expect(activationBytesPerLayer(tp8) - activationBytesPerLayer({ ...tp8, linearInputBytes: 1 })).toBeCloseTo(2 * sbh + (5 * sbh) / 8, 3);
    // SwiGLU: the fc2 input is the gate·up product, one of the three f-wide intermediates. With flash attention and no
    // recompute the kernel keeps its 16-bit output beside the projection's FP8 cast: 2·sbh + 1·sbh where 16-bit shares 2·sbh.
    const llama = { ...base, shape: llama3_70b, seqLength: 8192, attentionKernel: 'flash' as const, dropout: false };
    const sbh70 = 8192 * 8192;
    expect(activationBytesPerLayer(llama) - activationBytesPerLayer({ ...llama, linearInputBytes: 1 })).toBe(2 * sbh70 - sbh70 + 8192 * 28672);
    // Selective recompute reruns the core from Q, K, V: the projection's FP8 cast alone, a full sbh saved.
    const selective = { ...llama, recompute: 'selective' as const };
    expect(activationBytesPerLayer(selective) - activationBytesPerLayer({ ...selective, linearInputBytes: 1 })).toBe(3 * sbh70 + 8192 * 28672);
  });
  it('context parallelism divides the per-rank sequence', () => {
    const one = activationBytesPerLayer({ ...base, shape: llama3_70b, seqLength: 8192, attentionKernel: 'flash' });
    const two = activationBytesPerLayer({ ...base, shape: llama3_70b, seqLength: 8192, attentionKernel: 'flash', contextParallel: 2 });
    expect(two).toBeCloseTo(one / 2, 3);
  });
});

describe('pipeline in-flight micro-batches', () => {
  it('1F1B keeps p micro-batches in flight on the first stage (min(p, m))', () => {
    expect(inFlightMicroBatches({ schedule: '1f1b', pipeline: 8, microBatches: 64, virtualStages: 1 })).toBe(8);
    expect(inFlightMicroBatches({ schedule: '1f1b', pipeline: 8, microBatches: 3, virtualStages: 1 })).toBe(3);
  });
  it('1F1B keeps p − i micro-batches in flight on stage i (min(p − i, m))', () => {
    expect(inFlightMicroBatches({ schedule: '1f1b', pipeline: 8, microBatches: 64, virtualStages: 1, stage: 5 })).toBe(3);
    expect(inFlightMicroBatches({ schedule: '1f1b', pipeline: 8, microBatches: 64, virtualStages: 1, stage: 7 })).toBe(1);
    expect(inFlightMicroBatches({ schedule: '1f1b', pipeline: 8, microBatches: 2, virtualStages: 1, stage: 5 })).toBe(2);
  });
  it('interleaving multiplies it by 1 + (p−1)/(p·v) (Korthikanti §4.2.3)', () => {
    expect(inFlightMicroBatches({ schedule: 'interleaved', pipeline: 8, microBatches: 64, virtualStages: 3 }))
      .toBeCloseTo(8 * (1 + 7 / 24), 12);
  });
  it("interleaved, stage i runs 2(p−i−1) + (v−1)p warm-up chunks and holds one more (Megatron-Core's num_warmup_microbatches)", () => {
    const at = (stage: number, microBatches = 64) => inFlightMicroBatches({ schedule: 'interleaved', pipeline: 4, microBatches, virtualStages: 2, stage });
    // p = 4, v = 2: chunks held (2·(3 − i) + 4 + 1), each half a stage.
    expect([0, 1, 2, 3].map((i) => at(i))).toEqual([11 / 2, 9 / 2, 7 / 2, 5 / 2]);
    // The last stage holds nearly p micro-batches' worth, where 1F1B's holds one.
    expect(at(3)).toBeGreaterThan(2 * inFlightMicroBatches({ schedule: '1f1b', pipeline: 4, microBatches: 64, virtualStages: 1, stage: 3 }));
    // Warm-up is capped by the m·v chunks there are: 4 micro-batches of 2 chunks on stage 0 hold all 8 chunks.
    expect(at(0, 4)).toBe(4);
  });
  it('GPipe keeps every micro-batch', () => {
    expect(inFlightMicroBatches({ schedule: 'gpipe', pipeline: 8, microBatches: 64, virtualStages: 1 })).toBe(64);
  });
  it('the last stage stores the final norm input 2·sbh/t, the output layer input 2·sbh/t and fp32 logits 4·sbV/t', () => {
    const { last } = embeddingActivationBytes({
      shape: korthikanti22b, microBatchSize: 1, seqLength: 2048, tensorParallel: 8, sequenceParallel: true,
      recompute: 'none', attentionKernel: 'unfused', dropout: true, inFlight: 1,
    });
    // Korthikanti §4.3's 4sbh/t·(1 + v/h) = 2sbh/t + 2sbh/t + 4sbv/t with s = 2048, b = 1, h = 6144, v = 51200, t = 8:
    // 3,145,728 + 3,145,728 + 52,428,800 bytes.
    expect(last).toBe(3_145_728 + 3_145_728 + 52_428_800);
  });
});

describe('model states per parameter', () => {
  it('Megatron mixed precision with Adam holds 18 bytes per parameter', () => {
    expect(bytesPerParameter('none', 64)).toBe(18);
  });
  it.each([1, 2, 8, 64])('the distributed optimizer holds 6 + 12/d bytes per parameter (d = %i)', (d) => {
    expect(bytesPerParameter('distributed-optimizer', d)).toBeCloseTo(6 + 12 / d, 12);
  });
  it.each([
    ['zero-1', 8, 2 + 2 + 12 / 8],
    ['zero-2', 8, 2 + (2 + 12) / 8],
    ['zero-3', 8, 16 / 8],
  ] as const)('DeepSpeed %s with d=%i holds %d bytes per parameter', (mode, d, expected) => {
    expect(bytesPerParameter(mode, d)).toBeCloseTo(expected, 12);
  });
  it('sharding never increases memory as data parallelism grows', () => {
    fc.assert(fc.property(
      fc.constantFrom('none', 'distributed-optimizer', 'zero-1', 'zero-2', 'zero-3' as const),
      fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 1, max: 8 }),
      (mode, d, k) => bytesPerParameter(mode, d * k) <= bytesPerParameter(mode, d),
    ));
  });
  // Rajbhandari et al. 2020 (SC'20), Figure 1: Ψ = 7.5B parameters, N_d = 64, K = 12, model states per device
  // (2 + 2 + K)Ψ = 120 GB, P_os (2 + 2 + K/N_d)Ψ = 31.4 GB, P_os+g (2 + (2 + K)/N_d)Ψ = 16.6 GB, P_os+g+p (2 + 2 + K)Ψ/N_d = 1.9 GB.
  describe('ZeRO model states match Rajbhandari et al. Figure 1 (Ψ = 7.5B, N_d = 64, K = 12)', () => {
    const psi = 7.5e9, Nd = 64, K = 12;
    const total = (sharding: 'zero-1' | 'zero-2' | 'zero-3', dataParallel: number) => {
      const s = modelStateBytes({ parameters: psi, sharding, dataParallel });
      return s.weights + s.gradients + s.optimizer;
    };
    it.each([
      ['zero-1', (2 + 2 + K / Nd) * psi, 31.4],
      ['zero-2', (2 + (2 + K) / Nd) * psi, 16.6],
      ['zero-3', ((2 + 2 + K) * psi) / Nd, 1.9],
    ] as const)('%s: the paper\'s closed form, %d bytes, which it prints as %d GB', (sharding, expected, printedGB) => {
      expect(total(sharding, Nd)).toBe(expected);
      expect(Math.round(total(sharding, Nd) / 1e8) / 10).toBe(printedGB);
    });
    it.each(['zero-1', 'zero-2', 'zero-3'] as const)('%s on N_d = 1 is the baseline, (2 + 2 + K)Ψ = 120 GB', (sharding) => {
      expect(total(sharding, 1)).toBe((2 + 2 + K) * psi);
      expect(total(sharding, 1) / 1e9).toBe(120);
    });
  });
  it('at d = 1 every sharding mode holds what none holds with the same gradient buffer; at any d, none ≥ ZeRO-1 ≥ 2 ≥ 3', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4096 }), fc.constantFrom(2, 4, 6), (d, gradientBytes) => {
      const per = (sharding: 'none' | 'distributed-optimizer' | 'zero-1' | 'zero-2' | 'zero-3', dataParallel: number) => {
        const s = modelStateBytes({ parameters: 1, sharding, dataParallel, gradientBytes });
        return s.weights + s.gradients + s.optimizer;
      };
      const unsharded = 2 + gradientBytes + 12;
      const atOne = (['none', 'distributed-optimizer', 'zero-1', 'zero-2', 'zero-3'] as const).every((m) => per(m, 1) === unsharded);
      const ordered = per('none', d) >= per('zero-1', d) && per('zero-1', d) >= per('zero-2', d) && per('zero-2', d) >= per('zero-3', d);
      return atOne && ordered;
    }));
  });
  it('weights, gradients and optimizer states sum to the per-parameter bytes', () => {
    const s = modelStateBytes({ parameters: 1000, sharding: 'distributed-optimizer', dataParallel: 4 });
    expect(s.weights + s.gradients + s.optimizer).toBe(1000 * (6 + 3));
  });
});

describe('activation memory never grows when only the tensor-parallel size grows', () => {
  it('holds for random GPT-like shapes and every recompute mode', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 16 }), fc.constantFrom(1, 2, 4), fc.boolean(),
      fc.constantFrom('none', 'selective', 'full' as const), fc.constantFrom('flash', 'unfused' as const), fc.boolean(),
      (b, k, sp, recompute, attentionKernel, dropout) => {
        const common = { shape: gpt3_175b, microBatchSize: b, seqLength: 2048, sequenceParallel: sp, recompute, attentionKernel, dropout };
        return activationBytesPerLayer({ ...common, tensorParallel: 2 * k }) <= activationBytesPerLayer({ ...common, tensorParallel: k });
      },
    ));
  });
});

describe('FP8 weight copies (Transformer Engine: FP8 weight and its transpose, 2 B per matrix parameter)', () => {
  it('GPT-3 175B: 12h² matrix parameters per layer, 2 bytes each, split t ways', () => {
    const h = 12288;
    expect(fp8WeightCopyBytes({ shape: gpt3_175b, tensorParallel: 8, layers: 12 })).toBe((2 * 12 * h * h * 12) / 8);
  });
  it('Llama 3 70B: GQA QKV, the output projection and three SwiGLU matrices', () => {
    const h = 8192, kv = 1024, f = 28672;
    expect(fp8WeightCopyBytes({ shape: llama3_70b, tensorParallel: 1, layers: 1 })).toBe(2 * (h * (h + 2 * kv) + h * h + 3 * h * f));
  });
});

describe('KV cache per token (Pope et al. 2022 §2)', () => {
  it('Llama 3 70B: 2 × 80 layers × 8 KV heads × 128 dims × 2 bytes = 320 KiB; split by heads over TP, one head a rank past 8', () => {
    const at = (tensor: number, layersOnGpu = 80) => kvCacheBytesPerToken({ shape: llama3_70b, tensor, layersOnGpu, bytesPerValue: 2 });
    expect(at(1)).toBe(327_680);
    expect(at(8)).toBe(327_680 / 8);
    // TP 16 exceeds the 8 KV heads: each rank keeps one head, as at TP 8.
    expect(at(16)).toBe(at(8));
    expect(at(1, 20)).toBe(327_680 / 4);
  });
});
