import { faultLoad, PLANS, RECOVERY, RECOVERY_SLOW_RATIO, STARVATION_P99_RATIO, starvationRatio, ATTACK, sustainedLoad, type FaultRun } from '../../load/src/load-plan.ts';
import { runOpenLoop, type OpenLoopResult } from '../../load/src/open-loop.ts';
import { REQUEST_MIX } from '../../load/src/request-mix.ts';
import type { HeapUsage } from '../../load/src/heap.ts';
import { MiB, rssBytes } from '../../load/src/rss.ts';
import { startRuntime, type RuntimeName } from '../../load/src/servers.ts';
import type { BenchSection } from './sections.ts';

/**
 * Issue 8, "Load and faults", run longer than the test (test/load): the same fixed-rate mix on the
 * live Node and workerd servers, in two halves so the RSS and the post-GC JS heap of the second half
 * show whether memory keeps growing once warm, then the same slow-loris and oversized-upload attack beside normal requests.
 */
const WARMUP_SECONDS = 5;

interface RuntimeFigures {
  name: RuntimeName;
  first: OpenLoopResult;
  second: OpenLoopResult;
  rss: [number, number, number];
  /** The serving isolate's JS heap after a forced full collection: after the warm-up, between the halves, at the end. */
  heap: [HeapUsage, HeapUsage, HeapUsage];
  faults: FaultRun;
}

async function measure(name: RuntimeName, budgetSeconds: number): Promise<RuntimeFigures> {
  const target = await startRuntime(name);
  try {
    const plan = PLANS[name];
    const half = Math.max(5, 7.5 * budgetSeconds);
    const first = await sustainedLoad(target, plan, WARMUP_SECONDS, half);
    const second = await runOpenLoop({ base: target.server.base, ratePerSecond: plan.ratePerSecond, seconds: half, mix: REQUEST_MIX });
    const rss: [number, number, number] = [first.rssAfterWarmupBytes, first.rssEndBytes, rssBytes(target.servingPid)];
    const heap: [HeapUsage, HeapUsage, HeapUsage] = [first.heapAfterWarmup, first.heapEnd, await target.postGcHeap()];
    const faults = await faultLoad(target, plan, Math.max(3, 3 * budgetSeconds));
    return { name, first: first.result, second, rss, heap, faults };
  } finally {
    target.server.stop();
  }
}

const ms = (x: number) => `${x.toFixed(1)} ms`;
const rssBound = (name: RuntimeName) => {
  const bound = PLANS[name].rssGrowthBoundBytes;
  return bound === undefined ? ' (reported, not bounded)' : ` (test/load bounds growth after its warm-up by ${bound / MiB} MiB)`;
};
const mib = (x: number) => `${(x / MiB).toFixed(0)}`;
const signedMib = (x: number, digits = 1) => `${x >= 0 ? '+' : ''}${(x / MiB).toFixed(digits)} MiB`;
const heapMib = (h: HeapUsage) => (h.usedBytes / MiB).toFixed(2);

