import type { InferencePointJson } from '@trainplan/protocol';
import { formatGrouped, formatSeconds, toMs } from '@trainplan/units';
import { axisTitles, logXTicks, PLOT_PAD, plotFrame, yEndTicks } from './axes.ts';
import { CHART_VIEWBOX_WIDTH } from './chart-size.ts';
import { esc, px } from './markup.ts';

export interface ServingFrontierInput {
  /** The latency–throughput frontier (runInference's `frontier`), in any order. */
  readonly points: readonly InferencePointJson[];
  /** The plan the answer gives (the best, or the closest to the bounds): ringed, and drawn even off the frontier. */
  readonly marked?: InferencePointJson;
  /** The request's bound per output token, drawn as a dashed line where it falls inside the plot. */
  readonly maxDecodeSecondsPerToken?: number;
}

const WIDTH = CHART_VIEWBOX_WIDTH;
const HEIGHT = 184;
/** Room beyond the extreme points (a factor on the log axes), so the end dots and their rings stay inside the plot. */
const MARGIN_FACTOR = 1.15;

const same = (a: InferencePointJson, b: InferencePointJson) => a.tensor === b.tensor && a.pipeline === b.pipeline && a.batch === b.batch;
const rate = (x: number) => formatGrouped(x, 3);

/**
 * Serving's latency against throughput: time per output token across (ms, log scale), tokens/s per GPU up
 * (log scale: batch 1 and the largest batch differ a hundredfold), one dot per frontier point, joined. Larger
 * batches sit up and to the right: more tokens/s per GPU, each user's tokens slower. Every dot's title gives
 * its shape, batch and figures.
 */
export function servingFrontierChart({ points, marked, maxDecodeSecondsPerToken }: ServingFrontierInput): string {
  const ok = [...points, ...(marked && !points.some((p) => same(p, marked)) ? [marked] : [])]
    .filter((p) => p.decodeStepSeconds > 0 && p.tokensPerSecondPerGpu > 0);
  if (ok.length === 0) return '<p class="caption">No serving point to draw.</p>';
  const frontier = points.filter((p) => ok.includes(p)).sort((a, b) => a.decodeStepSeconds - b.decodeStepSeconds);
  const msOf = ok.map((p) => toMs(p.decodeStepSeconds));
  const rates = ok.map((p) => p.tokensPerSecondPerGpu);
  const [x0, x1] = [Math.min(...msOf) / MARGIN_FACTOR, Math.max(...msOf) * MARGIN_FACTOR];
  const [y0, y1] = [Math.min(...rates) / MARGIN_FACTOR, Math.max(...rates) * MARGIN_FACTOR];
  const X = (v: number) => PLOT_PAD.left + (Math.log(v / x0) / Math.log(x1 / x0)) * (WIDTH - PLOT_PAD.left - PLOT_PAD.right);
  const Y = (v: number) => HEIGHT - PLOT_PAD.bottom - (Math.log(v / y0) / Math.log(y1 / y0)) * (HEIGHT - PLOT_PAD.top - PLOT_PAD.bottom);
  /** A point's place in the plot, as SVG attribute text. */
  const xy = (p: InferencePointJson) => [px(X(toMs(p.decodeStepSeconds))), px(Y(p.tokensPerSecondPerGpu))] as const;
  const at = (p: InferencePointJson) => xy(p).join(',');

  const line = frontier.length > 1 ? `<path class="line" d="M${frontier.map(at).join('L')}"/>` : '';
  // Each point's figures, as its dot's hover title and in the chart's accessible name: a screen reader has no hover (QA).
  const said = ok.map((p) => `TP ${p.tensor} · PP ${p.pipeline} · batch ${rate(p.batch)}: ${formatSeconds(p.decodeStepSeconds)} per token, ${rate(p.tokensPerSecondPerGpu)} tokens/s per GPU, first token ${formatSeconds(p.prefillSeconds)}`);
  const dots = ok.map((p, i) => {
    const [cx, cy] = xy(p);
    return `<circle class="dot${frontier.includes(p) ? '' : ' off-curve'}" data-plan="${p.tensor}x${p.pipeline}x${p.batch}" cx="${cx}" cy="${cy}" r="3"><title>${esc(said[i]!)}</title></circle>`;
  });
  const ringAt = marked && ok.some((p) => same(p, marked)) ? xy(marked) : undefined;
  const ring = ringAt ? `<circle class="mark" data-marker="plan" cx="${ringAt[0]}" cy="${ringAt[1]}" r="6"/>` : '';
  const boundMs = maxDecodeSecondsPerToken === undefined ? undefined : toMs(maxDecodeSecondsPerToken);
  const bound = boundMs !== undefined && boundMs > x0 && boundMs < x1
    ? `<line class="bound" data-bound="token" x1="${px(X(boundMs))}" x2="${px(X(boundMs))}" y1="${PLOT_PAD.top}" y2="${HEIGHT - PLOT_PAD.bottom}"><title>${esc(`bound: ${formatSeconds(maxDecodeSecondsPerToken!)} per token`)}</title></line>` : '';
  const xTicks = logXTicks(Math.min(...msOf), Math.max(...msOf), X, WIDTH, HEIGHT);
  const yTicks = yEndTicks(Math.min(...rates), Math.max(...rates), Y, rate);
  const titles = axisTitles(WIDTH, HEIGHT, 'tokens/s per GPU', 'ms per output token (log scale)');
  return `<svg class="chart serving-frontier" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${esc(`tokens/s per GPU against time per output token: ${said.join('; ')}`)}">`
    + `${plotFrame(WIDTH, HEIGHT)}${bound}${line}${ring}${dots.join('')}${xTicks}${yTicks}${titles}</svg>`;
}
