import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * Response compression for `npm start`, which answers uncompressed otherwise (Cloudflare compresses at its
 * edge; Node has no one in front of it). Measured on this API's answers (`npm start`, curl): /openapi.json
 * 679,645 bytes → 20,367 br / 45,041 gzip; the widget's module (236,300 bytes on 2026-11-30) → 79,923 br / 79,965 gzip at level 9 (gzipLevel); a search's (GPT-3
 * 175B on 128 DGX A100, top 3) 16,985 → 2,628 / 2,730.
 * Bodies under COMPRESS_MIN_BYTES stay as they are (an estimate's ~1 KB gains little and a 30-byte
 * /healthz would grow).
 */
export const COMPRESS_MIN_BYTES = 1024;

// Text, JSON of any flavour (problem+json included), JavaScript, SVG and MessagePack (its keys and strings
// repeat as JSON's do: /openapi.json packed, 607,787 bytes → 21,479 br).
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|msgpack|x-msgpack|[\w.-]+\+json)\b|image\/svg\+xml\b)/i;

// Brotli quality 4, not its default 11: 11 took 135 ms for /openapi.json and 365 ms for the widget, 4 takes
// 1.9 and 3.3 ms for 22 % and 15 % more bytes (one core, Node 20). gzip at zlib's default level 6, JavaScript at 9
// (gzipLevel).
const compressors = {
  br: (bytes: Uint8Array) => promisify(brotliCompress)(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
  }),
  gzip: (bytes: Uint8Array, level: number) => promisify(gzip)(bytes, { level }),
} as const;
export type Coding = keyof typeof compressors;

/**
 * The gzip level of an answer: 9 for JavaScript, zlib's default 6 for the rest. The widget's module is held to its
 * 80 kB budget at level 9 (apps/widget's bundle test, as a CDN serves a static file); at 6 it went out over it (QA:
 * 80,011 B against 79,965), and it is built once and served with an ETag, so the slower level is paid per download
 * of a few hundred kB, not per API answer.
 */
export function gzipLevel(contentType: string | null): number {
  return /javascript/i.test(contentType ?? '') ? constants.Z_BEST_COMPRESSION : constants.Z_DEFAULT_COMPRESSION;
}

/**
 * The coding an Accept-Encoding header asks for (RFC 9110 §12.5.3): br or gzip by their q-values, br when
 * they tie (smaller), a `*` standing for either unnamed one; none when the header is absent or refuses both.
 */
export function preferredCoding(acceptEncoding: string | null): Coding | undefined {
  if (acceptEncoding === null) return undefined;
  const q: Record<string, number> = {};
  for (const item of acceptEncoding.split(',')) {
    const [name = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q[name === 'x-gzip' ? 'gzip' : name] = Number.isFinite(value) ? value : 0;
  }
  const of = (coding: Coding) => q[coding] ?? q['*'] ?? 0;
  const best = of('br') >= of('gzip') ? 'br' : 'gzip';
  return of(best) > 0 ? best : undefined;
}

/** `response` saying it varies by Accept-Encoding; a copy where its headers are immutable (Response.redirect's, fetch's). */
function withVary(response: Response): Response {
  const vary = response.headers.get('vary');
  if (vary?.trim() === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? '')) return response;
  const value = vary === null ? 'Accept-Encoding' : `${vary}, Accept-Encoding`;
  try {
    response.headers.set('vary', value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set('vary', value);
    return copy;
  }
}

const weak = (etag: string): string => (etag.startsWith('W/') ? etag : `W/${etag}`);

/**
 * What compressResponse makes of an answer, decided before a byte is coded: the answer to send as it is (told Vary),
 * or the bytes to code, the coding, and the coded answer's status and header fields. `compressing` reads the header
 * fields a coded 200 would go out with from here, to put them on its 304, without coding the body for nothing: a gzip
 * 304 of /openapi.json took 7.5 ms coding it, 2.5 ms without (the body is still read, its size decides).
 */
export type CodingPlan =
  | { readonly answer: Response }
  | { readonly bytes: Uint8Array; readonly coding: Coding; readonly init: { status: number; statusText: string; headers: Headers } };

/**
 * `response` compressed for `request` where that is worth it: a GET or POST answer (any status with a
 * body) of a compressible type, COMPRESS_MIN_BYTES or more, to a client whose Accept-Encoding takes br or
 * gzip, unless the answer says `no-transform` or is coded already. Every answer of a compressible type says
 * `Vary: Accept-Encoding`, compressed or not, so a cache never hands the coded one to a client without it.
 *
 * A compressed answer is another representation, so its ETag is weakened (RFC 9110 §8.8.1, as nginx does):
 * the API compares If-None-Match weakly (apps/api/src/http/respond.ts), so `W/"…"` sent back still earns a
 * 304, which says the ETag its 200 would (./compressing.ts evaluates a conditional request that takes a coding).
 * 204 and 1xx pass untouched, and HEAD: its answer has no body to measure (`compressing` answers a HEAD from its GET).
 */
export async function compressResponse(request: Request, answer: Response): Promise<Response> {
  const plan = await planCoding(request, answer);
  if ('answer' in plan) return plan.answer;
  const coded = plan.coding === 'gzip' ? await compressors.gzip(plan.bytes, gzipLevel(plan.init.headers.get('content-type'))) : await compressors.br(plan.bytes);
  return new Response(new Uint8Array(coded.buffer, coded.byteOffset, coded.byteLength), plan.init);
}

/** compressResponse's decision (CodingPlan): all of it but the coding itself. */
export async function planCoding(request: Request, answer: Response): Promise<CodingPlan> {
  if (request.method === 'HEAD' || answer.status === 204 || answer.status < 200) return { answer };
  const type = answer.headers.get('content-type') ?? '';
  if (!COMPRESSIBLE.test(type) || answer.headers.has('content-encoding')) return { answer };
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(answer.headers.get('cache-control') ?? '')) return { answer };
  const response = withVary(answer);
  // A 304 of the app's: to a request that takes no coding (compressing evaluates the others), so its 200 goes out as is.
  if (response.status === 304) return { answer: response };
  const coding = preferredCoding(request.headers.get('accept-encoding'));
  if (coding === undefined || response.body === null) return { answer: response };
  const bytes = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  const init = { status: response.status, statusText: response.statusText, headers };
  if (bytes.byteLength < COMPRESS_MIN_BYTES) return { answer: new Response(bytes, init) };
  headers.set('content-encoding', coding);
  headers.delete('content-length');
  const etag = headers.get('etag');
  if (etag !== null) headers.set('etag', weak(etag));
  return { bytes, coding, init };
}
