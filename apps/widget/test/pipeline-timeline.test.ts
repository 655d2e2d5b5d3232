import { describe, expect, it } from 'vitest';
import { pipelineTimeline, type Timeline, type TimelineSchedule } from '../src/schedule/pipeline-timeline.ts';

function ok(input: Parameters<typeof pipelineTimeline>[0]): Timeline {
  const r = pipelineTimeline(input);
  if (!r.ok) throw new Error(r.message);
  return r.timeline;
}

// Narayanan et al. SC'21 §2.2: with equal stages, 1F1B takes (m + p − 1) micro-batch times and the
// interleaved schedule (m + (p − 1)/v); the bubble is (p − 1)/(v·m) of the ideal m micro-batch times.
const cases: [number, number, number, TimelineSchedule][] = [
  [4, 8, 1, '1f1b'], [8, 8, 1, '1f1b'], [8, 96, 1, '1f1b'], [2, 3, 1, '1f1b'],
  [4, 8, 2, 'interleaved'], [4, 16, 4, 'interleaved'], [8, 64, 3, 'interleaved'], [4, 4, 2, 'interleaved'], [12, 24, 2, 'interleaved'],
];

describe('pipelineTimeline', () => {
  it.each(cases)('p=%i, m=%i, v=%i (%s) takes (m + (p−1)/v)·(f + b) and idles (p−1)/(v·m)', (p, m, v, schedule) => {
    for (const backwardRatio of [2, 3]) {
      const t = ok({ stages: p, microBatches: m, virtualStages: v, schedule, backwardRatio });
      expect(t.makespan).toBeCloseTo((m + (p - 1) / v) * (1 + backwardRatio), 9);
      expect(t.bubbleFraction).toBeCloseTo((p - 1) / (v * m), 9);
    }
  });

  it('GPipe idles (p − 1)/m like 1F1B (Huang et al. 2019)', () => {
    const t = ok({ stages: 8, microBatches: 8, virtualStages: 1, schedule: 'gpipe' });
    expect(t.bubbleFraction).toBeCloseTo(7 / 8, 12);
  });

  it('runs every micro-batch chunk forward and backward exactly once on every stage', () => {
    const t = ok({ stages: 4, microBatches: 8, virtualStages: 2, schedule: 'interleaved' });
    expect(t.ops).toHaveLength(2 * 4 * 8 * 2);
    const keys = new Set(t.ops.map((o) => `${o.stage}/${o.microBatch}/${o.chunk}/${o.kind}`));
    expect(keys.size).toBe(t.ops.length);
  });

  it('never overlaps two operations on one stage, and a forward starts after the previous stage finished it', () => {
    const t = ok({ stages: 6, microBatches: 12, virtualStages: 1, schedule: '1f1b' });
    for (let s = 0; s < 6; s += 1) {
      const row = t.ops.filter((o) => o.stage === s).sort((a, b) => a.start - b.start);
      for (let i = 1; i < row.length; i += 1) expect(row[i]!.start).toBeGreaterThanOrEqual(row[i - 1]!.end);
    }
    for (const o of t.ops.filter((x) => x.kind === 'forward' && x.stage > 0)) {
      const before = t.ops.find((x) => x.kind === 'forward' && x.stage === o.stage - 1 && x.microBatch === o.microBatch)!;
      expect(o.start).toBeGreaterThanOrEqual(before.end);
    }
  });

  it('keeps at most p − s micro-batches in flight on stage s under 1F1B (SC\'21 §2.2.1: the memory bound)', () => {
    const p = 4;
    const t = ok({ stages: p, microBatches: 16, virtualStages: 1, schedule: '1f1b' });
    for (let s = 0; s < p; s += 1) {
      const row = t.ops.filter((o) => o.stage === s).sort((a, b) => a.start - b.start);
      let inFlight = 0;
      let most = 0;
      for (const o of row) {
        inFlight += o.kind === 'forward' ? 1 : -1;
        most = Math.max(most, inFlight);
      }
      expect(most).toBe(p - s);
    }
  });

  it('has no bubble with one stage', () => {
    expect(ok({ stages: 1, microBatches: 5, virtualStages: 1, schedule: '1f1b' }).bubbleFraction).toBe(0);
  });

  it.each([
    [{ stages: 4, microBatches: 6, virtualStages: 2, schedule: 'interleaved' as const }, 'divisible by pipeline stages'],
    [{ stages: 0, microBatches: 6, virtualStages: 1, schedule: '1f1b' as const }, 'whole numbers'],
    [{ stages: 2, microBatches: 1.5, virtualStages: 1, schedule: '1f1b' as const }, 'whole numbers'],
  ])('answers ok: false for an impossible shape %j', (input, text) => {
    const r = pipelineTimeline(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(text);
  });
});
