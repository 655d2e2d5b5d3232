/**
 * An invalid input's issues in words: one issue (`path: message`), and the first few on one line, the `message` of every
 * invalid answer. The RFC 9457 problem document of an invalid input, which says them too, is problem-document.ts's.
 * (This file imports nothing, so esbuild inlines its constant into the widget's bundle: an import stops that.)
 */
import type { FieldIssue } from './wire.ts';

/** How many issues `detail` spells out; the full list is in `issues`. */
export const ISSUES_IN_DETAIL = 3;

/** `parallelism.tensor: expected an integer ≥ 1, got 0`; an issue about the whole input has no path. */
export function formatIssue(issue: FieldIssue): string {
  return issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
}

/** The first few issues on one line, `a: …; b: … (and 2 more)`: the `message` of every invalid answer. */
export function issuesMessage(issues: readonly FieldIssue[]): string {
  const more = issues.length - ISSUES_IN_DETAIL;
  return issues.slice(0, ISSUES_IN_DETAIL).map(formatIssue).join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}
