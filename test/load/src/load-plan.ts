import type { AttackOptions, AttackReport } from './faults.ts';
import { startAttackProcess } from './attack-process.ts';
import { runOpenLoop, type OpenLoopResult } from './open-loop.ts';
import { REQUEST_MIX } from './request-mix.ts';
import { awaitRecovery, type Recovery } from './recovery.ts';
import { MiB, rssBytes } from './rss.ts';
import type { HeapUsage } from './heap.ts';
import type { LoadTarget, RuntimeName } from './servers.ts';

/** What one runtime is asked to sustain, and the bounds its answers are held to. */
export interface RuntimePlan {
  /**
   * The mix's fixed rate. The HTTP bench measured 2,000–4,000 req/s of /v1/estimate alone on Node
   * with a closed loop; this mix (a tenth searches, which cost several estimates each) saturated Node
   * near 850 req/s and workerd (behind wrangler dev's proxy) lower, on a 2-core machine whose cores the
   * load generator and the other tests share: about half the measured ceiling, so the run is
   * sustained rather than a saturation test.
   */
  ratePerSecond: number;
  /**
   * Growth of the serving isolate's live JS heap (V8's used size right after a forced full
   * collection) from the end of the warm-up to the end of the run: what the requests left reachable.
   */
  heapGrowthBoundBytes: number;
  /**
   * Growth of the serving process's RSS over the same span, where it says something; otherwise RSS
   * is only reported (it follows how far the allocator and V8 size their reserves, not what is retained).
   */
  rssGrowthBoundBytes?: number;
}

export const PLANS: Record<RuntimeName, RuntimePlan> = {
  // Post-GC heap 17.1–17.5 MiB after the warm-up, then −0.4 to +0.2 MiB after 4,000 more requests
  // (three runs); the bound is ~500 bytes kept per request. Node's RSS settles within ~10 s of load (measured: +6 MB
  // over the 20 s after that), so it is held too.
  node: { ratePerSecond: 400, heapGrowthBoundBytes: 2 * MiB, rssGrowthBoundBytes: 48 * MiB },
  // Post-GC heap 3.06 MiB after the warm-up, then +0.03–0.04 MiB after 3,000 more requests (three
  // runs; +0.05 MiB after 4,500); the bound is ~350 bytes kept per request. The Worker runtime's RSS rises by tens of MiB as V8 and the
  // allocator size their reserves under load, whatever is retained: reported, not bounded.
  workerd: { ratePerSecond: 300, heapGrowthBoundBytes: 1 * MiB },
};

/**
 * The slowest answer of the sustained run may take at most this many times the slowest of the
 * warm-up before it (same server, same mix, first requests included): far beyond any answer's normal
 * spread, so only a hang or runaway work reaches it. A ratio within one run, not an absolute time.
 */
export const HANG_RATIO = 20;

/**
 * The attack the fault test runs beside normal requests: 200 slow-loris sockets (a byte each every
 * 100 ms) and 4 MiB uploads (64 × the body limit), half chunked, 10 started per second at most
 * (40 MiB/s offered), 4 in flight. At 20 per second workerd's p99 rose 3.4–7.6× (measured), close
 * to the ratio below: on two shared cores the bytes themselves, copied by attacker, proxy and
 * server, take the CPU the normal requests need, which no server-side limit can give back.
 */
export const ATTACK: Omit<AttackOptions, 'base'> = {
  slowSockets: 200, byteIntervalMs: 100, oversizedConcurrency: 4, oversizedPerSecond: 10, oversizedBytes: 4 * MiB,
};

/** Normal requests under attack keep their p99 within this factor of the p99 without it. */
export const STARVATION_P99_RATIO = 10;

/**
 * Attacks run before a ratio over the bound fails the test: a server that starves normal requests does so in each, while
 * a stall of the two shared cores lands in one 4 s window at a time (clean-clone CI 2026-11-29: Node ×11.0 once, where
 * its other runs measured ×1.7–3.4).
 */
export const STARVATION_TRIALS = 2;

export interface SustainedRun {
  /** The warm-up run before the measured one (the hang bound's baseline). */
  warmup: OpenLoopResult;
  result: OpenLoopResult;
  rssAfterWarmupBytes: number;
  rssEndBytes: number;
  /** The serving isolate's JS heap after a forced full collection, after the warm-up and at the end. */
  heapAfterWarmup: HeapUsage;
  heapEnd: HeapUsage;
}

