import { fabricFromSpecs } from '@trainplan/collectives';
import { gpuById, networkById, NVLINKS, systemById } from '@trainplan/hardware';
import { withShapeDefaults } from '@trainplan/model';
import type { PlanInput } from '../src/index.ts';

const a100 = gpuById('a100-80gb')!;
const h100 = gpuById('h100-sxm')!;

export const a100Fabric = fabricFromSpecs({ gpu: a100, system: systemById('dgx-a100-80gb')!, network: networkById('hdr-ib-8x')!, nvlink: NVLINKS.nvlink3 });
export const h100Fabric = fabricFromSpecs({ gpu: h100, system: systemById('dgx-h100')!, network: networkById('ndr-ib-8x')!, nvlink: NVLINKS.nvlink4 });
const gb200 = gpuById('gb200')!;
/** GB200 NVL72: the collectives see the 72-GPU NVLink domain as one node (fabric-from-specs.ts). */
export const gb200Fabric = fabricFromSpecs({ gpu: gb200, system: systemById('gb200-nvl72')!, network: networkById('nvl72')!, nvlink: NVLINKS.nvlink5 });

/** GPT-3 175B on 128 DGX A100 as the scenario contract's example (TP 8, PP 8, full recompute, batch 1536). */
export const gpt3OnSelene: PlanInput = {
  model: withShapeDefaults({ name: 'gpt3-175b', layers: 96, hiddenSize: 12288, attentionHeads: 96, vocabSize: 51200, seqLength: 2048 }),
  gpu: a100,
  fabric: a100Fabric,
  nodes: 128,
  gpusPerNode: 8,
  nvlinkDomainGpus: 8,
  globalBatchSize: 1536,
  microBatchSize: 1,
  seqLength: 2048,
  precision: 'bf16',
  dropout: true,
  tensor: 8,
  pipeline: 8,
  data: 16,
  context: 1,
  virtualStages: 1,
  schedule: '1f1b',
  sequenceParallel: false,
  recompute: 'full',
  sharding: 'none',
  attentionKernel: 'flash',
  scatterGather: false,
  overlapGradReduce: false,
  overlapTensorParallelComm: false,
  overlapPipelineComm: false,
};

/** Llama 3 70B on 8 DGX H100 (TP 4, PP 4, CP 2, DP 2, as NVIDIA's DGX Cloud recipe). */
export const llamaOnH100: PlanInput = {
  ...gpt3OnSelene,
  model: withShapeDefaults({
    name: 'llama3-70b', layers: 80, hiddenSize: 8192, attentionHeads: 64, kvHeads: 8, ffnHiddenSize: 28672,
    vocabSize: 128256, seqLength: 8192, gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary',
    linearBias: false, normalization: 'rmsnorm',
  }),
  gpu: h100,
  fabric: h100Fabric,
  nodes: 8,
  globalBatchSize: 128,
  seqLength: 8192,
  tensor: 4,
  pipeline: 4,
  context: 2,
  data: 2,
  recompute: 'selective',
  sequenceParallel: true,
  sharding: 'distributed-optimizer',
  dropout: false,
  overlapGradReduce: true,
};
