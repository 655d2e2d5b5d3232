import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTRACT_EXAMPLE, formatPath, runEstimate, validateScenarios, type EstimateJson } from '@trainplan/protocol';
import { caseCounter, hostileValue, mutationsOf, replaceAt } from '../src/index.ts';

const counter = caseCounter('wire-fuzz');

/** `a` and `b` name the same node, or one is an ancestor of the other ("model" and "model.layers"). */
const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`) || b.startsWith(`${a}.`) || b.startsWith(`${a}[`);

/** The issues of a failed validation, or [] when the body was (still) valid. */
function issuesOf(body: unknown): { path: string; message: string }[] {
  const v = validateScenarios(body);
  return v.ok ? [] : v.issues;
}

describe('the scenario wire format under hostile input', () => {
  it('any JSON-ish value: validation never throws, and each issue names a path and says what is wrong', () => {
    fc.assert(fc.property(hostileValue, (body) => {
      counter.add();
      const issues = issuesOf(body);
      for (const issue of issues) {
        expect(typeof issue.path).toBe('string');
        expect(issue.message.length).toBeGreaterThan(0);
        expect(issue.message.length).toBeLessThan(400);
      }
      const answer = runEstimate(body);
      const answers = (Array.isArray(answer) ? answer : [answer]) as EstimateJson[];
      for (const a of answers) expect(typeof a.ok).toBe('boolean');
    }), { numRuns: 2_000 });
  });

  it('one bad field in an otherwise valid scenario: the error names that field (or its parent)', () => {
    let refused = 0;
    fc.assert(fc.property(mutationsOf(CONTRACT_EXAMPLE), ({ body, path }) => {
      counter.add();
      const issues = issuesOf(body);
      if (issues.length === 0) {
        // Still valid (an optional field removed, or a value that happens to be allowed): it must estimate.
        const answer = runEstimate(body) as EstimateJson;
        expect(typeof answer.ok).toBe('boolean');
        return;
      }
      refused += 1;
      // Some issue names the damaged node, an ancestor (a missing field is reported on its parent
      // object) or a descendant (a deep value replaced inside it).
      const damaged = formatPath([...path]);
      expect(issues.map((i) => i.path).some((p) => related(p, damaged)), `${damaged}: ${JSON.stringify(issues)}`).toBe(true);
    }), { numRuns: 3_000 });
    expect(refused).toBeGreaterThan(1_000);
  });

  it('a wrong type at a known numeric field is reported at exactly that path', () => {
    const numeric = [['training', 'globalBatchSize'], ['parallelism', 'tensor'], ['cluster', 'nodes']] as const;
    fc.assert(fc.property(fc.constantFrom(...numeric), fc.constantFrom('8', 'NaN', 'Infinity', null, -1, 1.5, 1e308, [], {}), (path, value) => {
      counter.add();
      const issues = issuesOf(replaceAt(CONTRACT_EXAMPLE, path, value));
      expect(issues.map((i) => i.path)).toContain(formatPath([...path]));
    }), { numRuns: 200 });
  });

  it('an array of scenarios: each issue path starts with the index of the bad element', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4 }), hostileValue, (index, bad) => {
      counter.add();
      const batch: unknown[] = [CONTRACT_EXAMPLE, CONTRACT_EXAMPLE, CONTRACT_EXAMPLE, CONTRACT_EXAMPLE, CONTRACT_EXAMPLE];
      batch[index] = { ...CONTRACT_EXAMPLE, model: bad };
      for (const issue of issuesOf(batch)) expect(issue.path.startsWith(`[${index}]`)).toBe(true);
    }), { numRuns: 500 });
  });
});

afterAll(() => {
  // Issue 8: at least 10,000 generated cases per run across test/fuzz (see ../src/case-count.ts).
  expect(counter.count).toBeGreaterThanOrEqual(counter.floor);
});
