import type { MemoryJson } from '@trainplan/protocol';
import { formatBytes, formatPercent } from '@trainplan/units';
import { barScale } from './bar-scale.ts';
import { esc, px } from './markup.ts';

const PARTS = [
  ['weights', 'weights', 'weightsBytes'],
  ['gradients', 'gradients', 'gradientsBytes'],
  ['optimizer', 'optimizer', 'optimizerBytes'],
  ['activations', 'activations', 'activationsBytes'],
  ['other', 'other', 'otherBytes'],
] as const;

/**
 * Memory per GPU as a stacked bar against the GPU's capacity (the marked line): weights, gradients,
 * optimizer state, activations and other (logits, runtime reserve), as the estimate's `memory`.
 */
export function memoryBar(m: MemoryJson): string {
  const width = 320;
  const scale = Math.max(m.totalBytes, m.capacityBytes, 1);
  let x = 0;
  const rects = PARTS.filter(([, , k]) => m[k] > 0).map(([key, label, k]) => {
    const w = (m[k] / scale) * width;
    const r = `<rect class="mem mem-${key}" x="${px(x)}" y="4" width="${px(w)}" height="20"><title>${esc(`${label}: ${formatBytes(m[k])}`)}</title></rect>`;
    x += w;
    return r;
  });
  const cap = (m.capacityBytes / scale) * width;
  const capacityLine = `<line class="capacity" x1="${px(cap)}" x2="${px(cap)}" y1="0" y2="28"><title>${esc(`capacity ${formatBytes(m.capacityBytes)}`)}</title></line>`;
  const legend = PARTS.map(([key, label, k]) => `<li><span class="swatch mem-${key}"></span>${esc(label)} <b>${esc(formatBytes(m[k]))}</b></li>`);
  const summary = `${formatBytes(m.totalBytes)} of ${formatBytes(m.capacityBytes)} (${formatPercent(m.totalBytes / Math.max(m.capacityBytes, 1), 0)})${m.fits ? '' : ': does not fit'}`;
  return `<svg class="chart memory" viewBox="0 0 ${width} 28" preserveAspectRatio="none" role="img" aria-label="${esc(`memory per GPU ${summary}`)}">${rects.join('')}${capacityLine}</svg>${barScale(formatBytes(scale), (unit) => `${unit} per GPU`)}<p class="caption">${esc(summary)}</p><ul class="legend">${legend.join('')}</ul>`;
}
