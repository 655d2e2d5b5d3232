import { NVLINKS, nvlinkBandwidthPerDirection, type Citation, type GpuSpec, type NetworkSpec, type Precision, type SystemSpec } from '@trainplan/hardware';
import {
  capitalised, gbpsText, GPUS, GPU_SOURCES, latencyText, MODELS, MODEL_SOURCES, NETWORKS, NETWORK_SOURCES, SYSTEMS, SYSTEM_IDS, SYSTEM_SOURCES,
  tflopsText, wattsText, type ModelPreset,
} from '@trainplan/presets';
import { formatBytes, formatCountExact, formatGrouped, formatPercent } from '@trainplan/units';
import { renderTable } from '../format/table.ts';
import { HELP_WIDTH } from '../format/usage-line.ts';
import type { PresetCatalogue } from './presets-list.ts';

/**
 * `trainplan presets h100-sxm`: one preset's every figure, labelled and in its unit, then the source it cites whole (its
 * title, address and which figures it took). QA: only the catalogues could be named, and a GPU's list line showed its
 * key figures alone.
 */

type Row = readonly [label: string, value: string];

/** The precisions from the fastest, each with its label: a GPU lacking one says so rather than leave the line out. */
const PEAK_ROWS: readonly (readonly [Precision, string])[] = [
  ['fp8', 'Peak FP8, dense'], ['bf16', 'Peak BF16, dense'], ['fp16', 'Peak FP16, dense'], ['tf32', 'Peak TF32, dense'],
  ['fp32', 'Peak FP32, non-tensor'],
];

const systemsWith = (wanted: (s: SystemSpec) => boolean): string =>
  SYSTEM_IDS.filter((id) => wanted(SYSTEMS[id]!)).join(', ') || 'none';

function gpuRows(g: GpuSpec): Row[] {
  const link = NVLINKS[g.nvlink];
  const nvlink = nvlinkBandwidthPerDirection(g);
  return [
    ['Architecture', capitalised(g.generation)],
    ...PEAK_ROWS.map(([p, label]): Row => {
      const peak = g.peakFlops[p];
      return [label, peak === undefined ? 'not supported' : tflopsText(peak)];
    }),
    ['HBM', `${formatBytes(g.hbmBytes)}, the capacity nvidia-smi reports`],
    ['HBM bandwidth', gbpsText(g.hbmBandwidth)],
    // Links × per-link rate one way (hardware/nvlink.ts); NVIDIA quotes both directions added, twice this.
    ['NVLink', g.nvlinkCount === 0 ? NO_NVLINK : `${gbpsText(nvlink)} per direction, ${gbpsText(2 * nvlink)} both ways together: `
      + `${g.nvlinkCount} links of ${link.name}, ${gbpsText(link.bandwidthPerLinkPerDirection)} each`],
    ['SMs', formatGrouped(g.smCount)],
    ['L2 cache', formatBytes(g.l2Bytes)],
    ['TDP', wattsText(g.tdpWatts)],
    ['Systems', systemsWith((s) => s.gpu === g.id)],
  ];
}

/** A PCIe card (hardware gpus.ts nvlinkCount 0): its 2-GPU NVLink bridge is not modelled, every peer path is PCIe. */
export const NO_NVLINK = 'none to the other GPUs: PCIe x16 only (an NVLink bridge joins two cards; not modelled)';

const INTRA_NODE: Readonly<Record<SystemSpec['intraNode'], string>> = {
  nvswitch: 'NVSwitch (every GPU to every other at its full NVLink rate)',
  // hardware/nvlink-mesh.ts: each V100's six links join it to four of the other seven GPUs.
  'nvlink-hybrid-cube-mesh': 'NVLink hybrid cube-mesh (no NVSwitch: each GPU\'s links reach four of the other seven)',
  // hardware/nvlink-mesh.ts: a quad GH200 node, each GPU's 18 links split 6 to each of the other three.
  'nvlink-full-mesh': 'NVLink full mesh (no NVSwitch: each GPU\'s links split evenly over the others, e.g. 6 of 18 to each of three)',
  // hardware/systems.ts: PCIe cards on PCIe switches; NCCL drives 24 GB/s (Gen4) or 48 GB/s (Gen5) per GPU over them.
  pcie: 'PCIe only (no NVSwitch, no NVLink between GPUs: every GPU-to-GPU byte crosses the PCIe switches)',
};

function systemRows(s: SystemSpec): Row[] {
  const gpu = GPUS[s.gpu];
  const network = NETWORKS[s.network];
  return [
    ['GPUs a node', `${s.gpusPerNode} × ${s.gpu}${gpu === undefined ? '' : ` (${gpu.name})`}`],
    ['Inside a node', INTRA_NODE[s.intraNode]],
    ['NVLink SHARP', s.nvlinkSharp ? 'yes (reductions inside the NVSwitch)' : 'no'],
    ...(gpu === undefined ? [] : [['NVLink a GPU', s.intraNode === 'pcie' || gpu.nvlinkCount === 0 ? 'none (PCIe cards)' : `${gbpsText(nvlinkBandwidthPerDirection(gpu))} per direction`] as const]),
    ['Network', `${s.network}${network === undefined ? '' : `: ${network.name}`}`],
  ];
}

const FABRICS: Readonly<Record<NetworkSpec['kind'], string>> = {
  infiniband: 'InfiniBand', omnipath: 'Omni-Path', roce: 'RoCE (RDMA over Ethernet)', ethernet: 'Ethernet', nvlink: 'NVLink',
};

