import type { Context } from 'hono';
import { ifNoneMatchHolds } from '@trainplan/http';
import { fnv1a64 } from './fnv1a64.ts';
import { encodeMsgpack } from './msgpack.ts';
import { JSON_TYPE, MSGPACK_TYPE, responseEncoding } from './media-types.ts';

/**
 * Answers are pure functions of the request (and of this build), so a client or a cache may keep
 * them an hour; the ETag changes whenever the answer does.
 */
export const CACHE_CONTROL = 'public, max-age=3600';

/**
 * A 200 answer in the encoding the client asked for, with a strong ETag and Cache-Control.
 *
 * The data is serialised to JSON first: the ETag hashes that text (FNV-1a 64), and a MessagePack
 * answer is packed from the parsed text, so both encodings carry identical data by construction
 * (the same JSON value; NaN or undefined could otherwise differ). The two representations get
 * distinct ETags (`-mp` suffix), as RFC 9110 §8.8.3 asks of different representations.
 *
 * If-None-Match → 304 on GET, and on our POSTs too for a tag they name: these are safe queries that change
 * nothing, answered like the HTTP QUERY method (draft-ietf-httpbis-safe-method-w-body §2) answers them, rather
 * than with the 412 RFC 9110 §13.1.2 prescribes for state-changing methods. `*` is a 304 on GET and HEAD only
 * (@trainplan/http ifNoneMatchHolds): it asks whether the target resource has a current representation (RFC 9110
 * §13.1.2), which a GET route's has and a POST route's has not (GET there is a 405), so a POST with it is
 * answered. The 304 states what the 200 would (RFC 9110 §15.4.5): the 200's ETag, whatever form If-None-Match
 * gave it in; a layer that codes the 200, and so weakens its ETag (infra/node compress.ts), owes its 304 the weak one.
 */
export function respond(c: Context, data: unknown): Response {
  return respondPrepared(c, prepare(data));
}

/** An answer serialised once: its JSON text, that text's hash for the ETags, and its MessagePack bytes when first asked for. */
interface Prepared {
  readonly text: string;
  readonly hash: string;
  msgpack?: Uint8Array<ArrayBuffer>;
}

const prepare = (data: unknown): Prepared => {
  const text = JSON.stringify(data);
  return { text, hash: fnv1a64(text) };
};

/**
 * `respond` for an answer that never changes (the OpenAPI document, 560 KB): serialised and hashed on the
 * first request only, where each request took 7–10 ms (20 ms packed), the whole CPU a Worker's request may
 * have on Cloudflare's free plan.
 */
export function fixedResponder(data: () => unknown): (c: Context) => Response {
  let prepared: Prepared | undefined;
  return (c) => respondPrepared(c, (prepared ??= prepare(data())));
}

function respondPrepared(c: Context, p: Prepared): Response {
  const encoding = responseEncoding(c.req.header('accept'));
  const etag = `"${p.hash}${encoding === 'msgpack' ? '-mp' : ''}"`;
  const contentType = encoding === 'msgpack' ? MSGPACK_TYPE : `${JSON_TYPE}; charset=utf-8`;
  // A 304 states the stored representation's type too (RFC 9110 §15.4.5 lets it carry what a 200 would);
  // without one, @hono/node-server adds text/plain to every response, and a cache could take that up.
  const headers: Record<string, string> = { etag, 'cache-control': CACHE_CONTROL, vary: 'Accept', 'content-type': contentType };
  if (ifNoneMatchHolds(c.req.header('if-none-match'), etag, c.req.method)) return new Response(null, { status: 304, headers });
  if (encoding === 'msgpack') return new Response(p.msgpack ??= encodeMsgpack(JSON.parse(p.text)), { status: 200, headers });
  return new Response(p.text, { status: 200, headers });
}
