import { nearestAll } from '@trainplan/protocol';

/**
 * ' (did you mean h100-sxm?)' for a slip of a known name, as protocol's messages for an unknown id in a scenario say (up
 * to three names where they tie); else ''. nearestAll compares nothing for a name longer than every known one (past its
 * edits): a 1 MB path costs no table.
 */
export function didYouMean(typed: string, known: readonly string[]): string {
  const near = nearestAll(typed, known);
  if (near.length === 0 || near.length > 3) return '';
  return ` (did you mean ${near.length === 1 ? near[0] : `${near.slice(0, -1).join(', ')} or ${near.at(-1)}`}?)`;
}
