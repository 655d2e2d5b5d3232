import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeHeadersTimeout, type ProbeOutcome } from '../src/header-probe.ts';
import { faultLoad, HANG_RATIO, PLANS, STARVATION_P99_RATIO, STARVATION_TRIALS, starvationRatio, sustainedLoad, type FaultRun, type SustainedRun } from '../src/load-plan.ts';
import { MiB } from '../src/rss.ts';
import type { OpenLoopResult } from '../src/open-loop.ts';
import { startRuntime, type LoadTarget, type RuntimeName } from '../src/servers.ts';

// Issue 8, "Load and faults": the live Node server (`npm start`'s entry) and the live workerd server
// (`wrangler dev`), each on 127.0.0.1 and a free port, loaded one after the other (never together: they
// share two cores with the load generator). Bounded: a fixed rate for a fixed time, so a fixed count.
const WARMUP_SECONDS = 5;
const SUSTAINED_SECONDS = 10;
const FAULT_SECONDS = 4;

// infra/node/src/main.ts: headersTimeout 10 s, checked every 2 s (connectionsCheckingInterval).
const NODE_HEADERS_TIMEOUT_MS = 10_000;
const NODE_CHECK_INTERVAL_MS = 2_000;

const targets = new Map<RuntimeName, LoadTarget>();
let headerProbe: Promise<ProbeOutcome> | undefined;

