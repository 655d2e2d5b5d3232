import { describe, expect, it } from 'vitest';
import {
  hardwareFlopsPerStep, modelFlopsPerStep, layerForwardFlopsPerToken, type ModelShape,
} from '../src/index.ts';
import { gpt3_175b, korthikanti22b, llama3_70b } from './fixtures.ts';

/** Korthikanti et al. 2022, §6 (model FLOPs of a GPT), as the paper writes it. */
const korthikantiModelFlops = ({ layers: L, hiddenSize: h, vocabSize: V, seqLength: s }: ModelShape, B: number) =>
  72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * L * h));
/** Narayanan et al. SC'21 eq. 3 (hardware FLOPs of a GPT with full recompute), as the paper writes it. */
const narayananHardwareFlops = ({ layers: L, hiddenSize: h, vocabSize: V, seqLength: s }: ModelShape, B: number) =>
  96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h));

describe('FLOPs per step', () => {
  it.each([[gpt3_175b, 1536], [korthikanti22b, 4]])('model FLOPs of a GPT equal Korthikanti 72·B·s·L·h²(1 + s/6h + V/12Lh)', (shape, B) => {
    expect(modelFlopsPerStep(shape, { globalBatchSize: B }) / korthikantiModelFlops(shape, B)).toBeCloseTo(1, 12);
  });

  it('hardware FLOPs with full recompute equal Narayanan SC\'21 eq. 3', () => {
    const B = 1536;
    const hw = hardwareFlopsPerStep(gpt3_175b, { globalBatchSize: B, recompute: 'full' });
    expect(hw / narayananHardwareFlops(gpt3_175b, B)).toBeCloseTo(1, 12);
  });

  it('selective recompute adds exactly the forward Q·Kᵀ and ·V products (4·s·h per token per layer)', () => {
    const B = 8, s = 2048, h = 12288, L = 96;
    const extra = hardwareFlopsPerStep(gpt3_175b, { globalBatchSize: B, recompute: 'selective' })
      - modelFlopsPerStep(gpt3_175b, { globalBatchSize: B });
    expect(extra).toBe(B * s * L * 4 * s * h);
  });

  it('no recompute means HFU = MFU: hardware and model FLOPs agree', () => {
    expect(hardwareFlopsPerStep(gpt3_175b, { globalBatchSize: 4, recompute: 'none' }))
      .toBe(modelFlopsPerStep(gpt3_175b, { globalBatchSize: 4 }));
  });

  it('the causal convention halves the attention products only', () => {
    const full = layerForwardFlopsPerToken(gpt3_175b);
    const causal = layerForwardFlopsPerToken(gpt3_175b, { attention: 'causal' });
    expect(full.total - causal.total).toBe((full.attentionScores + full.attentionValues) / 2);
    expect(causal.mlp).toBe(full.mlp);
  });

  it('matches Megatron-LM\'s GQA / gated formula 12·B·s·L·h²(1 + a_kv/a + s/h + 1.5·f/h + V/(2Lh)) for Llama 3 70B', () => {
    const B = 128, s = 8192, L = 80, h = 8192;
    const expected = 12 * B * s * L * h * h * (1 + 8 / 64 + s / h + 1.5 * (28672 / h) + 128256 / (2 * L * h));
    expect(modelFlopsPerStep(llama3_70b, { globalBatchSize: B }) / expected).toBeCloseTo(1, 12);
  });

  it('a full-recompute run that recomputes only some layers adds only their forward passes', () => {
    const B = 2;
    const all = hardwareFlopsPerStep(gpt3_175b, { globalBatchSize: B, recompute: 'full' });
    const half = hardwareFlopsPerStep(gpt3_175b, { globalBatchSize: B, recompute: 'full', recomputedLayers: 48 });
    const none = modelFlopsPerStep(gpt3_175b, { globalBatchSize: B });
    expect((half - none) / (all - none)).toBeCloseTo(0.5, 12);
  });
});
