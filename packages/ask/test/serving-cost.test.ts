import { describe, expect, it } from 'vitest';
import { hours, million } from '@trainplan/units';
import { compactCount } from '../src/format.ts';
import { figure, served } from './support/serving.ts';

const dollars = (x: number | undefined): string => `$${compactCount(x ?? Number.NaN)}`;

describe('a serving question with a price says what serving costs, from the protocol\'s cost of the plan', () => {
  it('"cost per million tokens to serve llama 3 8b on h100 at $2.5/gpu-hour": the cost per million output tokens, in the headline and a figure', () => {
    const { a, data } = served('cost per million tokens to serve llama 3 8b on h100 at $2.5/gpu-hour');
    const cost = data.best!.cost!;
    expect(cost.perHour).toBeUndefined();
    // The GPUs' hour over the tokens they generate in it: the protocol's figure, not reckoned here.
    expect(cost.perMillionOutputTokens).toBeCloseTo(million(1) * (2.5 / hours(1)) / data.best!.tokensPerSecondPerGpu, 9);
    expect(a.headline).toContain(`, ${dollars(cost.perMillionOutputTokens)} per million output tokens (≤ `);
    expect(figure(a, 'Cost')).toBe(`${dollars(cost.perMillionOutputTokens)} per million output tokens at $2.50/GPU-hour `
      + '(the GPUs\' time over the tokens they generate, the prompts\' prefill included)');
  });

  it('with a rate, per hour too: the GPUs the rate takes, idle slots paid', () => {
    const { a, data } = served('serve llama 3 70b on 16 h100 at 10 qps at $3 per gpu hour');
    const best = data.best!;
    const cost = best.cost!;
    expect(cost.perHour).toBe(best.load!.gpus * 3);
    expect(a.headline).toContain(`, ${dollars(cost.perMillionOutputTokens)} per million output tokens and ${dollars(cost.perHour)} an hour (≤ `);
    expect(figure(a, 'Cost')).toBe(`${dollars(cost.perMillionOutputTokens)} per million output tokens at $3/GPU-hour; `
      + `${dollars(cost.perHour)} an hour for the ${best.load!.gpus} GPUs 10 requests/s take, idle slots paid too`);
  });

  it('in the currency given; a bare price is said in the currency given', () => {
    expect(figure(served('serve llama 3 8b on 8 h100 at €2/gpu-hour').a, 'Cost')).toMatch(/^€[\d.]+ per million output tokens at €2\/GPU-hour/);
    expect(figure(served('serve llama 3 8b on a100 at 2 per gpu-hour').a, 'Cost')).toMatch(/^[\d.]+ \(in the currency given\) per million output tokens at 2\/GPU-hour/);
  });

  it('no price: no cost, and a question that asks one is told to give a price', () => {
    const asked = served('what does it cost to serve llama 3 8b on h100').a;
    expect(figure(asked, 'Cost')).toBe('');
    expect(asked.notes).toContain('No price given, so no cost: say one ("at $2.50/GPU-hour") for the cost per million output tokens.');
    expect(served('serve llama 3 8b on h100').a.notes.join(' ')).not.toMatch(/price/);
  });
});
