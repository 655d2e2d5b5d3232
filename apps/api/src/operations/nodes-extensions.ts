import type { FieldIssue } from '@trainplan/protocol';

/**
 * The schema's refusal of uptime with what the field is: "expected a number > 0 and ≤ 1, got 90" alone does not say
 * that 90% is 0.9.
 */
export function withUptimeHint(issues: FieldIssue[]): FieldIssue[] {
  return issues.map((i) => (i.path === 'uptime'
    ? { ...i, message: `${i.message} (uptime is the share of wall-clock time spent training, above 0 and at most 1: 0.9 for 90%, Meta's figure for Llama 3)` }
    : i));
}