beforeAll(async () => {
  const started = await Promise.allSettled((['node', 'workerd'] as const).map(async (name) => {
    targets.set(name, await startRuntime(name));
  }));
  const failure = started.find((s) => s.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
  // One client dribbling endless headers at Node for the whole of Node's tests (about 25 s).
  headerProbe = probeHeadersTimeout(targets.get('node')!.server.base, 500, NODE_HEADERS_TIMEOUT_MS + NODE_CHECK_INTERVAL_MS + 10_000);
}, 180_000);

afterAll(() => { for (const t of targets.values()) t.server.stop(); });

const ms = (x: number) => `${x.toFixed(1)} ms`;

/**
 * Requests wrangler dev's proxy may drop and the generator resend (open-loop.ts DEV_PROXY_DROPPED): on workerd at most
 * one in 200 of a run (cloudflare/workers-sdk#14641 reports about one in 3,000), so a proxy that fails steadily still
 * fails the test; on Node none, which never answers so.
 */
const allowedResends = (name: RuntimeName, r: OpenLoopResult): number => (name === 'node' ? 0 : Math.max(1, Math.floor(r.scheduled / 200)));

describe.each(['node', 'workerd'] as const)('%s under load', (name) => {
  const plan = PLANS[name];
  let sustained: SustainedRun;
  let faultRuns: FaultRun[] = [];

  it(`sustains ${plan.ratePerSecond} req/s of estimate, memory, collective and search for ${SUSTAINED_SECONDS} s: every answer a valid 200`, async () => {
    sustained = await sustainedLoad(targets.get(name)!, plan, WARMUP_SECONDS, SUSTAINED_SECONDS);
    const r = sustained.result;
    console.log(`[load] ${name}: ${r.scheduled} requests at ${plan.ratePerSecond}/s, ${r.answeredPerSecond.toFixed(0)} answered/s, `
      + `p50 ${ms(r.p50Ms)}, p99 ${ms(r.p99Ms)}, max ${ms(r.maxMs)} (warm-up max ${ms(sustained.warmup.maxMs)}), ${r.errors} errors; RSS ${(sustained.rssAfterWarmupBytes / MiB).toFixed(1)} → ${(sustained.rssEndBytes / MiB).toFixed(1)} MiB; `
      + `post-GC heap used ${(sustained.heapAfterWarmup.usedBytes / MiB).toFixed(2)} → ${(sustained.heapEnd.usedBytes / MiB).toFixed(2)} MiB `
      + `(total ${(sustained.heapAfterWarmup.totalBytes / MiB).toFixed(1)} → ${(sustained.heapEnd.totalBytes / MiB).toFixed(1)} MiB); `
      + `${r.devProxyResends} resent after the dev proxy dropped them`);
    expect(r.errorSamples).toEqual([]);
    expect(r.errors).toBe(0);
    expect(r.devProxyResends).toBeLessThanOrEqual(allowedResends(name, r));
    expect(r.valid).toBe(Math.round(plan.ratePerSecond * SUSTAINED_SECONDS));
    // p99 is recorded above, not held to a time: only a hang fails here, as a ratio to the warm-up's slowest.
    expect(r.maxMs).toBeLessThan(HANG_RATIO * sustained.warmup.maxMs);
  }, 60_000);

  it(`its JS heap after a full collection grows by less than ${plan.heapGrowthBoundBytes / MiB} MiB from the end of the warm-up to the end of the run`, () => {
    expect(sustained).toBeDefined();
    expect(sustained.heapEnd.usedBytes - sustained.heapAfterWarmup.usedBytes).toBeLessThan(plan.heapGrowthBoundBytes);
  });

  // RSS is bounded only where it says something (see PLANS); it is reported above either way.
  const rssBound = plan.rssGrowthBoundBytes;
  if (rssBound !== undefined) {
    it(`its RSS grows by at most ${rssBound / MiB} MiB after the warm-up`, () => {
      expect(sustained).toBeDefined();
      expect(sustained.rssEndBytes - sustained.rssAfterWarmupBytes).toBeLessThanOrEqual(rssBound);
    });
  }

  it(`slow-loris sockets and 4 MiB uploads beside normal requests: every normal request succeeds, p99 within ${STARVATION_P99_RATIO}× the baseline`, async () => {
    // Starving is a property of the server, so it shows in every attack; one 4 s window's p99 (its 8 slowest answers) can
    // also catch a stall of the shared machine (Node once ×11.0 where its runs measure ×1.7–3.4). A ratio over the bound
    // is measured again once, and the test holds the second; every request of every run must still succeed.
    faultRuns = [];
    for (let trial = 1; trial <= STARVATION_TRIALS; trial++) {
      const faults = await faultLoad(targets.get(name)!, plan, FAULT_SECONDS);
      faultRuns.push(faults);
      const { baseline, underAttack, baselineAfter, attack, recovery } = faults;
      console.log(`[faults] ${name} (attack ${trial}): baseline p50 ${ms(baseline.p50Ms)} p99 ${ms(baseline.p99Ms)} (after: ${ms(baselineAfter.p99Ms)}); `
        + `answering normally again ${ms(recovery.recoveredAfterMs!)} after the attack (${recovery.badWindows} of ${recovery.windows} half-second windows slow or failing, slowest answer ${ms(recovery.worstMs)}); `
        + `under attack p50 ${ms(underAttack.p50Ms)} p99 ${ms(underAttack.p99Ms)} (×${starvationRatio(faults).toFixed(1)}); attack ${JSON.stringify(attack)}; `
        + `resent after the dev proxy dropped them: ${[baseline, underAttack, baselineAfter].map((x) => x.devProxyResends).join(', ')}`);
      for (const run of [baseline, underAttack, baselineAfter]) {
        expect(run.errorSamples).toEqual([]);
        expect(run.devProxyResends).toBeLessThanOrEqual(allowedResends(name, run));
        expect(run.valid).toBe(run.scheduled);
      }
      if (starvationRatio(faults) <= STARVATION_P99_RATIO) break;
    }
    expect(starvationRatio(faultRuns.at(-1)!)).toBeLessThanOrEqual(STARVATION_P99_RATIO);
  }, 120_000);

  it('refuses every oversized upload with 413 (or cuts it off), never accepts or fails on one', () => {
    expect(faultRuns.length).toBeGreaterThan(0);
    for (const { attack: { oversizedOutcomes: outcomes } } of faultRuns) {
      expect(Object.keys(outcomes).every((o) => o === '413' || o === 'reset')).toBe(true);
      expect(outcomes['413'] ?? 0).toBeGreaterThan(0);
    }
  });
});

describe('node against a client that never finishes its headers', () => {
  it(`closes it once headersTimeout (${NODE_HEADERS_TIMEOUT_MS / 1000} s) has passed, not before, with a 408`, async () => {
    const outcome = await headerProbe!;
    console.log(`[faults] node: the endless-headers client was closed after ${ms(outcome.closedAfterMs)} with "${outcome.answer}"`);
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(NODE_HEADERS_TIMEOUT_MS);
    // Node checks the timeout every connectionsCheckingInterval; a little slack for a busy machine.
    expect(outcome.closedAfterMs).toBeLessThanOrEqual(NODE_HEADERS_TIMEOUT_MS + NODE_CHECK_INTERVAL_MS + 3_000);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);
});
