import { fabricFromSpecs } from '@trainplan/collectives';
import { gpuById, networkById, NVLINKS, systemById } from '@trainplan/hardware';
import { withShapeDefaults } from '@trainplan/model';
import { GiB } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { optimizerGradientCopyBytes, ZERO3_SUB_GROUP_SIZE } from '../src/gradient-accumulation.ts';
import { estimatePlan, type PlanEstimate, type PlanInput } from '../src/index.ts';
import { gpt3OnSelene } from './fixtures.ts';

const estimate = (input: PlanInput): PlanEstimate => {
  const e = estimatePlan(input);
  if (e.ok) return e;
  if (e.reason === 'out-of-memory' && e.estimate !== undefined) return e.estimate;
  throw new Error(e.message);
};

/**
 * QA finding F1: Llama 2 70B under ZeRO-3 on one DGX H200 (8 GPUs, data-parallel 8), micro-batch 1, 2048 tokens, bf16,
 * full recompute. Parameters by hand (model reference §1, gated MLP, GQA, untied output, RMSNorm, no biases):
 *   a layer: QKV 8192·(8192 + 2·8192·8/64) = 83,886,080 + output 8192² = 67,108,864 + MLP 3·8192·28672 = 704,643,072
 *            + two norms 2·8192 = 16,384 → 855,654,400; 80 layers → 68,452,352,000
 *   embedding and output layer 2·32000·8192 = 524,288,000, final norm 8192 → P = 68,976,648,192
 */
const h200 = gpuById('h200')!;
const llama2On8H200: PlanInput = {
  ...gpt3OnSelene,
  model: withShapeDefaults({
    name: 'llama2-70b', layers: 80, hiddenSize: 8192, attentionHeads: 64, kvHeads: 8, ffnHiddenSize: 28672,
    vocabSize: 32000, seqLength: 4096, gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary',
    linearBias: false, normalization: 'rmsnorm',
  }),
  gpu: h200,
  fabric: fabricFromSpecs({ gpu: h200, system: systemById('dgx-h200')!, network: networkById('ndr-ib-8x')!, nvlink: NVLINKS.nvlink4 }),
  nodes: 1,
  globalBatchSize: 8,
  seqLength: 2048,
  dropout: false,
  tensor: 1,
  pipeline: 1,
  data: 8,
  sharding: 'zero-3',
};
const P = 68_976_648_192;
const d = 8;
/** ZeRO-3 at d = 8: 16 bytes a parameter over 8 ranks, 2·P. */
const states = 2 * P; // 137,953,296,384
/**
 * The largest unit ZeRO-3 gathers: a layer (855,654,400) against the embedding or output layer (262,144,000 each), whole
 * 16-bit weights and gradient, 2 + 2 bytes: 3,422,617,600.
 */
const gatheredLayer = 4 * 855_654_400;
const reserve = GiB(1.5); // 1,610,612,736

/**
 * Activations of the one stage at sequence length s, micro-batch 1 (Korthikanti Table 2; flash attention, no dropout;
 * sbh = s·8192, sbf = s·28672):
 *   80 layer inputs kept by full recompute, 2·sbh each
 *   + one layer's working set, rebuilt for its backward: norm and linear inputs 8·sbh, Q 2·sbh, K and V 2·2·sbh/8,
 *     attention-output input 2·sbh (4.5·sbh), gate, up and product 6·sbf, the log-sum-exp 4·64·s
 *   + the last stage's final-norm and output-layer inputs 4·sbh and the fp32 logits 4·s·32000 (Korthikanti §4.3)
 */
const activations = (s: number): number => {
  const sbh = s * 8192;
  return 80 * 2 * sbh + (8 * sbh + 4.5 * sbh + 6 * s * 28672 + 4 * 64 * s) + 4 * sbh + 4 * s * 32000;
};

describe("ZeRO-3's optimizer step and gathered unit never meet (QA F1)", () => {
  it('the step casts one sub-group of a rank\'s partition to fp32 at a time: 4·min(P/d, 1e9), where ZeRO-1/2 and Megatron cast it all', () => {
    const zero = (stage: 1 | 2 | 3) => ({ sharding: `zero-${stage}` as const, precision: 'bf16' as const });
    // P/d = 8,622,081,024 elements against sub_group_size's default 1e9: one sub-group, 4e9 bytes, not 34.5e9.
    expect(ZERO3_SUB_GROUP_SIZE).toBe(1e9);
    expect(optimizerGradientCopyBytes(zero(3), P, d)).toBe(4e9);
    // At d = 128, P/d = 538,880,064 is under 1e9: the whole partition, 2,155,520,256 bytes.
    expect(optimizerGradientCopyBytes(zero(3), P, 128)).toBe(2_155_520_256);
    // ZeRO-1 and -2 cast a parameter group's partition whole (stage_1_and_2.py step): 4·P/8 = 34,488,324,096.
    expect(optimizerGradientCopyBytes(zero(1), P, d)).toBe(34_488_324_096);
    expect(optimizerGradientCopyBytes(zero(2), P, d)).toBe(34_488_324_096);
    // Megatron's distributed optimizer, 16-bit main gradients: its whole shard before the step; without it, all of P.
    expect(optimizerGradientCopyBytes({ sharding: 'distributed-optimizer', precision: 'bf16', gradientAccumulation: 'fused-16-bit' }, P, d)).toBe(34_488_324_096);
    expect(optimizerGradientCopyBytes({ sharding: 'none', precision: 'fp16' }, P, d)).toBe(4 * P);
  });

  it('at 2048 tokens the forward/backward peak is the higher: states + activations + fragmentation + the gathered layer', () => {
    const m = estimate(llama2On8H200).memory;
    // activations(2048) = 2,684,354,560 + 562,561,024 + 67,108,864 + 262,144,000 = 3,576,168,448
    const a = activations(2048);
    expect(a).toBe(3_576_168_448);
    expect(m.weightsBytes + m.gradientsBytes + m.optimizerBytes).toBe(states);
    expect(m.activationsBytes).toBe(a);
    // 1,610,612,736 + 357,616,844.8 + 3,422,617,600, rounded up; the 4e9 step copy is below 3,576,168,448 + 357,616,844.8 + 3,422,617,600.
    expect(m.otherBytes).toBe(Math.ceil(reserve + 0.1 * a + gatheredLayer));
    expect(m.otherBytes).toBe(5_390_847_181);
    // 137,953,296,384 + 3,576,168,448 + 5,390,847,181 = 146,920,312,013 bytes: under the H200's 150.75 GB, where the QA
    // found 177.5 GB, out of memory.
    expect(m.totalBytes).toBe(146_920_312_013);
    expect(m.fits).toBe(true);
  });

  it('at 128 tokens the step is the higher: states + one sub-group\'s fp32 copy, with neither the activations nor the gathered layer', () => {
    const m = estimate({ ...llama2On8H200, seqLength: 128 }).memory;
    // activations(128) = 167,772,160 + 35,160,064 + 4,194,304 + 16,384,000 = 223,510,528; with 10% and the 3,422,617,600
    // gathered, 3,668,479,181: under the 4e9 copy.
    const a = activations(128);
    expect(a).toBe(223_510_528);
    expect(a * 1.1 + gatheredLayer).toBeLessThan(4e9);
    expect(m.activationsBytes).toBe(a);
    // 137,953,296,384 + 4,000,000,000 + 1,610,612,736
    expect(m.totalBytes).toBe(states + 4e9 + reserve);
    expect(m.totalBytes).toBe(143_563_909_120);
  });
});
