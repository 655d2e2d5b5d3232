/**
 * The preset catalogue as JSON, the hardware and model specs with units in every key: what the API serves at
 * GET /v1/presets/{kind} (its schemas: apps/api presets/preset-schemas.ts) and `trainplan presets --json` prints. Each
 * preset ends with its `summary`, the line `trainplan presets` lists (preset-summary.ts): an extension both surfaces
 * carry, beside the figures it is made of.
 */
import {
  GPUS, GPU_IDS, GPU_SOURCES, NETWORKS, NETWORK_IDS, NETWORK_SOURCES, SYSTEMS, SYSTEM_IDS, SYSTEM_SOURCES, nvlinkBandwidthPerDirection,
  type Citation, type GpuSpec, type NetworkSpec, type SystemSpec,
} from '@trainplan/hardware';
import type { ModelPreset } from './model-preset.ts';
import { MODELS, MODEL_IDS, MODEL_SOURCES } from './models.ts';
import { gpuSummary, modelSummary, networkSummary, systemSummary } from './preset-summary.ts';

const source = (c: Citation) => ({ title: c.title, ...(c.url !== undefined && { url: c.url }), ...(c.note !== undefined && { note: c.note }) });

function gpuJson(g: GpuSpec, cited: Citation) {
  return {
    id: g.id, name: g.name, generation: g.generation,
    peakFlopsPerSecond: { ...g.peakFlops },
    hbmBytes: g.hbmBytes, hbmBandwidthBytesPerSecond: g.hbmBandwidth, smCount: g.smCount, l2Bytes: g.l2Bytes,
    nvlink: g.nvlink, nvlinkCount: g.nvlinkCount,
    // hardware/nvlink.ts: links × per-link rate, one direction.
    nvlinkBandwidthBytesPerSecond: nvlinkBandwidthPerDirection(g),
    tdpWatts: g.tdpWatts, source: source(cited), summary: gpuSummary(g),
  };
}

function networkJson(n: NetworkSpec, cited: Citation) {
  return {
    id: n.id, name: n.name, kind: n.kind, nicsPerNode: n.nicsPerNode, nicBandwidthBytesPerSecond: n.nicBandwidth,
    latencySeconds: n.latency, inNetworkReduction: n.inNetworkReduction,
    ...(n.nvlinkDomainGpus !== undefined && { nvlinkDomainGpus: n.nvlinkDomainGpus }),
    source: source(cited), summary: networkSummary(n),
  };
}

function systemJson(s: SystemSpec, cited: Citation) {
  return {
    id: s.id, name: s.name, gpu: s.gpu, gpusPerNode: s.gpusPerNode, intraNode: s.intraNode,
    nvlinkSharp: s.nvlinkSharp, network: s.network, source: source(cited), summary: systemSummary(s),
  };
}

function modelJson(m: ModelPreset, cited: Citation) {
  return {
    id: m.id, ...m.shape, publishedParameters: m.publishedParameters,
    ...(m.defaultTrainingTokens !== undefined && { defaultTrainingTokens: m.defaultTrainingTokens }),
    trainedWithDropout: m.trainedWithDropout,
    // The sourced figures beside the shape that change no time or memory but what an export sets or a question assumes.
    ...(m.publishedGlobalBatchSize !== undefined && { publishedGlobalBatchSize: m.publishedGlobalBatchSize }),
    ...(m.contextWindowTokens !== undefined && { contextWindowTokens: m.contextWindowTokens }),
    ...(m.rotaryBase !== undefined && { rotaryBase: m.rotaryBase }),
    ...(m.rotaryPercent !== undefined && { rotaryPercent: m.rotaryPercent }),
    ...(m.ropeScalingFactor !== undefined && { ropeScalingFactor: m.ropeScalingFactor }),
    ...(m.mlpActivation !== undefined && { mlpActivation: m.mlpActivation }),
    ...(m.layerNorm1p !== undefined && { layerNorm1p: m.layerNorm1p }),
    source: source(cited), summary: modelSummary(m),
  };
}

/**
 * A figure as its source states it: a fraction to 15 significant digits, which drops the binary residue
 * of a unit constructor's product (TFLOPS(66.9) is 66900000000000.01 FLOP/s, 0.87 µs is
 * 8.699999999999999e-7 s) and nothing a datasheet gives. Integers (bytes, counts) are left exact.
 */
function stated<T>(value: T): T {
  if (typeof value === 'number') return (Number.isInteger(value) ? value : Number(value.toPrecision(15))) as T;
  if (Array.isArray(value)) return value.map(stated) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stated(v)])) as T;
  return value;
}

/**
 * Each catalogue, in its preset order, each preset with its citation (kept apart from the spec); built once (presets are
 * immutable), in a pure-annotated call so that a bundle that never reads it (the browser widget) drops it whole.
 */
export const PRESET_LISTS = /* @__PURE__ */ (() => ({
  gpus: GPU_IDS.map((id) => stated(gpuJson(GPUS[id]!, GPU_SOURCES[id]))),
  systems: SYSTEM_IDS.map((id) => stated(systemJson(SYSTEMS[id]!, SYSTEM_SOURCES[id]))),
  networks: NETWORK_IDS.map((id) => stated(networkJson(NETWORKS[id]!, NETWORK_SOURCES[id]))),
  models: MODEL_IDS.map((id) => stated(modelJson(MODELS[id]!, MODEL_SOURCES[id]))),
}) as const)();

export type PresetKind = keyof typeof PRESET_LISTS;
