import type { OpenLoopResult } from './open-loop.ts';

export interface RecoveryOptions {
  /** One short window of normal requests (the open-loop mix at the measured rate), run again and again. */
  window: () => Promise<OpenLoopResult>;
  /** A window whose p99 is above this has not recovered. */
  slowMs: number;
  /** This many windows in a row, each without errors or dropped requests and with p99 within slowMs, make a recovered server. */
  consecutive: number;
  /** Past this the wait gives up and says the server never recovered. */
  limitMs: number;
}

export interface Recovery {
  /** From the start of the wait to the start of the first window of the good run; undefined when the limit passed first. */
  recoveredAfterMs: number | undefined;
  windows: number;
  /** Windows that were slow, dropped a request or had an error: the server recovering. */
  badWindows: number;
  /** The slowest answer seen while waiting. */
  worstMs: number;
}

const isGood = (r: OpenLoopResult, slowMs: number): boolean => r.errors === 0 && r.devProxyResends === 0 && r.valid === r.scheduled && r.p99Ms <= slowMs;

/**
 * Waits until a server answers normally again after an attack, measured with the same open-loop requests as the
 * measurement that follows. wrangler dev's proxy, after the attack's 200 slow sockets and uploads are cut off at once,
 * sometimes stalls every request for 3.5–4.5 s (measured here: one-second windows of the mix at 150/s, p50 3.6–3.9 s in
 * the first window after the attack, then 5–20 ms) and drops a few POSTs; one request at a time never showed it. A fixed
 * 3 s pause (before) let that stall into the measurement after the attack in clean-clone CI runs (p99 2.5–3.0 s, 16
 * POSTs dropped). Waiting for normal answers measures the recovery instead of guessing it, and bounds it.
 */
export async function awaitRecovery(options: RecoveryOptions): Promise<Recovery> {
  const { window, slowMs, consecutive, limitMs } = options;
  const start = performance.now();
  let windows = 0;
  let badWindows = 0;
  let worstMs = 0;
  let goodRunStart = 0;
  let goodRun = 0;
  while (performance.now() - start < limitMs) {
    const began = performance.now();
    const r = await window();
    windows += 1;
    worstMs = Math.max(worstMs, r.maxMs);
    if (isGood(r, slowMs)) {
      if (goodRun === 0) goodRunStart = began;
      goodRun += 1;
      if (goodRun >= consecutive) return { recoveredAfterMs: goodRunStart - start, windows, badWindows, worstMs };
    } else {
      badWindows += 1;
      goodRun = 0;
    }
  }
  return { recoveredAfterMs: undefined, windows, badWindows, worstMs };
}
