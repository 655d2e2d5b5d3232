import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_PROXY_DROPPED, runOpenLoop } from '../src/open-loop.ts';
import type { MixEntry } from '../src/request-mix.ts';

const MIX: readonly MixEntry[] = [{ kind: 'estimate', path: '/v1/estimate', body: '{}', weight: 1, valid: (a) => a.ok === true }];

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => { if (server) server.close(() => done()); else done(); }));

/** A server on 127.0.0.1 whose n-th request (from 0) is answered by `answer(n)`: [status, body]. */
async function serve(answer: (n: number) => [number, string]): Promise<string> {
  let n = 0;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const [status, body] = answer(n++);
      res.writeHead(status, { 'content-type': status === 200 ? 'application/json' : 'text/plain' }).end(body);
    });
  });
  await new Promise<void>((listening) => server!.listen(0, '127.0.0.1', () => listening()));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

const run = (base: string) => runOpenLoop({ base, ratePerSecond: 200, seconds: 0.05, mix: MIX });

describe('the open-loop generator against a dev proxy that drops a POST', () => {
  it('resends a request wrangler dev\'s proxy dropped, once, and counts it apart from the answers', async () => {
    const base = await serve((n) => (n === 2 ? [503, `${DEV_PROXY_DROPPED}. Please try sending the request again.`] : [200, '{"ok":true}']));
    const r = await run(base);
    expect(r).toMatchObject({ scheduled: 10, valid: 10, errors: 0, devProxyResends: 1 });
  });
  it('a second drop of the same request is an error', async () => {
    const base = await serve(() => [503, DEV_PROXY_DROPPED]);
    const r = await run(base);
    expect(r).toMatchObject({ scheduled: 10, valid: 0, errors: 10, devProxyResends: 10 });
    expect(r.errorSamples[0]).toMatch(/^estimate: HTTP 503 Your worker restarted mid-request/);
  });
  it('any other 503 is an error at once, never resent', async () => {
    const base = await serve((n) => (n === 0 ? [503, 'overloaded'] : [200, '{"ok":true}']));
    const r = await run(base);
    expect(r).toMatchObject({ scheduled: 10, valid: 9, errors: 1, devProxyResends: 0 });
  });
});