export const loadSection: BenchSection = {
  name: 'load',
  async run(budgetSeconds) {
    const figures: RuntimeFigures[] = [];
    // One runtime at a time: they would otherwise share the two cores with each other and the generator.
    for (const name of ['node', 'workerd'] as const) figures.push(await measure(name, budgetSeconds));
    const rows = figures.map(({ name, first, second, rss, heap }) => {
      const requests = first.scheduled + second.scheduled;
      const errors = first.errors + second.errors;
      const [p50, p99] = [Math.max(first.p50Ms, second.p50Ms), Math.max(first.p99Ms, second.p99Ms)];
      return `| ${name} | ${PLANS[name].ratePerSecond} | ${((first.answeredPerSecond + second.answeredPerSecond) / 2).toFixed(0)} | ${ms(p50)} | ${ms(p99)} | ${ms(Math.max(first.maxMs, second.maxMs))} | ${errors} of ${requests} | ${mib(rss[0])} → ${mib(rss[1])} → ${mib(rss[2])} MiB | ${signedMib(rss[2] - rss[1])}${rssBound(name)} | ${heapMib(heap[0])} → ${heapMib(heap[1])} → ${heapMib(heap[2])} MiB | ${signedMib(heap[2].usedBytes - heap[1].usedBytes, 2)} (test/load bounds growth after its warm-up by ${PLANS[name].heapGrowthBoundBytes / MiB} MiB) |`;
    });
    const faultRows = figures.map(({ name, faults }) => {
      const { baseline, underAttack, baselineAfter, attack, recovery } = faults;
      const ratio = starvationRatio(faults);
      const outcomes = Object.entries(attack.oversizedOutcomes).map(([k, v]) => `${v} × ${k}`).join(', ');
      return `| ${name} | ${ms(baseline.p50Ms)} / ${ms(baseline.p99Ms)}; after: ${ms(baselineAfter.p50Ms)} / ${ms(baselineAfter.p99Ms)} | ${ms(underAttack.p50Ms)} / ${ms(underAttack.p99Ms)} | ${ratio.toFixed(1)}× (≤ ${STARVATION_P99_RATIO}×: ${ratio <= STARVATION_P99_RATIO ? 'met' : '**missed**'}) | ${baseline.errors + underAttack.errors + baselineAfter.errors} of ${baseline.scheduled + underAttack.scheduled + baselineAfter.scheduled} | ${outcomes} | ${attack.slowOpened} opened, ${attack.slowClosedByServer} closed by the server | ${ms(recovery.recoveredAfterMs!)} (${recovery.badWindows} of ${recovery.windows} half-second windows slow or failing, slowest answer ${ms(recovery.worstMs)}) |`;
    });
    const sustained = figures[0]!.first.scheduled / PLANS.node.ratePerSecond;
    return {
      markdown: [
        '## Load and faults',
        '',
        `A fixed-rate (open-loop) mix on each live server (\`npm start\`'s entry on Node; \`wrangler dev\`'s workerd), both on 127.0.0.1, one`,
        `after the other, the load generator on the same two cores: per ${REQUEST_MIX.reduce((s, e) => s + e.weight, 0)} requests ${REQUEST_MIX.map((e) => `${e.weight} ${e.kind}`).join(', ')}`,
        `(search kept small: one node, a constrained space, candidateBudget 16). Latency is counted from when each request was due, so a`,
        `server that falls behind shows it. ${WARMUP_SECONDS} s warm-up, then two halves of ${sustained.toFixed(0)} s; RSS of the serving process`,
        '(/proc/<pid>/status VmRSS; for workerd the runtime running the Worker, not wrangler\'s proxy) after the warm-up, between the halves',
        'and at the end, and then the serving isolate\'s live JS heap right after a forced full collection (V8 inspector:',
        '`HeapProfiler.collectGarbage`, then `Runtime.getHeapUsage` used size; workerd\'s through `wrangler dev`\'s inspector proxy). RSS follows',
        'how far V8 and the allocator size their reserves; the post-GC heap is what the requests left reachable. Every answer must be a 200 whose body is valid and',
        'byte-identical to the first answer of its kind. Reproduce with `BENCH_SECTIONS=load npm run bench`; the bounded version runs in `npm test`',
        '(test/load).',
        '',
        '| runtime | rate asked (req/s) | answered (req/s) | p50 | p99 | max | errors | RSS (warm → half → end) | RSS growth, second half | post-GC JS heap (warm → half → end) | post-GC heap growth, second half |',
        '|---|---|---|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
        `Faults: the same normal requests at half the rate, without, with and again without an attack running beside them in another process`,
        `(the run after it starts once the server answers normally again: ${RECOVERY.consecutive} windows of ${RECOVERY.windowSeconds} s of them in a row without errors, p99 within ${RECOVERY_SLOW_RATIO}× the baseline's):`,
        `${ATTACK.slowSockets} slow-loris sockets (a byte each every ${ATTACK.byteIntervalMs} ms, half dribbling headers, half a body) and`,
        `${ATTACK.oversizedBytes / MiB} MiB uploads (half with a Content-Length, half chunked), ${ATTACK.oversizedPerSecond} per second, ${ATTACK.oversizedConcurrency} in flight.`,
        '',
        '| runtime | baseline p50 / p99 (before; after) | under attack p50 / p99 | p99 ratio (to the larger baseline p99) | normal-request errors | oversized uploads | slow-loris sockets | answering normally again after the attack |',
        '|---|---|---|---|---|---|---|---|',
        ...faultRows,
        '',
      ],
      summary: figures.map(({ name, first, second, rss, heap, faults }) =>
        `${name}: ${PLANS[name].ratePerSecond} req/s mix, p99 ${ms(Math.max(first.p99Ms, second.p99Ms))}, ${first.errors + second.errors} errors, `
        + `RSS second half ${signedMib(rss[2] - rss[1])}, post-GC heap ${signedMib(heap[2].usedBytes - heap[1].usedBytes, 2)}; under attack p99 ×${starvationRatio(faults).toFixed(1)}`),
    };
  },
};
