import { withShapeDefaults } from '@trainplan/model';
import { describe, expect, it } from 'vitest';
import { explainAlternatives, searchPlans, type SearchBase } from '../src/index.ts';
import { llama70bBase } from './fixtures.ts';

/** A one-node H100 with a GPT of `layers` layers (h 1024, 8 heads) at `batch` sequences of 2,048 tokens: steps of microseconds to hours. */
const tiny = (layers: number, batch: number): SearchBase => ({
  ...llama70bBase,
  model: withShapeDefaults({ name: 'gpt-tiny', layers, hiddenSize: 1024, attentionHeads: 8, vocabSize: 32000, seqLength: 2048 }),
  nodes: 1,
  seqLength: 2048,
  globalBatchSize: batch,
});

/** The "(+… per step)" figures of the runnable neighbours' lines. */
function perStep(base: SearchBase): string[] {
  const best = searchPlans(base, { top: 1 }).top[0]!;
  return explainAlternatives(base, best, { limit: 20 }).flatMap((a) => /\(([+−][^()]*) per step\)$/.exec(a.why)?.slice(1) ?? []);
}

/** Three significant figures and a unit, as formatSeconds writes them ("25.4 µs", "1.72 ms", "107 s", "3.86 min"). */
const threeFigures = (text: string) => /^[+−]\d[\d.]* (ns|µs|ms|s|min|h|days)$/.test(text) && text.replace(/[^\d]/g, '').replace(/^0+/, '').length === 3;

describe('explainAlternatives: the time a neighbour adds per step', () => {
  it('microseconds as microseconds: a one-layer model\'s steps grow by tens of µs, not "+0 ms"', () => {
    const figures = perStep(tiny(1, 1));
    expect(figures.some((f) => f.endsWith(' µs')), figures.join('; ')).toBe(true);
    for (const f of figures) expect(threeFigures(f), f).toBe(true);
  });

  it('long steps in minutes, as the rest of the answer states them: not "+662.00 s"', () => {
    const figures = perStep(tiny(8, 4_194_304));
    expect(figures.some((f) => f.endsWith(' min')), figures.join('; ')).toBe(true);
    for (const f of figures) expect(threeFigures(f), f).toBe(true);
  });
});
