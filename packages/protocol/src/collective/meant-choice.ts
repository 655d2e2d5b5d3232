import { nearest } from '../nearest.ts';

/** Spelt without its hyphens or in another case ("allreduce", "All_Reduce"): the one it spells. */
const squeezed = (s: string): string => s.toLowerCase().replace(/[-_\s]/g, '');

/**
 * " (did you mean all-reduce?)" for an op or algorithm the schema refused that is a slip of a known one, as unknown
 * GPU and model ids say theirs (preset-ids.ts didYouMean): the same letters without the hyphen ("allreduce"), else
 * the nearest by edits ("all-reduse", nearest.ts); '' when none is near or the typed one is not a string. In the
 * protocol, so that POST /v1/collective's 400 says it as the CLI's refusal does.
 */
export function meantChoice(typed: unknown, known: readonly string[]): string {
  if (typeof typed !== 'string') return '';
  const meant = known.find((k) => squeezed(k) === squeezed(typed)) ?? nearest(typed.toLowerCase(), known);
  return meant === undefined || meant === typed ? '' : ` (did you mean ${meant}?)`;
}
