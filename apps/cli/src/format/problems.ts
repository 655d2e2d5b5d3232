import { formatIssue, type EstimateJson } from '@trainplan/protocol';

/**
 * The stderr lines for the answers that are not ok, one line per answer (its issues joined by "; "),
 * so scripts can grep them and `--json` keeps stdout pure JSON. Issue paths already carry `[i].` for an array input (runEstimate
 * adds it); out-of-memory answers get the same `[i]` here.
 */
export function problemLines(answer: EstimateJson | readonly EstimateJson[]): string[] {
  const many = Array.isArray(answer);
  const answers = (many ? answer : [answer]) as readonly EstimateJson[];
  return answers.flatMap((a, i) => {
    if (a.ok) return [];
    const issues = a.issues ?? [];
    if (issues.length > 0) return [issues.map(formatIssue).join('; ')];
    return [`${many ? `[${i}] ` : ''}${a.reason}: ${a.message}`];
  });
}
