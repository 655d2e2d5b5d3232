import { LAYOUT_FIELDS } from './lexicon/layouts.ts';
import type { AskParameters, IntentName, Layout } from './question.ts';

/**
 * A question comparing layouts ("tp 8 pp 8 or tp 4 pp 16") is planned once per layout, each with the question's other
 * facts: the parameters of one layout, and the intents that compare them.
 */

/** The parameters with `layout`'s sizes in place of the question's, a size it leaves out left out (a default fills it). */
export function withLayout(p: AskParameters, layout: Layout): AskParameters {
  const out: AskParameters = { ...p };
  for (const field of LAYOUT_FIELDS) {
    const size = layout[field];
    if (size === undefined) delete out[field];
    else out[field] = size;
  }
  return out;
}

/**
 * Intents whose answer is one layout's figures, so a comparison of layouts answers them (step time, memory, time to train;
 * classify.ts reads "best config: tp 8 or tp 4" as an estimate of each).
 * A search question (nodes, cheapest) sizes the cluster for one plan, a serving question plans a replica of its own: there,
 * layouts are asked one at a time.
 */
const COMPARES: ReadonlySet<IntentName> = new Set(['estimate', 'memory', 'time']);

/** Why layouts cannot be compared in a question of this intent; undefined where they can (or the question states one). */
export function layoutsProblem(intent: IntentName, layouts: readonly Layout[] | undefined): string | undefined {
  if (layouts === undefined || COMPARES.has(intent) || intent === 'help') return undefined;
  return `${layouts.length} layouts are compared on a cluster you name, by step time, memory or time to train ("what's faster for gpt3-175b on 128 nodes: tp 8 pp 8 or tp 4 pp 16"); for ${intent === 'serving' ? 'serving' : 'the cluster a plan needs'}, ask one layout at a time`;
}
