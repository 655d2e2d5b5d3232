/** The fetch a deferred answer is delivered with (globalThis.fetch by default; tests pass a fake one). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** One request of a delivery. Its URL carries a token: the callers' logs name it by what it is ("Discord PATCH @original"). */
export interface Delivery {
  url: string;
  init: RequestInit;
}

/** Whether a delivery arrived, and if not, why, in words for the log ("failed twice (HTTP 500)"): never its URL. */
export type Delivered = { ok: true } | { ok: false; why: string };

/**
 * The longest a delivery waits when the platform says to slow down (HTTP 429 with Retry-After, or Discord's JSON
 * `retry_after`, https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit): a wait asked for
 * beyond it is not waited out, and the delivery is given up, since the asker has been waiting since the acknowledgement.
 */
export const MAX_RETRY_AFTER_SECONDS = 5;
/** The wait after a 429 that states none (Slack and Discord both state one; a proxy's may not). */
const DEFAULT_RETRY_AFTER_SECONDS = 1;

/**
 * How long a 429 asks the client to wait, in seconds: Discord's JSON body `retry_after` (fractional seconds) first,
 * else the Retry-After header in seconds (RFC 9110 §10.2.3; its HTTP-date form is read as unstated).
 */
async function retryAfterSeconds(res: Response): Promise<number> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { retry_after?: unknown };
    if (typeof body.retry_after === 'number' && Number.isFinite(body.retry_after) && body.retry_after >= 0) return body.retry_after;
  } catch {
    // not JSON: the header says it, or nothing does
  }
  const header = Number(res.headers.get('retry-after') ?? '');
  return res.headers.get('retry-after') !== null && Number.isFinite(header) && header >= 0 ? header : DEFAULT_RETRY_AFTER_SECONDS;
}

const sleep = (seconds: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * Sends a delivery, trying again once when it fails (a network error, or any status but 2xx), then gives up: the
 * platform's token expires (Slack's response_url after 30 minutes and 5 uses, Discord's interaction token after 15
 * minutes), and nobody waits on a reply. A 429 is tried again only after the wait it states, if that is at most
 * MAX_RETRY_AFTER_SECONDS (trying at once would only be refused again). Whether it arrived, and why not, for the
 * caller to act on and log: by what it was, never by its URL or body, which carry the token.
 */
export async function deliver(fetchFn: Fetch, delivery: Delivery): Promise<Delivered> {
  let why = '';
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const res = await fetchFn(delivery.url, delivery.init);
      if (res.ok) {
        await res.body?.cancel().catch(() => undefined);
        return { ok: true };
      }
      if (res.status === 429) {
        const wait = await retryAfterSeconds(res);
        if (wait > MAX_RETRY_AFTER_SECONDS) return { ok: false, why: `was rate limited for ${wait} s (more than the ${MAX_RETRY_AFTER_SECONDS} s the bot waits)` };
        why = 'HTTP 429';
        if (attempt === 0) await sleep(wait);
        continue;
      }
      await res.body?.cancel().catch(() => undefined);
      why = `HTTP ${res.status}`;
    } catch (error) {
      why = error instanceof Error ? error.name : 'a network error';
    }
  }
  return { ok: false, why: `failed twice (${why})` };
}

/**
 * Runs `work` after the response is sent. A macrotask (setTimeout 0), not a microtask: the runtime writes the
 * acknowledgement once the handler's promise settles, and a search started in a microtask would hold the thread
 * (seconds) before it is flushed. On Workers the work is registered with waitUntil, without which the isolate may be
 * torn down once the response is out (https://developers.cloudflare.com/workers/runtime-apis/context/#waituntil); Node
 * and Deno have no ExecutionContext (Hono's getter throws there) and keep running while a timer is pending. The promise
 * given to waitUntil always settles, and nothing `work` throws, synchronously or not, escapes the timer (on Node an
 * exception thrown in a timer ends the process).
 */
export function afterResponse(executionCtx: () => { waitUntil(promise: Promise<unknown>): void }, work: () => Promise<void>): void {
  const done = new Promise<void>((resolve) => {
    setTimeout(() => {
      // Called inside a promise, so a work that throws before returning its promise rejects it instead.
      new Promise<void>((ran) => { ran(work()); }).catch((error: unknown) => {
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
