import { gpuById } from '@trainplan/hardware';
import { withShapeDefaults } from '@trainplan/model';
import type { SearchBase } from '../src/index.ts';
import { a100Fabric, gpt3OnSelene, h100Fabric } from '../../planner/test/fixtures.ts';

export { a100Fabric, h100Fabric };

/** The planner's GPT-3 175B on 128 DGX A100 (batch 1536, the SC'21 setting) without its parallel strategy. */
const {
  tensor: _t, pipeline: _p, data: _d, context: _c, virtualStages: _v, schedule: _s, microBatchSize: _m,
  sequenceParallel: _sp, recompute: _r, recomputeLayers: _rl, sharding: _sh, ...strategyFree
} = gpt3OnSelene;
export const gpt3Base: SearchBase = strategyFree;

const h100 = gpuById('h100-sxm')!;

/** A 1.3B GPT (Megatron's 1.3B shape: 24 layers, h 2048, 16 heads) on 2 DGX A100, small enough to enumerate exhaustively. */
export const smallBase: SearchBase = {
  ...gpt3Base,
  model: withShapeDefaults({ name: 'gpt-1.3b', layers: 24, hiddenSize: 2048, attentionHeads: 16, vocabSize: 51200, seqLength: 2048 }),
  nodes: 2,
  globalBatchSize: 64,
};

/** Llama 2 70B (Touvron et al. 2023, Table 1: 80 layers, h 8192, 64 heads, 8 KV heads, FFN 28672) on DGX H100. */
export const llama70bBase: SearchBase = {
  ...gpt3Base,
  model: withShapeDefaults({
    name: 'llama2-70b', layers: 80, hiddenSize: 8192, attentionHeads: 64, kvHeads: 8, ffnHiddenSize: 28672, vocabSize: 32000,
    seqLength: 4096, gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false, normalization: 'rmsnorm',
  }),
  gpu: h100,
  fabric: h100Fabric,
  nodes: 8,
  globalBatchSize: 128,
  seqLength: 4096,
  dropout: false,
};

/**
 * Llama 3 70B (Meta's model card: the Llama 2 70B shape with a 128,256-token vocabulary, 8,192 tokens of context)
 * on 4 DGX H100 at batch 128: tight enough that TP 4 · PP 4 · CP 2 needs partial recompute, or sequence parallelism.
 */
export const llama3_70bBase: SearchBase = {
  ...llama70bBase,
  model: { ...llama70bBase.model, name: 'llama3-70b', vocabSize: 128256, seqLength: 8192 },
  nodes: 4,
  seqLength: 8192,
};

/**
 * The batch the CLI's `nodes` (and the chat bot) plans Llama 3 70B at on `nodes` DGX H100 when none is given
 * (@trainplan/ask deadlineBatchFor, restated here since the search package sits below it): about 4M tokens of
 * 8,192, or one sequence per 8 GPUs where that is more, as a multiple of the data-parallel size left when model
 * parallelism takes the largest power of two (≤ 64) dividing the GPUs, with as many more factors of two as keep it
 * within 10% of that aim; 512 where no such multiple is within 10% (so 90 nodes take 540, 108 nodes 540, 185 nodes 555).
 * packages/ask/test/deadline-batch.test.ts checks it against the rule itself at every size up to 8,192 nodes.
 */
export function llama3DefaultBatchFor(nodes: number): number {
  const gpus = 8 * nodes;
  // One sequence per 8 GPUs up to 2^24 = 16.8M tokens a step (2,048 at 8,192 tokens), never under 4M (ask's default-batch.ts).
  const aim = Math.max(512, Math.min(gpus / 8, 2048));
  let modelParallel = 1;
  while (modelParallel < 64 && gpus % (modelParallel * 2) === 0) modelParallel *= 2;
  const nearest = (unit: number): number => unit * Math.max(1, Math.round(aim / unit));
  let unit = gpus / modelParallel;
  while (Math.abs(nearest(2 * unit) - aim) <= 0.1 * aim) unit *= 2;
  const own = nearest(unit);
  return own <= 1.1 * aim ? own : 512;
}
