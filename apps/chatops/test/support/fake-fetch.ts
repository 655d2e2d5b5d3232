import type { Fetch } from '../../src/deliver.ts';

export interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/**
 * A stand-in for the platforms' APIs: records each request a deferred answer makes and answers it with the next
 * status of `statuses` (the last one repeats; 204 for Discord's edit and delete, 200 for Slack, either way ok).
 */
export function fakeFetch(statuses: readonly number[] = [200]): { fetch: Fetch; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const fetch: Fetch = async (url, init) => {
    sent.push({
      url,
      method: init.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? init.body : undefined,
    });
    const status = statuses[Math.min(sent.length - 1, statuses.length - 1)] ?? 200;
    return new Response(status === 204 ? null : '{}', { status });
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
