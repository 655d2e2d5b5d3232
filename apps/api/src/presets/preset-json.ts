/** The preset catalogue as JSON: the hardware and model specs with units in every key. */
import type { Citation, GpuSpec, NetworkSpec, SystemSpec } from '@trainplan/hardware';
import { GPUS, GPU_IDS, MODELS, MODEL_IDS, NETWORKS, NETWORK_IDS, SYSTEMS, SYSTEM_IDS, type ModelPreset } from '@trainplan/presets';
import { NVLINKS } from '@trainplan/hardware';
import type { GpuPresetJson, ModelPresetJson, NetworkPresetJson, SystemPresetJson } from './preset-schemas.ts';

const source = (c: Citation) => ({ title: c.title, ...(c.url !== undefined && { url: c.url }), ...(c.note !== undefined && { note: c.note }) });

function gpuJson(g: GpuSpec): GpuPresetJson {
  return {
    id: g.id, name: g.name, generation: g.generation,
    peakFlopsPerSecond: { ...g.peakFlops },
    hbmBytes: g.hbmBytes, hbmBandwidthBytesPerSecond: g.hbmBandwidth, smCount: g.smCount, l2Bytes: g.l2Bytes,
    nvlink: g.nvlink, nvlinkCount: g.nvlinkCount,
    // hardware/nvlink.ts: links × per-link rate, one direction.
    nvlinkBandwidthBytesPerSecond: g.nvlinkCount * NVLINKS[g.nvlink].bandwidthPerLinkPerDirection,
    tdpWatts: g.tdpWatts, source: source(g.source),
  };
}

function networkJson(n: NetworkSpec): NetworkPresetJson {
  return {
    id: n.id, name: n.name, kind: n.kind, nicsPerNode: n.nicsPerNode, nicBandwidthBytesPerSecond: n.nicBandwidth,
    latencySeconds: n.latency, inNetworkReduction: n.inNetworkReduction,
    ...(n.nvlinkDomainGpus !== undefined && { nvlinkDomainGpus: n.nvlinkDomainGpus }),
    source: source(n.source),
  };
}

function systemJson(s: SystemSpec): SystemPresetJson {
  return {
    id: s.id, name: s.name, gpu: s.gpu, gpusPerNode: s.gpusPerNode, intraNode: s.intraNode,
    nvlinkSharp: s.nvlinkSharp, network: s.network, source: source(s.source),
  };
}

function modelJson(m: ModelPreset): ModelPresetJson {
  return {
    id: m.id, ...m.shape, publishedParameters: m.publishedParameters,
    ...(m.defaultTrainingTokens !== undefined && { defaultTrainingTokens: m.defaultTrainingTokens }),
    source: source(m.source),
  };
}

/** Each catalogue, in its preset order; built once (presets are immutable). */
export const PRESET_LISTS = {
  gpus: GPU_IDS.map((id) => gpuJson(GPUS[id]!)),
  systems: SYSTEM_IDS.map((id) => systemJson(SYSTEMS[id]!)),
  networks: NETWORK_IDS.map((id) => networkJson(NETWORKS[id]!)),
  models: MODEL_IDS.map((id) => modelJson(MODELS[id]!)),
} as const;

export type PresetKind = keyof typeof PRESET_LISTS;
export const PRESET_KINDS = Object.keys(PRESET_LISTS) as PresetKind[];
