import { describe, expect, it } from 'vitest';
import type { OpenLoopResult } from '../src/open-loop.ts';
import { awaitRecovery } from '../src/recovery.ts';

/** A window of 10 requests that takes `ms` and reports the given p99 (and max), with optional errors or dropped requests. */
const windowOf = (ms: number, p99Ms: number, extra: Partial<OpenLoopResult> = {}) => async (): Promise<OpenLoopResult> => {
  const began = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  // Node's timers may fire a fraction of a millisecond before performance.now(), the clock awaitRecovery reads, has
  // moved `ms` (clean-clone CI: 199.995 ms after a 200 ms timer): the window lasts its length by that clock.
  while (performance.now() - began < ms) await new Promise((r) => setTimeout(r, 1));
  return { scheduled: 10, valid: 10, errors: 0, errorSamples: [], devProxyResends: 0, answeredPerSecond: 10, p50Ms: p99Ms / 2, p99Ms, maxMs: p99Ms, ...extra };
};

/** Runs the windows in order, the last one again once they run out. */
const sequence = (windows: (() => Promise<OpenLoopResult>)[]) => {
  let i = 0;
  return () => windows[Math.min(i++, windows.length - 1)]!();
};

const wait = (window: () => Promise<OpenLoopResult>, limitMs = 5_000) => awaitRecovery({ window, slowMs: 100, consecutive: 2, limitMs });

describe('waiting for a server to answer normally after an attack', () => {
  it('a stalled first window (p99 4 s) is waited out; the recovery starts with the first of two good windows', async () => {
    const r = await wait(sequence([windowOf(200, 4_000), windowOf(20, 30)]));
    expect(r).toMatchObject({ windows: 3, badWindows: 1, worstMs: 4_000 });
    expect(r.recoveredAfterMs).toBeGreaterThanOrEqual(200);
    expect(r.recoveredAfterMs).toBeLessThan(1_000);
  });
  it('a good window between bad ones starts no recovery: it takes two in a row', async () => {
    const r = await wait(sequence([windowOf(10, 30), windowOf(10, 500), windowOf(10, 30), windowOf(10, 30)]));
    expect(r).toMatchObject({ windows: 4, badWindows: 1 });
  });
  it('a window with a dropped request, an error or a missing answer is not a recovered one, however fast', async () => {
    for (const extra of [{ devProxyResends: 1 }, { errors: 1, valid: 9 }, { valid: 9 }]) {
      const r = await wait(sequence([windowOf(10, 30, extra), windowOf(10, 30)]));
      expect(r).toMatchObject({ windows: 3, badWindows: 1 });
    }
  });
  it('a server that never answers normally is reported unrecovered once the limit passes', async () => {
    const r = await wait(windowOf(50, 150), 400);
    expect(r.recoveredAfterMs).toBeUndefined();
    expect(r.windows).toBe(r.badWindows);
    expect(r.windows).toBeGreaterThanOrEqual(7);
  });
  it('a healthy server is recovered at once', async () => {
    const r = await wait(windowOf(10, 30));
    expect(r).toMatchObject({ windows: 2, badWindows: 0 });
    expect(r.recoveredAfterMs).toBeLessThan(5);
  });
});
