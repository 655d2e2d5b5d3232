import { meantPhrase, nearestAll } from './nearest.ts';

/** Spelt without its hyphens or in another case ("allreduce", "All_Reduce"): the one it spells. */
const squeezed = (s: string): string => s.toLowerCase().replace(/[-_\s]/g, '');

/**
 * " (did you mean all-reduce?)" for a value an enumerated field refused that is a slip of a known one, as unknown GPU
 * and model ids say theirs (preset-ids.ts didYouMean): the same letters without the hyphen ("allreduce"), else the
 * nearest by edits ("all-reduse", nearest.ts), or each as near where they tie (" (did you mean full or full-partial?)"
 * for "ful"); '' when none is near or the typed one is not a string. In the schema's enumOf, so that every enumerated
 * field (op, algorithm, recompute, batching, precision) says it, in the API's 400 as in the CLI's refusal.
 */
export function meantChoice(typed: unknown, known: readonly string[]): string {
  if (typeof typed !== 'string') return '';
  const same = known.find((k) => squeezed(k) === squeezed(typed));
  const meant = same === undefined ? nearestAll(typed.toLowerCase(), known) : [same];
  if (meant.length === 0 || meant[0] === typed) return '';
  return meantPhrase(meant);
}
