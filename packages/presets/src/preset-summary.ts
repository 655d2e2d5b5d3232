import { nvlinkBandwidthPerDirection, type GpuSpec, type NetworkSpec, type SystemSpec } from '@trainplan/hardware';
import { formatBytes, formatCountExact, formatGrouped } from '@trainplan/units';
import type { ModelPreset } from './model-preset.ts';
import { gbpsText, latencyText, PRECISION_NAMES, tflops, wattsText } from './preset-figures.ts';

/**
 * Each preset's key figures in one line of words, its `summary`: what `trainplan presets` lists beside the id and name,
 * and the field the catalogue's JSON carries (preset-json.ts), served alike by GET /v1/presets/{kind} and
 * `trainplan presets --json` (QA: the CLI's JSON carried it and the API's did not). The figures are the spec's own, in
 * preset-figures.ts' units; each spec cites its source in its catalogue.
 */

/**
 * A GPU's dense peaks in TFLOP/s (the 16-bit precision training runs at, BF16, or FP16 on the V100, which has no BF16;
 * then FP8 and TF32 where it has them), its memory and memory bandwidth, its NVLink per direction (links × per-link
 * rate, hardware's nvlinkBandwidthPerDirection: QA read "18 NVLinks" alike for H100 and B200, whose links are twice as
 * fast), and its power.
 */
export function gpuSummary(g: GpuSpec): string {
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

/** A model's parameters as its source names them ("70B", "1.3B", "145.6B": no zeros it does not state; QA: "7.00B" for a nominal 7B), its shape and sequence length. */
export function modelSummary({ shape, publishedParameters }: Pick<ModelPreset, 'shape' | 'publishedParameters'>): string {
  const heads = `${formatGrouped(shape.attentionHeads)} heads${shape.kvHeads !== shape.attentionHeads ? ` (${formatGrouped(shape.kvHeads)} KV)` : ''}`;
  return `${formatCountExact(publishedParameters)} parameters · ${formatGrouped(shape.layers)} layers, hidden ${formatGrouped(shape.hiddenSize)}, ${heads} · ${formatGrouped(shape.seqLength)}-token sequences`;
}

/** A node: its GPUs, how they meet, and the network it ships with. */
export const systemSummary = (s: SystemSpec): string =>
  `${s.gpusPerNode} × ${s.gpu} a node · ${s.intraNode}${s.nvlinkSharp ? ' with NVLink SHARP' : ''} · network ${s.network}`;

/** A fabric: its NICs a node and their rate a direction, its latency, SHARP, and the NVLink domain where it has one. */
export function networkSummary(n: NetworkSpec): string {
  const domain = n.nvlinkDomainGpus === undefined ? '' : ` · NVLink domain of ${formatGrouped(n.nvlinkDomainGpus)} GPUs`;
  return `${n.kind}: ${n.nicsPerNode} NICs a node × ${gbpsText(n.nicBandwidth)} a direction · ${latencyText(n.latency)} latency${n.inNetworkReduction ? ' · in-network reduction (SHARP)' : ''}${domain}`;
}