/** A warm-up at the plan's rate (JIT, memo tables, sockets, heap sizing), then the measured run. */
export async function sustainedLoad(target: LoadTarget, plan: RuntimePlan, warmupSeconds: number, seconds: number): Promise<SustainedRun> {
  const base = target.server.base;
  const warmup = await runOpenLoop({ base, ratePerSecond: plan.ratePerSecond, seconds: warmupSeconds, mix: REQUEST_MIX });
  // RSS first: the forced collection that follows would shrink it.
  const rssAfterWarmupBytes = rssBytes(target.servingPid);
  const heapAfterWarmup = await target.postGcHeap();
  const result = await runOpenLoop({ base, ratePerSecond: plan.ratePerSecond, seconds, mix: REQUEST_MIX });
  const rssEndBytes = rssBytes(target.servingPid);
  return { warmup, result, rssAfterWarmupBytes, rssEndBytes, heapAfterWarmup, heapEnd: await target.postGcHeap() };
}

export interface FaultRun {
  /** Normal requests alone, before the attack. */
  baseline: OpenLoopResult;
  underAttack: OpenLoopResult;
  /** Normal requests alone again, after the attack: with `baseline`, it brackets the attack in time. */
  baselineAfter: OpenLoopResult;
  /** How long after the attack's end the server answered normally again (before `baselineAfter` began). */
  recovery: Recovery;
  attack: AttackReport;
}

/**
 * The attack's cost to normal requests: their p99 under attack over the larger p99 of the two
 * attack-free runs around it. Two cores shared with other processes drift over a run; a baseline taken
 * on both sides of the attack compares it with the machine as it was then, not with one lucky window.
 */
export const starvationRatio = (f: FaultRun): number => f.underAttack.p99Ms / Math.max(f.baseline.p99Ms, f.baselineAfter.p99Ms);

/**
 * After the attack, normal requests are measured again only once the server answers normally (awaitRecovery): two
 * half-second windows of them in a row without errors or dropped requests, each with its p99 within
 * RECOVERY_SLOW_RATIO × the baseline's (at least RECOVERY_SLOW_FLOOR_MS): far above a window's normal spread (p99
 * 26–166 ms over 16 windows after a stall, measured), far below the stall (3.6–4.5 s). A server that has not recovered
 * within RECOVERY.limitMs fails the test.
 */
export const RECOVERY = { windowSeconds: 0.5, consecutive: 2, limitMs: 30_000 } as const;
export const RECOVERY_SLOW_RATIO = 5;
export const RECOVERY_SLOW_FLOOR_MS = 200;

/** The same normal requests (at half the plan's rate) without, with, then again without the attack beside them. */
export async function faultLoad(target: LoadTarget, plan: RuntimePlan, seconds: number): Promise<FaultRun> {
  const base = target.server.base;
  const normal = { base, ratePerSecond: plan.ratePerSecond / 2, seconds, mix: REQUEST_MIX };
  const baseline = await runOpenLoop(normal);
  const attack = await startAttackProcess({ base, ...ATTACK });
  let underAttack: OpenLoopResult;
  try {
    // Let the slow sockets connect and the first uploads start before measuring.
    await new Promise((r) => setTimeout(r, 500));
    underAttack = await runOpenLoop(normal);
  } catch (e) {
    await attack.stop();
    throw e;
  }
  const report = await attack.stop();
  // Let the server drop the attack's half-sent requests before measuring it again (see awaitRecovery).
  const recovery = await awaitRecovery({
    window: () => runOpenLoop({ ...normal, seconds: RECOVERY.windowSeconds }),
    slowMs: Math.max(RECOVERY_SLOW_FLOOR_MS, RECOVERY_SLOW_RATIO * baseline.p99Ms), consecutive: RECOVERY.consecutive, limitMs: RECOVERY.limitMs,
  });
  if (recovery.recoveredAfterMs === undefined) {
    throw new Error(`the server had not recovered ${RECOVERY.limitMs / 1000} s after the attack: ${recovery.badWindows} of ${recovery.windows} windows slow or failing, slowest answer ${recovery.worstMs.toFixed(0)} ms`);
  }
  const baselineAfter = await runOpenLoop(normal);
  return { baseline, underAttack, baselineAfter, attack: report, recovery };
}
