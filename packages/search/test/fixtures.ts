import { fabricFromSpecs } from '@trainplan/collectives';
import { gpuById, networkById, NVLINKS, systemById } from '@trainplan/hardware';
import { withShapeDefaults } from '@trainplan/model';
import type { SearchBase } from '../src/index.ts';

const a100 = gpuById('a100-80gb')!;
const h100 = gpuById('h100-sxm')!;
export const a100Fabric = fabricFromSpecs({ gpu: a100, system: systemById('dgx-a100-80gb')!, network: networkById('hdr-ib-8x')!, nvlink: NVLINKS.nvlink3 });
export const h100Fabric = fabricFromSpecs({ gpu: h100, system: systemById('dgx-h100')!, network: networkById('ndr-ib-8x')!, nvlink: NVLINKS.nvlink4 });

/** GPT-3 175B (Brown et al. 2020, Table 2.1) on 128 DGX A100, batch 1536: the SC'21 setting. */
export const gpt3Base: SearchBase = {
  model: withShapeDefaults({ name: 'gpt3-175b', layers: 96, hiddenSize: 12288, attentionHeads: 96, vocabSize: 51200, seqLength: 2048 }),
  gpu: a100,
  fabric: a100Fabric,
  nodes: 128,
  gpusPerNode: 8,
  nvlinkDomainGpus: 8,
  globalBatchSize: 1536,
  seqLength: 2048,
  precision: 'bf16',
  dropout: true,
  attentionKernel: 'flash',
  scatterGather: false,
  overlapGradReduce: false,
  overlapTensorParallelComm: false,
  overlapPipelineComm: false,
};

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
