/** The fetch a deferred answer is delivered with (globalThis.fetch by default; tests pass a fake one). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** One request of a delivery, named for the log without its URL (which carries a token). */
export interface Delivery {
  /** What is sent, for the log: "Discord PATCH @original", "Slack POST response_url". */
  what: string;
  url: string;
  init: RequestInit;
}

/**
 * Sends a delivery, trying again once when it fails (a network error, or any status but 2xx), then gives up: the
 * platform's token expires (Slack's response_url after 30 minutes and 5 uses, Discord's interaction token after 15
 * minutes), and nobody waits on a reply. A failure is logged by what it was and why, never by its URL or body, which
 * carry the token. Whether it arrived, for the caller's next step.
 */
export async function deliver(fetchFn: Fetch, delivery: Delivery): Promise<boolean> {
  let why = '';
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const res = await fetchFn(delivery.url, delivery.init);
      await res.body?.cancel().catch(() => undefined);
      if (res.ok) return true;
      why = `HTTP ${res.status}`;
    } catch (error) {
      why = error instanceof Error ? error.name : 'a network error';
    }
  }
  console.error(`chatops: ${delivery.what} failed twice (${why}); the answer was not delivered`);
  return false;
}

/**
 * Runs `work` after the response is sent. A macrotask (setTimeout 0), not a microtask: the runtime writes the
 * acknowledgement once the handler's promise settles, and a search started in a microtask would hold the thread
 * (seconds) before it is flushed. On Workers the work is registered with waitUntil, without which the isolate may be
 * torn down once the response is out (https://developers.cloudflare.com/workers/runtime-apis/context/#waituntil); Node
 * and Deno have no ExecutionContext (Hono's getter throws there) and keep running while a timer is pending.
 */
export function afterResponse(executionCtx: () => { waitUntil(promise: Promise<unknown>): void }, work: () => Promise<void>): void {
  const done = new Promise<void>((resolve) => {
    setTimeout(() => {
      work().catch((error: unknown) => {
        console.error(`chatops: a deferred answer failed (${error instanceof Error ? error.name : 'unknown error'})`);
      }).finally(resolve);
    }, 0);
  });
  let ctx: { waitUntil(promise: Promise<unknown>): void } | undefined;
  try {
    ctx = executionCtx();
  } catch {
    ctx = undefined; // Node, Deno: no ExecutionContext
  }
  ctx?.waitUntil(done);
}
