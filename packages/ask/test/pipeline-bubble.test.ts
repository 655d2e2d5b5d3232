import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

const options = { publicUrl: null, today: '2026-11-28' } as const;

/**
 * 1F1B's bubble (Narayanan et al. SC'21 §2.2.1), worked by hand: p stages, m micro-batches, v chunks per stage.
 * Of the ideal time: (p − 1)/(v·m). Of the step: (p − 1)/(v·m + p − 1).
 *   p 8, m 32, v 1: 7/32 = 0.21875 → 21.9%; 7/39 = 0.1795 → 17.9%.
 *   p 8, m 32, v 2: 7/64 = 0.109375 → 10.9%; 7/71 = 0.0986 → 9.9%.
 *   p 4, m 16, v 2: 3/32 = 0.09375 → 9.4%; 3/35 = 0.0857 → 8.6%.
 */
describe('a pipeline bubble of stages and micro-batches is answered, not declined as a definition', () => {
  it('"what\'s the pipeline bubble for pp 8 with 32 microbatches": 7/32 of the ideal time, 7/39 of the step', () => {
    const a = ask("what's the pipeline bubble for pp 8 with 32 microbatches", options);
    expect(a.kind).toBe('answer');
    expect(a.ok).toBe(true);
    expect(a.headline).toBe('Pipeline bubble for 8 stages and 32 micro-batches (1F1B): (p − 1)/m = 7/32 = 21.9% of the ideal time, 17.9% of the step ((p − 1)/(m + p − 1) = 7/39)');
    // The convention said: the planner's bubble is (p − 1)/v stage-times beside m in the steady state.
    expect(a.notes.join(' ')).toMatch(/Narayanan et al\. SC'21 §2\.2/);
    expect(a.notes.join(' ')).toMatch(/trainplan's planner costs a plan's bubble the same way/);
  });

  it.each([
    ['pipeline bubble with pp 8, 32 micro-batches and v 2', '7/(2·32) = 10.9% of the ideal time, 9.9% of the step'],
    ['bubble for pp 8 with 32 microbatches interleaved 2', '7/(2·32) = 10.9% of the ideal time, 9.9% of the step'],
    ['bubble fraction pp 4 with 16 microbatches and 2 virtual stages', '3/(2·16) = 9.4% of the ideal time, 8.6% of the step'],
  ])('"%s": interleaving divides it by v', (question, said) => {
    const a = ask(question, options);
    expect(a.ok).toBe(true);
    expect(a.headline).toContain('(interleaved 1F1B, 2 model chunks per stage)');
    expect(a.headline).toContain(said);
  });

  it('interleaving with micro-batches in no whole rounds of the stages says the planner does not run it (Megatron\'s schedules.py)', () => {
    // 30 micro-batches on 8 stages: 30 mod 8 = 6, not whole rounds.
    const a = ask('bubble for 8 stages with 30 microbatches and 2 virtual stages', options);
    expect(a.notes.join(' ')).toContain('30 is not a multiple of 8');
  });

  it.each([
    // By hand: p 4, m 8, v 1: 3/8 = 37.5% of the ideal time; 3/11 = 0.2727 → 27.3% of the step.
    ['bubble fraction pp=4 m=8', 'Pipeline bubble for 4 stages and 8 micro-batches (1F1B): (p − 1)/m = 3/8 = 37.5% of the ideal time, 27.3% of the step ((p − 1)/(m + p − 1) = 3/11)'],
    // p 4, m 16, v 2: worked in the header.
    ['pipeline bubble for pp 4 m 16 v 2', 'Pipeline bubble for 4 stages and 16 micro-batches (interleaved 1F1B, 2 model chunks per stage): (p − 1)/(v·m) = 3/(2·16) = 9.4% of the ideal time, 8.6% of the step ((p − 1)/(v·m + p − 1) = 3/35)'],
  ])('"%s": m is the micro-batches, never a 4M model (QA: refused as "pp 4 m", a 4M model)', (question, headline) => {
    const a = ask(question, options);
    expect(a.ok).toBe(true);
    expect(a.headline).toBe(headline);
  });

  it('GPipe asked: its bubble, the same as 1F1B\'s (3/8 by hand, as above), said as GPipe\'s, never "the plain 1F1B schedule"', () => {
    const a = ask('gpipe bubble pp 4 m 8', options);
    expect(a.headline).toBe('Pipeline bubble for 4 stages and 8 micro-batches (GPipe, the same as 1F1B): (p − 1)/m = 3/8 = 37.5% of the ideal time, 27.3% of the step ((p − 1)/(m + p − 1) = 3/11)');
    expect(a.assumptions.join(' ')).not.toMatch(/1F1B schedule/);
  });

  it('a V100 named is no "v 100": the plain 1F1B bubble', () => {
    expect(ask('pipeline bubble for pp 8 with 32 microbatches on v100', options).headline).toContain('(1F1B): (p − 1)/m = 7/32 = 21.9%');
  });

  it('"what is the pipeline bubble", no numbers, is still a definition', () => {
    expect(ask('what is the pipeline bubble', options).headline).toMatch(/^I answer planning questions, not definitions/);
  });
});
