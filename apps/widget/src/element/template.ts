import { FIELDS } from '../form/fields.ts';
import { fieldsets } from './field-markup.ts';

/**
 * The fieldsets' legends. Not "Model" for the model's group: its select is labelled "Model", and a screen reader read
 * the two together as "Model Model" (QA); the group holds the sequence length too.
 */
const GROUPS = [
  ['model', 'Model and sequence'], ['cluster', 'Cluster'], ['batch', 'Batch and precision'], ['parallelism', 'Parallelism'], ['budget', 'How many nodes'],
] as const;

/**
 * The element's shadow DOM: the inputs, grouped, and empty output slots the results fill. The results stay
 * hidden until the first good estimate: a scenario that opens infeasible shows its message, not five empty headings.
 * The live regions (the status, the note, the warnings, each field's message) are in the page from the start, empty
 * and of no height (styles.ts): a screen reader announces what is written into a live region it already knows, and
 * often not one inserted already filled (QA). The search's result (`.out-search`, which names what it changed in the
 * form) is one, said once a search; "How many nodes" and the time–cost curve are not: their captions count the
 * cluster sizes searched, and as live regions they were said some 470 times in 1.5 s, each time with the answer under
 * them (WCAG 4.1.3 Status Messages: the result is the status message, not every step to it; QA). Each line ends in
 * `\`, a template literal's line continuation: no whitespace between the elements (9 B of the gzip budget).
 */
export function template(): string {
  return `<div class="tp" part="root">\
<form class="inputs" novalidate aria-label="training scenario">${fieldsets(FIELDS, GROUPS)}</form>\
<section class="outputs" aria-label="estimate">\
<p class="status" role="status" aria-live="polite"></p>\
<p class="note" aria-live="polite"></p>\
<div class="results" hidden>\
<p class="stale-note">Results for the last valid scenario.</p>\
<div class="headline" aria-live="polite"></div>\
<ul class="warnings" aria-live="polite"></ul>\
<div class="out-search" aria-live="polite"></div>\
<h3>Where the step goes</h3><div class="out-breakdown"></div>\
<h3>Memory per GPU</h3><div class="out-memory"></div>\
<h3>Pipeline schedule</h3><div class="out-pipeline"></div>\
<h3>Scaling over nodes</h3><div class="out-scaling"></div>\
<h3>How many nodes</h3><div class="out-nodes"></div>\
<div class="out-frontier"></div>\
<p class="share"><a class="share-link" href="#">Link to this scenario</a></p>\
</div></section></div>`;
}
