import { esc } from '../charts/markup.ts';
import { memoryPartsBar } from '../charts/memory-bar.ts';
import { servingFrontierChart } from '../charts/serving-frontier-chart.ts';
import { stat, warningsList } from '../element/results.ts';
import type { ServingView } from './serving-view.ts';

/** The output slots of `<trainplan-serving>` (serving-template.ts) and their markup. */
export type ServingSections = Readonly<Record<'.answer' | '.headline' | '.warnings' | '.out-memory' | '.out-frontier', string>>;

/** An answer that serves nothing: what would, as a list under its title (nothing when there is no remedy to give). */
function remediesList(view: ServingView): string {
  if (view.remedies.length === 0) return '';
  const lead = view.kind === 'unservable' ? 'To hold the model, try:' : 'To meet the bounds, try:';
  return `<p class="remedies-lead">${lead}</p><ul class="remedies" data-remedies>${view.remedies.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>`;
}

/**
 * A serving view as markup, one entry per output slot. A section with nothing to show (no memory where no
 * shape holds the model) is empty, heading included, rather than a heading over nothing.
 */
export function servingSections(view: ServingView, maxDecodeSecondsPerToken?: number): ServingSections {
  const closest = view.kind === 'missed' ? ' (closest plan)' : '';
  const chart = view.frontier.length > 0 || view.point
    ? `<h3>Latency against throughput</h3>${servingFrontierChart({ points: view.frontier, ...(view.point && { marked: view.point }), ...(maxDecodeSecondsPerToken !== undefined && { maxDecodeSecondsPerToken }) })}`
      + '<p class="caption">Each dot: a plan no other beats on both time per token and tokens/s per GPU (larger batches to the right); '
      + `ringed: the plan above${maxDecodeSecondsPerToken === undefined ? '' : '; dashed: the bound per token'}.</p>`
    : '';
  return {
    '.answer': `<p data-answer="${view.kind}">${esc(view.title)}</p>${remediesList(view)}`,
    '.headline': view.stats.map((s) => stat(s.name, s.value, s.label)).join(''),
    '.warnings': warningsList(view),
    '.out-memory': view.memory ? `<h3>Memory per GPU${closest}</h3>${memoryPartsBar(view.memory)}` : '',
    '.out-frontier': chart,
  };
}