function networkRows(n: NetworkSpec): Row[] {
  return [
    ['Fabric', FABRICS[n.kind]],
    ['NICs a node', formatGrouped(n.nicsPerNode)],
    ['NIC bandwidth', `${gbpsText(n.nicBandwidth)} per direction`],
    ['A node\'s NICs', `${gbpsText(n.nicsPerNode * n.nicBandwidth)} per direction`],
    ['Latency', `${latencyText(n.latency)} one way, NIC to NIC through the switches`],
    ['In-network reduction', n.inNetworkReduction ? 'yes (SHARP)' : 'no'],
    ...(n.nvlinkDomainGpus === undefined ? [] : [['NVLink domain', `${formatGrouped(n.nvlinkDomainGpus)} GPUs`] as const]),
    ['Systems', systemsWith((s) => s.network === n.id)],
  ];
}

function modelRows(m: ModelPreset): Row[] {
  const s = m.shape;
  const mlp = m.mlpActivation === 'squared-relu' ? 'squared ReLU' : s.gatedMlp ? 'gated (SwiGLU)' : 'GeLU';
  const rotary = [
    ...(m.rotaryBase === undefined ? [] : [`base ${formatGrouped(m.rotaryBase)}`]),
    ...(m.rotaryPercent === undefined ? [] : [`on ${formatPercent(m.rotaryPercent, 0)} of each head's dimensions`]),
    ...(m.ropeScalingFactor === undefined ? [] : [`scaling factor ${formatGrouped(m.ropeScalingFactor)}`]),
  ];
  const positions = s.positionEmbedding === 'rotary' ? `rotary${rotary.length === 0 ? '' : ` (${rotary.join(', ')})`}`
    : s.positionEmbedding === 'alibi' ? 'ALiBi' : 'learned';
  const norm = s.normalization === 'rmsnorm' ? 'RMSNorm' : m.layerNorm1p === true ? 'LayerNorm (zero-centred scale, 1p)' : 'LayerNorm';
  const kv = s.kvHeads === s.attentionHeads ? 'multi-head' : `${formatGrouped(s.kvHeads)} KV heads, grouped-query`;
  // The embedding's rows, and where they pad a tokenizer's count (GPT-2's 50,257 to 51,200), the tokens padded.
  const vocabulary = m.tokenizer === undefined ? `${formatGrouped(s.vocabSize)} tokens`
    : `${formatGrouped(s.vocabSize)} rows: the ${formatGrouped(m.tokenizer.tokens)} tokens of ${m.tokenizer.name}, padded`;
  return [
    ['Parameters', `${formatCountExact(m.publishedParameters)}, as published`],
    ['Layers', formatGrouped(s.layers)],
    ['Hidden size', formatGrouped(s.hiddenSize)],
    ['FFN hidden size', formatGrouped(s.ffnHiddenSize)],
    ['Attention heads', `${formatGrouped(s.attentionHeads)} (${kv})`],
    ['Vocabulary', vocabulary],
    ['Sequence length', `${formatGrouped(s.seqLength)} tokens`],
    ...(m.contextWindowTokens === undefined ? [] : [['Context window', `${formatGrouped(m.contextWindowTokens)} tokens`] as const]),
    ['MLP', mlp],
    ['Embeddings', s.tiedEmbeddings ? 'tied with the output layer' : 'untied'],
    ['Positions', positions],
    ['Linear biases', s.linearBias ? 'yes' : 'no'],
    ['Normalization', norm],
    ...(m.defaultTrainingTokens === undefined ? [] : [['Training tokens', `${formatCountExact(m.defaultTrainingTokens)}, as published`] as const]),
    ...(m.publishedGlobalBatchSize === undefined ? [] : [['Global batch', `${formatGrouped(m.publishedGlobalBatchSize)} sequences, as published`] as const]),
    ['Dropout', m.trainedWithDropout ? '0.1 hidden and attention' : 'none'],
  ];
}

/** Words filled to `width` columns, each line after the first hung under `indent`. */
function filled(text: string, indent: string, width = HELP_WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

const KIND_NAMES: Readonly<Record<PresetCatalogue, string>> = { models: 'model', gpus: 'GPU', systems: 'system', networks: 'network' };

/** The preset `id` of catalogue `kind` as text: its id, name and kind, its figures labelled, then its source whole. */
export function presetDetailText(kind: PresetCatalogue, id: string): string {
  const [name, rows, cited]: [string, Row[], Citation] = kind === 'gpus' ? [GPUS[id]!.name, gpuRows(GPUS[id]!), GPU_SOURCES[id as keyof typeof GPU_SOURCES]]
    : kind === 'systems' ? [SYSTEMS[id]!.name, systemRows(SYSTEMS[id]!), SYSTEM_SOURCES[id as keyof typeof SYSTEM_SOURCES]]
      : kind === 'networks' ? [NETWORKS[id]!.name, networkRows(NETWORKS[id]!), NETWORK_SOURCES[id as keyof typeof NETWORK_SOURCES]]
        : [MODELS[id]!.shape.name, modelRows(MODELS[id]!), MODEL_SOURCES[id as keyof typeof MODEL_SOURCES]];
  return [
    `${id}: ${name} (${KIND_NAMES[kind]} preset)`,
    ...renderTable(rows.map(([label, value]) => [`${label}:`, value])),
    '',
    ...filled(`Source: ${cited.title}`, '', HELP_WIDTH),
    ...(cited.url === undefined ? [] : [`  ${cited.url}`]),
    ...(cited.note === undefined ? [] : filled(cited.note, '  ')),
  ].join('\n');
}
