import { formatPercent } from '@trainplan/units';
import type { Timeline } from '../schedule/pipeline-timeline.ts';
import { CHART_VIEWBOX_WIDTH } from './chart-size.ts';
import { BACKWARD_LIGHTNESS, esc, FORWARD_LIGHTNESS, hue, px } from './markup.ts';

/** The height the rows of more than 16 stages share, in viewBox units (16 stages at 16 units take 256). */
const MANY_STAGES_HEIGHT = 188;

/**
 * The most forward and backward boxes the chart draws (each a rect and its title). p = 64 with v = 2 is
 * 16,384 of them even at the fewest micro-batches the interleaved schedule allows (m = p): 33,000 SVG
 * elements, which took the page seconds to lay out. Beyond, it draws every k-th stage, the first and the last.
 */
export const MAX_DRAWN_BOXES = 2048;

/** Up to `n` (≥ 2) of the stages 0 … p − 1: all, or every k-th from the first, and the last. */
function drawnStages(p: number, n: number): number[] {
  if (n >= p) return Array.from({ length: p }, (_, s) => s);
  // k·(n − 2) ≥ p − 1: the multiples of k below p − 1 are at most n − 1 rows, the last one more.
  const every = n > 2 ? Math.ceil((p - 1) / (n - 2)) : p - 1;
  const out: number[] = [];
  for (let s = 0; s < p - 1; s += every) out.push(s);
  return [...out, p - 1];
}

/**
 * Which drawn rows get a stage label: all when a row has room for its 10-unit text; on thinner rows the
 * first, the last and every k-th (k a power of two, so labels stay about 16 units apart), dropping a k-th one
 * less than 12 units above the last.
 */
function labelledRows(rows: number, row: number): Set<number> {
  if (row >= 12) return new Set(Array.from({ length: rows }, (_, i) => i));
  const every = 2 ** Math.ceil(Math.log2(16 / row));
  const out = new Set([0, rows - 1]);
  for (let i = every; i < rows - 1; i += every) if ((rows - 1 - i) * row >= 12) out.add(i);
  return out;
}

/**
 * The pipeline schedule as a Gantt chart: one row per stage, forward passes solid and backward
 * passes pale, each micro-batch its own colour; the idle grey behind the boxes is the bubble. When `t` is the
 * first micro-batches of a longer step, `step` gives the step's own m and bubble (a share of the step time), which
 * the caption leads with: "m = 16; bubble 43.8%" of the drawn window read as the step's (it had 96 micro-batches).
 */
export function pipelineChart(t: Timeline, step?: { readonly microBatches: number; readonly bubble: number }): string {
  const width = CHART_VIEWBOX_WIDTH;
  const perStage = t.ops.length / t.stages;
  const stages = drawnStages(t.stages, Math.max(2, Math.floor(MAX_DRAWN_BOXES / perStage)));
  const rowOf = new Map(stages.map((s, i) => [s, i] as const));
  // Up to 16 rows, a labelled 16-unit row each; more share 192 units (p = 64 was 512 units, a 540 px strip
  // of hairlines on a phone), each row keeping a quarter of its height as the gap to the next.
  const row = stages.length > 16 ? Math.min(8, MANY_STAGES_HEIGHT / stages.length) : 16;
  const gap = Math.min(2, row / 4);
  const label = 24;
  // A line above the rows for the stage axis's title, and one below them for the time axis's. A thin row's label is
  // centred on it, 4 units higher than a tall row's: 12 put s0 over the title at p ≥ 32 (it reaches 2.5 below its baseline at 10).
  const top = row >= 12 ? 12 : 16;
  const height = top + stages.length * row + 14;
  const scale = (width - label) / t.makespan;
  const labelled = labelledRows(stages.length, row);
  // A thin row's label is centred on it (10-unit text is taller than the row).
  const labelY = (i: number) => px(row >= 12 ? top + i * row + row - 4 : top + i * row + row / 2 + 3.5);
  const rows = stages.map((s, i) =>
    `<rect class="idle" x="${label}" y="${px(top + i * row + gap / 2)}" width="${width - label}" height="${px(row - gap)}"/>`
    + (labelled.has(i) ? `<text x="0" y="${labelY(i)}" class="axis" data-stage="${s}">s${s}</text>` : ''));
  const ops = t.ops.flatMap((o) => {
    const i = rowOf.get(o.stage);
    if (i === undefined) return [];
    // A micro-batch's number where its box has room for it (10-unit digits are about 6 units wide): 10–16 need 14 units,
    // which a box is only on a short pipeline. The default plan's (p = 8, 16 micro-batches drawn, full recompute) spans
    // 23 × 4 forward times over 246 units, so a backward box is 8 units wide, room for 1–9 alone at a legible 10 units;
    // the box's title names its micro-batch either way.
    const text = row >= 12 && (o.end - o.start) * scale >= String(o.microBatch + 1).length * 6 + 2 ? `<text x="${px(label + o.start * scale + 2)}" y="${top + i * row + row - 4}" class="mb">${o.microBatch + 1}</text>` : '';
    return [`<rect class="op ${o.kind === 'forward' ? 'fwd' : 'bwd'}" fill="${hue(o.microBatch, o.kind === 'forward' ? FORWARD_LIGHTNESS : BACKWARD_LIGHTNESS)}" x="${px(label + o.start * scale)}" y="${px(top + i * row + gap / 2)}" width="${px((o.end - o.start) * scale)}" height="${px(row - gap)}"><title>${esc(`stage ${o.stage}, micro-batch ${o.microBatch + 1}${t.virtualStages > 1 ? `, chunk ${o.chunk}` : ''}, ${o.kind}`)}</title></rect>${text}`];
  });
  // Time runs in the timeline's own unit, one whole-stage forward of one micro-batch (a backward is 2 or 3 of them).
  const axes = `<text class="axis axis-title" x="0" y="10" data-axis="y">stage</text>`
    + `<text class="axis axis-title" x="${label}" y="${px(height - 3)}" data-axis="x">time (forward passes of a micro-batch) →</text>`;
  const name = t.schedule === 'interleaved' ? `interleaved 1F1B, v = ${t.virtualStages}` : t.schedule === 'gpipe' ? 'GPipe' : '1F1B';
  const listed = stages.length > 4 ? [...stages.slice(0, 3).map((s) => `s${s}`), '…', `s${t.stages - 1}`] : stages.map((s) => `s${s}`);
  const sampled = stages.length < t.stages ? `${stages.length} of ${t.stages} stages drawn: ${listed.join(', ')}` : '';
  const drawn = `bubble ${formatPercent(t.bubbleFraction)} of the ideal time`;
  const window = step ? `first ${t.microBatches} of ${step.microBatches} micro-batches drawn, their ${drawn}` : '';
  const notes = [window, sampled].filter(Boolean).join('; ');
  const caption = `${name}: p = ${t.stages}, m = ${step?.microBatches ?? t.microBatches}; ${step ? `bubble ${formatPercent(step.bubble)} of the step` : drawn}${notes ? ` (${notes})` : ''}`;
  return `<svg class="chart pipeline" viewBox="0 0 ${width} ${px(height)}" role="img" aria-label="${esc(`pipeline schedule, ${caption}`)}">${axes}${rows.join('')}${ops.join('')}</svg><p class="caption">${esc(caption)}. Solid: forward; pale: backward; grey: idle (bubble).</p>`;
}
