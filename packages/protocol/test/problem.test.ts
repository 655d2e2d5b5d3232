import { describe, expect, it } from 'vitest';
import { INVALID_SCENARIO_PROBLEM_TYPE, formatIssue, problemDetails, validateScenario, type FieldIssue } from '../src/index.ts';

const issue = (n: number): FieldIssue => ({ path: `parallelism.f${n}`, message: `problem ${n}` });

describe('problem details (RFC 9457)', () => {
  it('carries the problem type, a title, the status and the issues', () => {
    const issues = [{ path: 'parallelism.tensor', message: 'expected an integer ≥ 1, got 0' }];
    expect(problemDetails(issues)).toEqual({
      type: 'https://trainplan.dev/problems/invalid-scenario',
      title: 'Invalid scenario',
      status: 400,
      detail: 'The scenario has 1 issue: parallelism.tensor: expected an integer ≥ 1, got 0.',
      issues,
      // The scenario contract's invalid answer beside RFC 9457's members: what an array's slot and the CLI say.
      ok: false,
      reason: 'invalid',
      message: 'parallelism.tensor: expected an integer ≥ 1, got 0',
    });
    expect(INVALID_SCENARIO_PROBLEM_TYPE).toBe('https://trainplan.dev/problems/invalid-scenario');
  });

  it('takes another status, e.g. 422', () => expect(problemDetails([issue(1)], 422).status).toBe(422));

  it.each([
    [2, 'The scenario has 2 issues: parallelism.f1: problem 1; parallelism.f2: problem 2.'],
    [3, 'The scenario has 3 issues: parallelism.f1: problem 1; parallelism.f2: problem 2; parallelism.f3: problem 3.'],
    [5, 'The scenario has 5 issues: parallelism.f1: problem 1; parallelism.f2: problem 2; parallelism.f3: problem 3; and 2 more.'],
  ])('the detail of %i issues names the first three in one sentence', (count, detail) => {
    const issues = Array.from({ length: count }, (_, i) => issue(i + 1));
    expect(problemDetails(issues).detail).toBe(detail);
    expect(problemDetails(issues).issues).toHaveLength(count);
  });

  it('an issue about the whole input is shown without a path', () => {
    expect(formatIssue({ path: '', message: 'expected a scenario object, got null' })).toBe('expected a scenario object, got null');
    expect(problemDetails([]).detail).toBe('The scenario is invalid.');
  });

  it('copies the issues, so changing the document leaves the validation result alone', () => {
    const result = validateScenario({ model: 'm', cluster: { gpu: 'g', nodes: 0 }, training: { globalBatchSize: 1 } });
    if (result.ok) throw new Error('expected issues');
    const problem = problemDetails(result.issues);
    for (const copied of problem.issues) copied.message = 'changed';
    expect(result.issues[0]?.message).toBe('expected an integer ≥ 1, got 0');
    expect(JSON.parse(JSON.stringify(problem))).toEqual(problem);
  });
});
