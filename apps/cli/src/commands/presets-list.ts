import { nvlinkBandwidthPerDirection, type Citation, type GpuSpec } from '@trainplan/hardware';
import {
  GPUS, GPU_IDS, GPU_SOURCES, MODELS, MODEL_IDS, MODEL_SOURCES, NETWORKS, NETWORK_IDS, NETWORK_SOURCES, SYSTEMS, SYSTEM_IDS, SYSTEM_SOURCES,
} from '@trainplan/presets';
import { formatBytes, formatCountExact, formatGrouped } from '@trainplan/units';
import { gbpsText, latencyText, PRECISION_NAMES, tflops, wattsText } from '../format/preset-figures.ts';

/** One preset as the list shows it: its id, name, key figures in words, and the source it cites. */
export interface PresetLine {
  id: string;
  name: string;
  summary: string;
  source: Citation;
}

/**
 * A GPU's key figures: its dense peaks in TFLOP/s (the 16-bit precision training runs at, BF16, or FP16 on the V100,
 * which has no BF16; then FP8 and TF32 where it has them), its memory and memory bandwidth, its NVLink per direction
 * (links × per-link rate, hardware's nvlinkBandwidthPerDirection: QA read "18 NVLinks" alike for H100 and B200, whose
 * links are twice as fast), and its power.
 */
function gpuSummary(g: GpuSpec): string {
  const sixteenBit = g.peakFlops.bf16 !== undefined ? 'bf16' : 'fp16';
  const peaks = ([sixteenBit, 'fp8', 'tf32'] as const).flatMap((p) => {
    const peak = g.peakFlops[p];
    return peak === undefined ? [] : [`${tflops(peak)} ${PRECISION_NAMES[p]}`];
  });
  return [
    `peak dense TFLOP/s: ${peaks.join(', ')}`,
    `${formatBytes(g.hbmBytes)} HBM at ${gbpsText(g.hbmBandwidth)}`,
    g.nvlinkCount === 0 ? 'no NVLink (PCIe card)' : `NVLink ${gbpsText(nvlinkBandwidthPerDirection(g))} per direction (${g.nvlinkCount} links)`,
    wattsText(g.tdpWatts),
  ].join(' · ');
}

/** The catalogues in the order the list shows them, each preset in its catalogue's order. */
export const PRESET_LINES = {
  models: MODEL_IDS.map((id): PresetLine => {
    const { shape, publishedParameters } = MODELS[id]!;
    const heads = `${formatGrouped(shape.attentionHeads)} heads${shape.kvHeads !== shape.attentionHeads ? ` (${formatGrouped(shape.kvHeads)} KV)` : ''}`;
    return {
      id, name: shape.name,
      // As the source names it ("70B", "1.3B", "145.6B"), no zeros it does not state (QA: "7.00B" for a nominal 7B).
      summary: `${formatCountExact(publishedParameters)} parameters · ${formatGrouped(shape.layers)} layers, hidden ${formatGrouped(shape.hiddenSize)}, ${heads} · ${formatGrouped(shape.seqLength)}-token sequences`,
      source: MODEL_SOURCES[id],
    };
  }),
  gpus: GPU_IDS.map((id): PresetLine => ({ id, name: GPUS[id]!.name, summary: gpuSummary(GPUS[id]!), source: GPU_SOURCES[id] })),
  systems: SYSTEM_IDS.map((id): PresetLine => {
    const s = SYSTEMS[id]!;
    return {
      id, name: s.name,
      summary: `${s.gpusPerNode} × ${s.gpu} a node · ${s.intraNode}${s.nvlinkSharp ? ' with NVLink SHARP' : ''} · network ${s.network}`,
      source: SYSTEM_SOURCES[id],
    };
  }),
  networks: NETWORK_IDS.map((id): PresetLine => {
    const n = NETWORKS[id]!;
    const domain = n.nvlinkDomainGpus === undefined ? '' : ` · NVLink domain of ${formatGrouped(n.nvlinkDomainGpus)} GPUs`;
    return {
      id, name: n.name,
      summary: `${n.kind}: ${n.nicsPerNode} NICs a node × ${gbpsText(n.nicBandwidth)} a direction · ${latencyText(n.latency)} latency${n.inNetworkReduction ? ' · in-network reduction (SHARP)' : ''}${domain}`,
      source: NETWORK_SOURCES[id],
    };
  }),
} as const;

export type PresetCatalogue = keyof typeof PRESET_LINES;
export const CATALOGUES = Object.keys(PRESET_LINES) as PresetCatalogue[];

/** One catalogue as text: a heading, then each id padded to a column, its name and figures, and its source on the next line. */
export function catalogueText(kind: PresetCatalogue): string {
  const lines = PRESET_LINES[kind];
  const width = Math.max(...lines.map((p) => p.id.length));
  return [`${kind} (${lines.length}):`, ...lines.flatMap((p) => [
    `  ${p.id.padEnd(width)}  ${p.name} · ${p.summary}`,
    `  ${''.padEnd(width)}  source: ${p.source.title}`,
  ])].join('\n');
}
