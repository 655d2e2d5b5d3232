import type { Fetch } from '../../src/deliver.ts';

export interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** When it was sent (performance.now(), ms): how long a retry waited. */
  at: number;
}

/** A response the fake platform gives: a status, or a status with headers and a body (a 429's Retry-After). */
export type FakeResponse = number | { status: number; headers?: Record<string, string>; body?: string };

/**
 * A stand-in for the platforms' APIs: records each request a deferred answer makes and answers it with the next
 * response of `responses` (the last one repeats; 204 for Discord's edit and delete, 200 for Slack, either way ok).
 */
export function fakeFetch(responses: readonly FakeResponse[] = [200]): { fetch: Fetch; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const fetch: Fetch = async (url, init) => {
    sent.push({
      url,
      method: init.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? init.body : undefined,
      at: performance.now(),
    });
    const next = responses[Math.min(sent.length - 1, responses.length - 1)] ?? 200;
    const { status, headers, body } = typeof next === 'number' ? { status: next, headers: {}, body: '{}' } : next;
    return new Response(status === 204 ? null : (body ?? '{}'), { status, headers });
  };
  return { fetch, sent };
}

/** Resolves once `done()` holds, polling between macrotasks; rejects after `timeoutMs` (a search takes a second or two here). */
export async function until(done: () => boolean, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A few macrotasks: long enough for work scheduled after a response (setTimeout 0) to have started, were there any. */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));
