import type { BreakdownJson } from '@trainplan/protocol';
import { formatPercent, formatSeconds } from '@trainplan/units';
import { barScale } from './bar-scale.ts';
import { esc, px } from './markup.ts';

export interface Segment {
  readonly key: string;
  readonly label: string;
  readonly seconds: number;
}

/**
 * The step time split into parts that add up to it: the planner's step is compute + tensor-,
 * context-parallel comm + pipeline bubble + pipeline comm + exposed data-parallel comm + optimizer
 * (packages/planner/src/estimate.ts); recompute is the part of compute spent re-running forwards, drawn
 * as its own part, so the compute part is labelled as the rest (the estimate's computeSeconds includes it).
 */
export function breakdownSegments(b: BreakdownJson): Segment[] {
  return [
    { key: 'compute', label: b.recomputeSeconds > 0 ? 'compute (excl. recompute)' : 'compute', seconds: b.computeSeconds - b.recomputeSeconds },
    { key: 'recompute', label: 'recompute', seconds: b.recomputeSeconds },
    { key: 'tp', label: 'tensor-parallel comm', seconds: b.tensorParallelCommSeconds },
    { key: 'cp', label: 'context-parallel comm', seconds: b.contextParallelCommSeconds },
    { key: 'bubble', label: 'pipeline bubble', seconds: b.pipelineBubbleSeconds },
    { key: 'pp', label: 'pipeline comm', seconds: b.pipelineCommSeconds },
    { key: 'dp', label: 'data-parallel comm (exposed)', seconds: b.dataParallelCommSeconds },
    { key: 'optimizer', label: 'optimizer', seconds: b.optimizerSeconds },
  ];
}

/** A stacked horizontal bar of the step time, with a legend; inline SVG markup. */
export function breakdownBar(b: BreakdownJson, stepTimeSeconds: number): string {
  const width = 320;
  const segments = breakdownSegments(b).filter((s) => s.seconds > 0);
  const total = stepTimeSeconds > 0 ? stepTimeSeconds : 1;
  let x = 0;
  const rects = segments.map((s) => {
    const w = (s.seconds / total) * width;
    const r = `<rect class="seg seg-${s.key}" x="${px(x)}" y="0" width="${px(w)}" height="24"><title>${esc(`${s.label}: ${formatSeconds(s.seconds)} (${formatPercent(s.seconds / total)})`)}</title></rect>`;
    x += w;
    return r;
  });
  const legend = segments.map((s) => `<li><span class="swatch seg-${s.key}"></span>${esc(s.label)} <b>${esc(formatSeconds(s.seconds))}</b> <small>${esc(formatPercent(s.seconds / total))}</small></li>`);
  return `<svg class="chart breakdown" viewBox="0 0 ${width} 24" preserveAspectRatio="none" role="img" aria-label="${esc(`step time breakdown, ${formatSeconds(stepTimeSeconds)} in all`)}">${rects.join('')}</svg>${barScale(formatSeconds(total), (unit) => `step time (${unit})`)}<ul class="legend">${legend.join('')}</ul>`;
}
