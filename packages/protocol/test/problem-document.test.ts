import { describe, expect, it } from 'vitest';
import {
  INVALID_REQUEST_PROBLEM_TYPE, INVALID_SCENARIO_PROBLEM_TYPE, OVER_BUDGET_PROBLEM_TYPE, PROBLEM_TYPE_BASE, PROBLEM_TYPE_NAMES, PROBLEM_TYPES,
  problemDetails,
} from '../src/index.ts';

describe('the problem types of our own: one table for the URIs and their pages', () => {
  it('keeps the published type URIs, which a client may match (RFC 9457 §3.1.1)', () => {
    expect(INVALID_SCENARIO_PROBLEM_TYPE).toBe('https://trainplan.dev/problems/invalid-scenario');
    expect(INVALID_REQUEST_PROBLEM_TYPE).toBe('https://trainplan.dev/problems/invalid-request');
    expect(OVER_BUDGET_PROBLEM_TYPE).toBe('https://trainplan.dev/problems/over-budget');
  });

  it('every URI a constant holds is the base and a name of the table, and every name has one', () => {
    const uris = [INVALID_SCENARIO_PROBLEM_TYPE, INVALID_REQUEST_PROBLEM_TYPE, OVER_BUDGET_PROBLEM_TYPE];
    expect(uris.map((uri) => uri.slice(PROBLEM_TYPE_BASE.length))).toEqual(PROBLEM_TYPE_NAMES);
  });

  it('an invalid input\'s document carries its type, with the status the table gives', () => {
    const scenario = problemDetails([{ path: 'model', message: 'missing' }]);
    const request = problemDetails([{ path: 'model', message: 'missing' }], 400, 'search request');
    expect([scenario.type, scenario.status]).toEqual([INVALID_SCENARIO_PROBLEM_TYPE, PROBLEM_TYPES['invalid-scenario'].status]);
    expect([request.type, request.status]).toEqual([INVALID_REQUEST_PROBLEM_TYPE, PROBLEM_TYPES['invalid-request'].status]);
  });
});
