import type { MemoryJson } from '@trainplan/protocol';
import { formatBytes, formatPercent } from '@trainplan/units';
import { barScale } from './bar-scale.ts';
import { esc, px } from './markup.ts';

/** One part of a GPU's memory: `key` picks its colour (the `mem-<key>` class in styles.ts). */
export interface MemoryPart {
  readonly key: string;
  readonly label: string;
  readonly bytes: number;
}

export interface MemoryParts {
  /** The parts, drawn left to right; they add up to totalBytes. */
  readonly parts: readonly MemoryPart[];
  readonly totalBytes: number;
  readonly capacityBytes: number;
  readonly fits: boolean;
}

/**
 * Memory per GPU as a stacked bar of its parts against the GPU's capacity (the marked line), with a
 * legend and "total of capacity (percent)" in words: the training estimate's parts, or serving's weights and KV cache.
 */
export function memoryPartsBar({ parts, totalBytes, capacityBytes, fits }: MemoryParts): string {
  const width = 320;
  const scale = Math.max(totalBytes, capacityBytes, 1);
  let x = 0;
  const rects = parts.filter((p) => p.bytes > 0).map(({ key, label, bytes }) => {
    const w = (bytes / scale) * width;
    const r = `<rect class="mem mem-${key}" x="${px(x)}" y="4" width="${px(w)}" height="20"><title>${esc(`${label}: ${formatBytes(bytes)}`)}</title></rect>`;
    x += w;
    return r;
  });
  const cap = (capacityBytes / scale) * width;
  const capacityLine = `<line class="capacity" x1="${px(cap)}" x2="${px(cap)}" y1="0" y2="28"><title>${esc(`capacity ${formatBytes(capacityBytes)}`)}</title></line>`;
  const legend = parts.map(({ key, label, bytes }) => `<li><span class="swatch mem-${key}"></span>${esc(label)} <b>${esc(formatBytes(bytes))}</b></li>`);
  const summary = `${formatBytes(totalBytes)} of ${formatBytes(capacityBytes)} (${formatPercent(totalBytes / Math.max(capacityBytes, 1), 0)})${fits ? '' : ': does not fit'}`;
  return `<svg class="chart memory" viewBox="0 0 ${width} 28" preserveAspectRatio="none" role="img" aria-label="${esc(`memory per GPU ${summary}`)}">${rects.join('')}${capacityLine}</svg>${barScale(formatBytes(scale), (unit) => `${unit} per GPU`)}<p class="caption">${esc(summary)}</p><ul class="legend">${legend.join('')}</ul>`;
}

/** A training estimate's memory per GPU, part by part, as the bar draws it and the out-of-memory message names its largest. */
export function memoryParts(m: MemoryJson): MemoryPart[] {
  return (['weights', 'gradients', 'optimizer', 'activations', 'other'] as const).map((key) => ({ key, label: key, bytes: m[`${key}Bytes`] }));
}

/**
 * A training estimate's memory per GPU: weights, gradients, optimizer state, activations and other
 * (logits, runtime reserve), as the estimate's `memory`.
 */
export function memoryBar(m: MemoryJson): string {
  return memoryPartsBar({
    parts: memoryParts(m),
    totalBytes: m.totalBytes, capacityBytes: m.capacityBytes, fits: m.fits,
  });
}
