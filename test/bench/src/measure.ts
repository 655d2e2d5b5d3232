import { performance } from 'node:perf_hooks';

export interface Measurement {
  readonly name: string;
  readonly calls: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly microsecondsPerCall: number;
}

/**
 * Runs `fn` in batches until `budgetSeconds` have passed (after a warm-up), and reports the best
 * batch rate: on a shared machine the best of several batches is the least disturbed figure.
 */
export function measure(name: string, fn: () => unknown, budgetSeconds = 2, batch = 2000): Measurement {
  for (let i = 0; i < batch; i++) fn();
  let best = 0;
  let calls = 0;
  const start = performance.now();
  while ((performance.now() - start) / 1000 < budgetSeconds) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    const rate = batch / ((performance.now() - t0) / 1000);
    best = Math.max(best, rate);
    calls += batch;
  }
  return { name, calls, seconds: (performance.now() - start) / 1000, perSecond: best, microsecondsPerCall: 1e6 / best };
}

/** One call's timings: a cold first run, then the median and best of the repeated runs, and the last run's result. */
export interface Timing<T> { name: string; runs: number; bestMs: number; medianMs: number; coldMs: number; result: T }

/**
 * Runs one whole call (a search, a capacity question) repeatedly for about `budgetSeconds` after one cold run, at least
 * `minRuns` times, and keeps the best and median times: calls that take milliseconds to seconds, where `measure`'s
 * batches of thousands do not fit.
 */
export function timeRuns<T>(name: string, fn: () => T, budgetSeconds: number, minRuns = 5): Timing<T> {
  const t0 = performance.now();
  let result = fn();
  const coldMs = performance.now() - t0;
  const times: number[] = [];
  const start = performance.now();
  while ((performance.now() - start) / 1000 < budgetSeconds || times.length < minRuns) {
    const t = performance.now();
    result = fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { name, runs: times.length, bestMs: times[0]!, medianMs: times[Math.floor(times.length / 2)]!, coldMs, result };
}
