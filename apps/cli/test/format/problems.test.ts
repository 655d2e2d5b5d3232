import type { EstimateJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { problemLines } from '../../src/format/problems.ts';
import { fixtureEstimate } from '../support/scenarios.ts';

const oom: EstimateJson = { ok: false, reason: 'out-of-memory', message: 'needs 90 GiB' };
const invalid: EstimateJson = {
  ok: false, reason: 'invalid', message: '…',
  issues: [{ path: '[1].parallelism.tensor', message: 'expected an integer ≥ 1, got 0' }, { path: '[1].model', message: 'unknown preset' }],
};

describe('problemLines', () => {
  it.each<[string, EstimateJson | EstimateJson[], string[]]>([
    ['an ok answer', fixtureEstimate, []],
    ['an out-of-memory answer', oom, ['out-of-memory: needs 90 GiB']],
    ['an array: out-of-memory gets its index, issues keep theirs', [fixtureEstimate, invalid, oom], [
      '[1].parallelism.tensor: expected an integer ≥ 1, got 0; [1].model: unknown preset', '[2] out-of-memory: needs 90 GiB',
    ]],
  ])('lists one line per answer that is not ok, its issues joined, for %s', (_, answer, lines) => {
    expect(problemLines(answer)).toEqual(lines);
  });

  it('escapes the control characters an issue quotes from the input: one stderr line per answer, nothing recoloured', () => {
    const quoted: EstimateJson = { ok: false, reason: 'invalid', message: '…', issues: [{ path: 'model', message: 'unknown model "\u001b[31mx\ny"' }] };
    expect(problemLines(quoted)).toEqual(['model: unknown model "\\u001b[31mx\\ny"']);
  });
});
