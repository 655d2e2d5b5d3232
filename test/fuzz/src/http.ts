import { expect } from 'vitest';
import { numbersIn } from './walk.ts';

/** Anything with Hono's `app.request(path, init, env)`. */
export interface RequestableApp {
  request(input: string, init?: RequestInit, env?: unknown): Response | Promise<Response>;
}

export interface Exchange {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly bytes: Uint8Array;
  /** Wall time from sending to the last byte of the body read. */
  readonly ms: number;
}

/**
 * The bound on one in-process request, to catch hangs and runaway work, as a ratio to the heaviest
 * valid request timed in the same run (calibrateRequestBudget: a search at the API's candidate cap,
 * a few hundred ms here): no answer, however hostile the request, may take HEAVIEST_RATIO times as
 * long. A bound, not a performance claim; before calibration it is infinite.
 */
export const HEAVIEST_RATIO = 10;
let budgetMs = Number.POSITIVE_INFINITY;
export const requestBudgetMs = (): number => budgetMs;

/** Times the heaviest valid request `runs` times (after one warm-up) and sets the budget from the slowest. */
export async function calibrateRequestBudget(heaviest: () => Promise<Exchange>, runs = 3): Promise<number> {
  await heaviest();
  let slowest = 0;
  for (let i = 0; i < runs; i++) {
    const x = await heaviest();
    if (x.status !== 200) throw new Error(`the calibration request answered ${x.status}: ${x.text.slice(0, 200)}`);
    slowest = Math.max(slowest, x.ms);
  }
  budgetMs = HEAVIEST_RATIO * slowest;
  return budgetMs;
}

/** Sends one request in process and reads the whole answer, timing it. */
export async function exchange(app: RequestableApp, path: string, init: RequestInit = {}, env?: unknown): Promise<Exchange> {
  const start = performance.now();
  const res = await app.request(path, init, env);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - start;
  return { status: res.status, headers: res.headers, text: new TextDecoder().decode(bytes), bytes, ms };
}

export interface ProblemJson {
  type: string;
  title: string;
  status: number;
  detail: string;
  issues?: { path: string; message: string }[];
}

/**
 * What every answer must be, whatever was sent: never a 5xx, within the time budget; an error is an
 * RFC 9457 problem document with the same status; a 400 lists its issues, each with a path and a
 * message; a JSON 200 carries only finite numbers.
 */
export function checkAnswer(what: string, x: Exchange): ProblemJson | unknown {
  expect(x.status, `${what} → ${x.status}: ${x.text.slice(0, 300)}`).toBeLessThan(500);
  // A suite that never calibrated would hold every answer to an infinite bound: refuse to run it so.
  if (!Number.isFinite(budgetMs)) throw new Error('checkAnswer before calibrateRequestBudget: the time bound is not set');
  expect(x.ms, `${what} took ${x.ms.toFixed(0)} ms, over ${HEAVIEST_RATIO}× the heaviest valid request`).toBeLessThan(budgetMs);
  const type = x.headers.get('content-type') ?? '';
  if (x.status >= 400) {
    expect(type, what).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(x.text) as ProblemJson;
    expect(problem.status, what).toBe(x.status);
    expect(problem.detail.length, what).toBeGreaterThan(0);
    if (x.status === 400) {
      expect(problem.issues?.length ?? 0, `${what}: a 400 lists its issues`).toBeGreaterThan(0);
      for (const issue of problem.issues ?? []) {
        expect(typeof issue.path, what).toBe('string');
        expect(issue.message.length, what).toBeGreaterThan(0);
      }
    }
    return problem;
  }
  if (x.status === 200 && type.startsWith('application/json')) {
    const body = JSON.parse(x.text) as unknown;
    checkFinite(what, body);
    return body;
  }
  return undefined;
}

/**
 * No NaN or Infinity in an answer. JSON.stringify writes both as `null`, so on the wire they show up
 * as nulls: no answer of ours carries a null, and any null is reported with its path.
 */
export function checkFinite(what: string, body: unknown): void {
  for (const n of numbersIn(body)) expect(Number.isFinite(n.value), `${what}: ${n.path} = ${n.value}`).toBe(true);
  const nulls = nullsIn(body);
  expect(nulls, `${what}: nulls (NaN or Infinity serialised) at ${nulls.join(', ')}`).toEqual([]);
}

function nullsIn(value: unknown, path = ''): string[] {
  if (value === null) return [path];
  if (typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => nullsIn(v, path === '' ? k : `${path}.${k}`));
}

/** `a` and `b` name the same node, or one is an ancestor of the other ("model" and "model.layers"). */
export const relatedPaths = (a: string, b: string): boolean =>
  a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`) || b.startsWith(`${a}.`) || b.startsWith(`${a}[`);
