import { SERVING_FIELDS, SERVING_GROUPS } from '../serving/serving-fields.ts';
import { fieldsets } from './field-markup.ts';

/**
 * `<trainplan-serving>`'s shadow DOM: the inputs, grouped as the estimator's are, and the output slots
 * serving-results.ts fills. The results stay hidden until the first answer: an invalid request opening the
 * element shows its field's message, not empty headings. The status is in the page from the start, empty, as the
 * estimator's is (template.ts says why); each line ends in a line continuation, as there.
 */
export function servingTemplate(): string {
  return `<div class="tp" part="root">\
<form class="inputs" novalidate aria-label="serving scenario">${fieldsets(SERVING_FIELDS, SERVING_GROUPS)}</form>\
<section class="outputs" aria-label="serving estimate">\
<p class="status" role="status" aria-live="polite"></p>\
<div class="results" hidden>\
<div class="answer" aria-live="polite"></div>\
<div class="headline"></div>\
<ul class="warnings"></ul>\
<div class="out-memory"></div>\
<div class="out-frontier"></div>\
</div></section></div>`;
}
