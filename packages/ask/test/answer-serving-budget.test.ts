import { describe, expect, it } from 'vitest';
import type { InferenceResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';

/** The GPUs a serving answer's plan takes for its rate (the protocol's load), from the answer's data. */
function loadGpus(a: ReturnType<typeof ask>): number {
  const data = a.data as InferenceResponseJson;
  const gpus = data.ok ? data.best?.load?.gpus : undefined;
  if (gpus === undefined) throw new Error('no load');
  return gpus;
}

const options = { publicUrl: null, today: '2026-11-28' } as const;

describe('a serving answer holds the money budget it read to the cost of the period served', () => {
  it('"is $5k enough … for a week at $2/GPU-hour": No, the week\'s cost over the budget by its difference', () => {
    const a = ask('is $5k enough to serve Llama 3 70B at 20 requests/s on H100 for a week at $2/GPU-hour', options);
    expect(a.ok).toBe(true);
    // By hand: the GPUs × $2 × 168 hours; 20 GPUs give $6,720, $1,720 over $5,000.
    const week = loadGpus(a) * 2 * 168;
    expect(week).toBeGreaterThan(5000);
    expect(a.headline).toMatch(/^No: /);
    const m = /\$([\d.]+)k a week: 168 hours\), \$([\d.]+)k over the \$5k budget/.exec(a.headline);
    expect(m).not.toBeNull();
    expect(Number(m![1]) * 1000).toBeCloseTo(week, -1);
    expect(Number(m![2]) * 1000).toBeCloseTo(week - 5000, -1);
  });

  it('"how many H100s … for under $10k a month": the month\'s cost against the budget, one month of 30 days (720 hours) in both', () => {
    const a = ask('how many H100s to serve Llama 3 70B at 20 requests/s for under $10k a month at $2/GPU-hour', options);
    expect(a.ok).toBe(true);
    // A how-many question asks no yes or no; the month is costed as the assumption reads it, 30 days.
    expect(a.headline).not.toMatch(/^(?:Yes|No): /);
    expect(a.assumptions).toContain('a month taken as 30 days');
    const month = loadGpus(a) * 2 * 30 * 24;
    const m = /\$([\d.]+)k a month: 720 hours, a month taken as 30 days\), \$([\d.]+)k over the \$10k budget/.exec(a.headline);
    expect(m).not.toBeNull();
    expect(Number(m![1]) * 1000).toBeCloseTo(month, -2);
    const over = Number(m![2]) * 1000;
    expect(over).toBeCloseTo(month - 10000, -2);
  });
});
