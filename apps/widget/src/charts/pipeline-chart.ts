import { formatPercent } from '@trainplan/units';
import type { Timeline } from '../schedule/pipeline-timeline.ts';
import { esc, hue, px } from './markup.ts';

/**
 * The pipeline schedule as a Gantt chart: one row per stage, forward passes solid and backward
 * passes pale, each micro-batch its own colour; the idle grey behind the boxes is the bubble.
 */
/** The height the rows of more than 16 stages share, in viewBox units (16 stages at 16 units take 256). */
const MANY_STAGES_HEIGHT = 192;

export function pipelineChart(t: Timeline, note = ''): string {
  // About the width it is drawn at (330 px in a phone's column, 410 px beside an article), so its 10-unit
  // text stays 8 px or more on screen; a wider viewBox shrank it to 5 px on a phone.
  const width = 400;
  // Up to 16 stages, a labelled 16-unit row each; more share 192 units (p = 64 was 512 units, a 540 px strip
  // of hairlines on a phone), each row keeping a quarter of its height as the gap to the next.
  const row = t.stages > 16 ? Math.min(8, MANY_STAGES_HEIGHT / t.stages) : 16;
  const gap = Math.min(2, row / 4);
  const label = 24;
  // A line above the rows for the stage axis's title, and one below them for the time axis's.
  const top = 12;
  const height = top + t.stages * row + 14;
  const scale = (width - label) / t.makespan;
  const rows = Array.from({ length: t.stages }, (_, s) =>
    `<rect class="idle" x="${label}" y="${px(top + s * row + gap / 2)}" width="${width - label}" height="${px(row - gap)}"/>`
    + (row >= 12 ? `<text x="0" y="${top + s * row + row - 4}" class="axis">s${s}</text>` : ''));
  const ops = t.ops.map((o) => {
    // A micro-batch's number where its box has room for it (10-unit digits are about 6 units wide).
    const text = row >= 12 && (o.end - o.start) * scale >= String(o.microBatch + 1).length * 6 + 2 ? `<text x="${px(label + o.start * scale + 2)}" y="${top + o.stage * row + row - 4}" class="mb">${o.microBatch + 1}</text>` : '';
    return `<rect class="op ${o.kind === 'forward' ? 'fwd' : 'bwd'}" fill="${hue(o.microBatch)}" x="${px(label + o.start * scale)}" y="${px(top + o.stage * row + gap / 2)}" width="${px((o.end - o.start) * scale)}" height="${px(row - gap)}"><title>${esc(`stage ${o.stage}, micro-batch ${o.microBatch + 1}${t.virtualStages > 1 ? `, chunk ${o.chunk}` : ''}, ${o.kind}`)}</title></rect>${text}`;
  });
  // Time runs in the timeline's own unit, one whole-stage forward of one micro-batch (a backward is 2 or 3 of them).
  const axes = `<text class="axis axis-title" x="0" y="9" data-axis="y">stage</text>`
    + `<text class="axis axis-title" x="${label}" y="${px(height - 3)}" data-axis="x">time (forward passes of a micro-batch) →</text>`;
  const name = t.schedule === 'interleaved' ? `interleaved 1F1B, v = ${t.virtualStages}` : t.schedule === 'gpipe' ? 'GPipe' : '1F1B';
  const caption = `${name}: p = ${t.stages}, m = ${t.microBatches}; bubble ${formatPercent(t.bubbleFraction)} of the ideal time${note ? ` (${note})` : ''}`;
  return `<svg class="chart pipeline" viewBox="0 0 ${width} ${px(height)}" role="img" aria-label="${esc(`pipeline schedule, ${caption}`)}">${axes}${rows.join('')}${ops.join('')}</svg><p class="caption">${esc(caption)}. Solid: forward; pale: backward; grey: idle (bubble).</p>`;
}
