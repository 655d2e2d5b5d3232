import { formatIssue, type EstimateJson } from '@trainplan/protocol';
import { printable } from './printable-text.ts';

/**
 * An answer that is not ok as its one stderr line (printError adds `trainplan: `): its reason code for a script, then
 * its own message for a reader ("deadline-unreachable: no cluster of up to 8,192 nodes meets the deadline: …"). The
 * line of estimate, search and nodes alike.
 */
export const reasonLine = (a: { readonly reason: string; readonly message: string }): string => `${a.reason}: ${a.message}`;

/**
 * The stderr lines for the answers that are not ok, one line per answer (its issues joined by "; "),
 * so scripts can grep them and `--json` keeps stdout pure JSON. Issue paths already carry `[i].` for an array input (runEstimate
 * adds it); out-of-memory answers get the same `[i]` here. An issue that quotes the input (an unknown preset id) has its control
 * characters escaped (printable-text.ts), as the report has.
 */
export function problemLines(answer: EstimateJson | readonly EstimateJson[]): string[] {
  const many = Array.isArray(answer);
  const answers = (many ? answer : [answer]) as readonly EstimateJson[];
  return answers.flatMap((a, i) => {
    if (a.ok) return [];
    const issues = a.issues ?? [];
    if (issues.length > 0) return [issues.map(formatIssue).join('; ')];
    return [`${many ? `[${i}] ` : ''}${reasonLine(a)}`];
  }).map(printable);
}
