import { describe, expect, it } from 'vitest';
import { served, figure } from './support/serving.ts';
import { compactCount } from '../src/format.ts';

const dollars = (x: number): string => `$${compactCount(x)}`;
const QUESTION = (span: string): string => `how much to serve Llama 3 70B at 20 requests/s on H100 ${span} at $2/GPU-hour`;

/**
 * A serving cost asked over a span stated ("for 3 months") is said as its total over that span, as "for a month" is: the
 * protocol's cost an hour times the span's hours (a month read as 30 days, the deadline's reading, so 3 months = 90 days =
 * 2,160 hours; QA: only "$40 an hour" was said while the assumptions read the 3 months as 90 days).
 */
describe('the cost of serving over a stated span', () => {
  it.each([
    ['for 3 months', 90],
    ['for 2 weeks', 14],
    ['for 10 days', 10],
  ])('"%s": the hour\'s cost times %d days of 24 hours, in the headline and the Cost figure', (span, days) => {
    const { a, data } = served(QUESTION(span));
    const perHour = data.best?.cost?.perHour;
    expect(perHour).toBeDefined();
    const hours = days * 24;
    const total = `(${dollars(perHour! * hours)} for ${days} days: ${hours.toLocaleString('en-US')} hours)`;
    expect(a.headline).toContain(`${dollars(perHour!)} an hour ${total}`);
    expect(figure(a, 'Cost')).toContain(`${dollars(perHour!)} an hour ${total}`);
  });

  it('"for 3 months" on the 20 GPUs at $2/GPU-hour: $40 an hour, $86.4k for 90 days', () => {
    const { a, data } = served(QUESTION('for 3 months'));
    // By hand: 20 GPUs × $2 = $40 an hour; × 90 days × 24 h = 2,160 h → $86,400.
    expect(data.best?.load?.gpus).toBe(20);
    expect(a.headline).toContain('$40 an hour ($86.4k for 90 days: 2,160 hours)');
  });

  it('with a budget the span\'s cost is said once, then held to the budget', () => {
    const { a } = served('is $50k enough to serve Llama 3 70B at 20 requests/s on H100 for 3 months at $2/GPU-hour');
    // $86.4k − $50k = $36.4k over.
    expect(a.headline).toMatch(/^No: /);
    expect(a.headline).toContain('$40 an hour ($86.4k for 90 days: 2,160 hours), $36.4k over the $50k budget');
    expect(a.headline.match(/86\.4k/g)).toHaveLength(1);
  });
});
