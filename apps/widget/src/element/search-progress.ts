/** What the estimator shows while it searches (its captions) and the task boundaries that let the browser paint them. */
import { failureOf } from '../compute/backend.ts';
import { esc } from '../charts/markup.ts';

/** The curve's section while the deadline's search runs: the curve's own search starts when that one ends. */
export const CURVE_NEXT = '<p class="caption">Searching cluster sizes for the deadline, then for the time–cost curve…</p>';

/** A caption saying why a section has no answer (backend.ts failureOf). */
export const failed = (e: unknown): string => `<p class="caption">${esc(failureOf(e))}</p>`;

/**
 * A caption saying what is being searched, with room for how many cluster sizes are done (#progress fills it). Only in
 * sections that are no live regions (template.ts): a screen reader reads the count where the reader goes to it, and is
 * not told of every size (WCAG 4.1.3 Status Messages; QA heard some 470 counts in 1.5 s).
 */
export const searching = (what: string): string => `<p class="caption">${what}…<span class="progress"></span></p>`;

/**
 * A task boundary: the browser paints what is on screen and handles input before the next search. A search runs in a
 * worker (compute/off-thread.ts) where one starts; where none does, in the page, as one task no boundary splits.
 */
export const nextTask = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, 0));
