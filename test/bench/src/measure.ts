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
