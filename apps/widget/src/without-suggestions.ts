import { closingBracket } from './strip-properties.ts';

/**
 * @trainplan/protocol's suggestions for a name it does not know, which the bundle (build.ts, protocolWithoutSuggestions)
 * answers with none. The widget's requests are built from its own controls, so neither reaches them there: a preset id
 * the form holds, a link's included, is refused by the form before the protocol sees it (form/parse-field.ts: `unknown
 * model "gpt3-175"`), and only a hand-edited link carries a key the schema does not know, whose refusal still names its
 * path ("training.globalBach: unknown field"). The API and the CLI, where people type ids and keys, keep them, as they
 * keep the enumerated values' (compute/no-meant-choice.ts). Node-only, never part of the bundle.
 */

/** preset-ids.ts's suggestion of a known preset id for an unknown one: " (did you mean gpt3-175b?)". */
export const DID_YOU_MEAN = 'export function didYouMean(id: string, ids: readonly string[]): string {';

/** schema/object.ts's suggestion for an unknown key: " (did you mean tensor?)", " (known fields: …)". */
export const KEY_HINT = 'function hint(key: string, known: readonly string[], nested: readonly string[] = []): string {';

/**
 * `source` with the function whose head is `head` (its `{` last) returning '' and nothing else, so that what only its
 * body used (the edit distance, nearest.ts) leaves the bundle too. Throws where the head is not found, so that a change
 * to the function fails the build, not the bundle.
 */
export function returningNothing(source: string, head: string): string {
  const start = source.indexOf(head);
  const end = start < 0 ? undefined : closingBracket(source, start + head.length);
  if (end === undefined) throw new Error(`no "${head} … }" to empty`);
  return `${source.slice(0, start)}${head} return ''; }${source.slice(end + 1)}`;
}
