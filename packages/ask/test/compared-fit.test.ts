import type { EstimateJson, EstimateOk } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

/** The PP the answer to one layout asked alone runs at: its closest that fits where the layout asked does not. */
function aloneFit(question: string): { pipeline: number; headline: string } {
  const a = ask(question, { publicUrl: null });
  const pipeline = Number(/^closest that fits, not what was asked: TP \d+ · PP (\d+) /.exec(a.configuration ?? '')?.[1]);
  return { pipeline, headline: a.headline };
}

describe('compared layouts with no PP stated get theirs as one layout asked alone does, each on its own', () => {
  const cluster = 'llama3-70b on 64 h100';

  it('"compare tp 4 vs tp 8": each at the fewest stages that fit when no pipeline is out of memory, as "with tp 4" and "with tp 8" alone', () => {
    const a = ask(`compare tp 4 vs tp 8 for ${cluster}`, { publicUrl: null });
    expect(a.ok).toBe(true);
    const data = a.data as EstimateJson[];
    expect(data.every((e) => e.ok && e.memory.fits)).toBe(true);
    for (const [i, tensor] of [4, 8].entries()) {
      const e = data[i] as EstimateOk;
      const alone = aloneFit(`step time of ${cluster} with tp ${tensor}`);
      expect(alone.pipeline).toBeGreaterThan(1);
      expect([e.resolved.tensor, e.resolved.pipeline, e.resolved.gpus]).toEqual([tensor, alone.pipeline, 64]);
      // The same figures as that layout stated in full, alone.
      const stated = ask(`step time of ${cluster} with tp ${tensor} pp ${alone.pipeline}`, { publicUrl: null });
      expect(e.stepTimeSeconds).toBe(stated.stepTimeSeconds);
      expect(a.figures.map((f) => f.label)).toContain(`TP ${tensor} · PP ${alone.pipeline}`);
    }
    // Neither runs without a pipeline, so that default is not among what is assumed; each depth is said, and why.
    expect(a.assumptions).not.toContain('no pipeline parallelism');
    expect(a.notes.filter((n) => /^TP \d · PP \d+, no PP asked: the fewest pipeline stages at tensor parallel \d that fit/.test(n))).toHaveLength(2);
  });

  it('a layout whose PP is stated stays as asked, out of memory, with the depth that fits said after it, as alone', () => {
    const a = ask(`compare tp 4 pp 2 vs tp 8 for ${cluster}`, { publicUrl: null });
    const [stated] = a.data as EstimateJson[];
    expect(stated?.ok === false && stated.reason === 'out-of-memory').toBe(true);
    const fits = /; (fits with pipeline parallel \d+ on [^;]+)$/.exec(aloneFit(`step time of ${cluster} with tp 4 pp 2`).headline)?.[1];
    expect(fits).toBeDefined();
    expect(a.headline).toContain(`TP 4 · PP 2: does not fit: `);
    expect(a.headline).toContain(`; ${fits}`);
  });

  it('a layout that fits with no pipeline keeps it', () => {
    const [e] = ask('compare tp 8 vs tp 4 for llama3-8b on 64 h100', { publicUrl: null }).data as EstimateJson[];
    expect(e?.ok && e.resolved.pipeline).toBe(1);
  });
});
