import { Agent, request } from 'node:http';
import { mixEntryAt, type MixEntry } from './request-mix.ts';
import { percentile } from './percentile.ts';

/** Past this a request counts as hung (an error), far beyond any answer's normal few milliseconds. */
export const REQUEST_TIMEOUT_MS = 10_000;

/**
 * What wrangler dev's proxy answers (a 503, Retry-After 0) when its connection to workerd drops under a POST, which it
 * does not retry itself ("Only GET or HEAD requests are retried automatically"; templates/startDevWorker/ProxyWorker.ts).
 * It happens with the Worker never restarted, when a request meets the runtime's keep-alive timeout
 * (cloudflare/workers-sdk#14641): the local dev harness's failure, not the API's, which never says this. Such a request
 * is sent once more, its latency still counted from when it was first due, and the resends are counted apart.
 */
export const DEV_PROXY_DROPPED = 'Your worker restarted mid-request';

export interface OpenLoopOptions {
  base: string;
  /** Requests started per second, on a fixed schedule whatever the answers' pace (an open loop). */
  ratePerSecond: number;
  seconds: number;
  mix: readonly MixEntry[];
  /** Keep-alive sockets at most; requests due while all are busy wait for one (and that wait counts). */
  connections?: number;
  /** A hard bound on one run's requests, whatever rate × seconds says. */
  maxRequests?: number;
}

export interface OpenLoopResult {
  /** Requests scheduled (rate × seconds, bounded by maxRequests): every one is answered or counted an error. */
  scheduled: number;
  valid: number;
  errors: number;
  /** The first few errors, to say what went wrong. */
  errorSamples: string[];
  /** Requests sent a second time after wrangler dev's proxy dropped them (DEV_PROXY_DROPPED); always 0 on Node. */
  devProxyResends: number;
  /** Achieved rate: answers per second of the run, from the first send to the last answer. */
  answeredPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * A fixed-rate (open-loop) load generator: request i is due at start + i / rate, and its latency is
 * measured from when it was due, not from when a socket was free, so a server that falls behind shows
 * it in the latency instead of slowing the generator down (coordinated omission: Tene, "How NOT to
 * measure latency", 2015; the approach of wrk2). Each answer must be a 200 with a body that its mix
 * entry accepts, and byte-identical to the first answer of its kind (the model is deterministic).
 */
export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const { base, ratePerSecond, seconds, mix } = options;
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections ?? 16 });
  const scheduled = Math.min(Math.round(ratePerSecond * seconds), options.maxRequests ?? 100_000);
  const bodies = new Map(mix.map((e) => [e, Buffer.from(e.body)]));
  const firstAnswer = new Map<string, string>();
  const latenciesMs: number[] = [];
  const errorSamples: string[] = [];
  let valid = 0;
  let errors = 0;
  let devProxyResends = 0;
  const fail = (why: string) => {
    errors += 1;
    if (errorSamples.length < 5) errorSamples.push(why);
  };

  const send = (entry: MixEntry, dueAt: number, resent = false): Promise<void> => new Promise<void>((settle) => {
    const body = bodies.get(entry)!;
    // Each request settles once, whichever of its answer, an error or the timeout comes first.
    let settled = false;
    const resolve = (_?: void) => { if (!settled) { settled = true; settle(); } };
    const req = request({
      host: url.hostname, port: url.port, path: entry.path, method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': body.byteLength },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (settled) return;
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode === 503 && !resent && text.startsWith(DEV_PROXY_DROPPED)) {
          devProxyResends += 1;
          settled = true;
          void send(entry, dueAt, true).then(() => settle());
          return;
        }
        latenciesMs.push(performance.now() - dueAt);
        if (res.statusCode !== 200) return resolve(fail(`${entry.kind}: HTTP ${res.statusCode} ${text.slice(0, 200)}`));
        let answer: unknown;
        try { answer = JSON.parse(text); } catch { return resolve(fail(`${entry.kind}: not JSON: ${text.slice(0, 200)}`)); }
        if (typeof answer !== 'object' || answer === null || !entry.valid(answer as Record<string, unknown>)) {
          return resolve(fail(`${entry.kind}: invalid answer ${text.slice(0, 200)}`));
        }
        const first = firstAnswer.get(entry.kind);
        if (first === undefined) firstAnswer.set(entry.kind, text);
        else if (first !== text) return resolve(fail(`${entry.kind}: answer differs from the first one`));
        valid += 1;
        resolve();
      });
      res.on('error', (e) => { if (!settled) resolve(fail(`${entry.kind}: ${e.message}`)); });
    });
    req.on('error', (e) => { if (!settled) resolve(fail(`${entry.kind}: ${e.message}`)); });
    // A hang is an error, not a stalled run.
    req.setTimeout(REQUEST_TIMEOUT_MS, () => { if (!settled) resolve(fail(`${entry.kind}: no answer in ${REQUEST_TIMEOUT_MS} ms`)); req.destroy(); });
    req.end(body);
  });

  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  let next = 0;
  await new Promise<void>((done) => {
    // A 1 ms tick sends every request that has come due (timers are coarse; the schedule is not).
    const tick = () => {
      const now = performance.now();
      while (next < scheduled && start + (next * 1000) / ratePerSecond <= now) {
        inFlight.push(send(mixEntryAt(mix, next), start + (next * 1000) / ratePerSecond));
        next += 1;
      }
      if (next < scheduled) setTimeout(tick, 1);
      else done();
    };
    tick();
  });
  await Promise.all(inFlight);
  const elapsedSeconds = (performance.now() - start) / 1000;
  agent.destroy();
  const sorted = latenciesMs.sort((a, b) => a - b);
  return {
    scheduled, valid, errors, errorSamples, devProxyResends,
    answeredPerSecond: latenciesMs.length / elapsedSeconds,
    p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), maxMs: sorted[sorted.length - 1] ?? NaN,
  };
}
