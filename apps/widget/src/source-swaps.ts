/**
 * Swaps of statements in a package's source for what the widget's bundle takes in their place (requests-never-made.ts,
 * unreached-by-calls.ts). Node-only, never part of the bundle.
 */

/** `[what, with]`: a statement of a source and what the bundle takes in its place. */
export type Swap = readonly [string, string];

/** Swaps in several sources: per source (its path under packages/), what the bundle takes in place of what. */
export type SourceSwaps = readonly (readonly [file: string, swaps: readonly Swap[]])[];

/** `source`, read from `file`, with each swap made in turn; throws where the text a swap replaces is not found. */
export function swapped(source: string, file: string, swaps: readonly Swap[]): string {
  for (const [what, by] of swaps) {
    if (!source.includes(what)) throw new Error(`no "${what}" to leave out of ${file}`);
    source = source.replace(what, by);
  }
  return source;
}
