import { describeJsonError, formatPath } from '@trainplan/protocol';
import type { Context } from 'hono';
import { decodeMsgpack, firstNonJson } from './msgpack.ts';
import { mediaType, requestEncoding } from './media-types.ts';
import { invalidInput, payloadTooLarge, unsupportedContentCoding, unsupportedMediaType } from './problems.ts';

/** Request bodies larger than this are refused (a scenario is a few hundred bytes). */
export const MAX_BODY_BYTES = 64 * 1024;

export type BodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A request body as a JSON value, from JSON or MessagePack: 415 for another media type or a content
 * coding, 413 past MAX_BODY_BYTES (checked on Content-Length first, then on the bytes read), 400 when
 * it does not parse.
 */
export async function readBody(c: Context, subject = 'scenario'): Promise<BodyResult> {
  const contentType = c.req.header('content-type');
  const encoding = requestEncoding(contentType);
  if (!encoding) return { ok: false, response: unsupportedMediaType(mediaType(contentType)) };
  const coding = c.req.header('content-encoding')?.trim() ?? '';
  if (coding !== '' && coding.toLowerCase() !== 'identity') return { ok: false, response: unsupportedContentCoding(coding) };
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return { ok: false, response: payloadTooLarge(MAX_BODY_BYTES) };
  const bytes = await readAtMost(c.req.raw, MAX_BODY_BYTES);
  if (bytes === undefined) return { ok: false, response: payloadTooLarge(MAX_BODY_BYTES) };
  const format = encoding === 'json' ? 'JSON' : 'MessagePack';
  const refuse = (message: string): BodyResult => ({ ok: false, response: invalidInput([{ path: '', message }], subject) });
  if (bytes.byteLength === 0) return refuse(`the body is empty (expected ${/^[aeiou]/.test(subject) ? 'an' : 'a'} ${subject} as ${format})`);
  if (encoding === 'msgpack') {
    let value: unknown;
    try {
      value = decodeMsgpack(bytes);
    } catch {
      return refuse('the body is not valid MessagePack');
    }
    const foreign = firstNonJson(value);
    if (foreign === undefined) return { ok: true, value };
    const message = `${foreign.what}, which JSON has no equivalent of: send a string, number, boolean, nil, array or map`;
    return { ok: false, response: invalidInput([{ path: formatPath(foreign.at), message }], subject) };
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return refuse('the body is not valid UTF-8 (JSON is UTF-8 text: RFC 8259 §8.1)');
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return refuse(`the body is not valid JSON (${describeJsonError(text, error instanceof Error ? error.message : String(error))})`);
  }
}

/**
 * The body's bytes, or undefined when more than `limit` arrive. Past the limit the rest is read and
 * dropped, never kept, so a client streaming a body without a Content-Length (chunked) costs the
 * server at most `limit` plus one chunk of memory, however much it sends (OWASP, "Denial of Service
 * Cheat Sheet": limit request sizes before buffering them); how long it may send is the runtime's
 * bound (Node: requestTimeout in infra/node/src/main.ts). Read to the end rather than cancelled:
 * under wrangler dev, a Worker that answers before its request body is consumed, or cancels it,
 * makes the dev proxy answer 503 "Your worker restarted mid-request" (measured with wrangler 4.86).
 */
async function readAtMost(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length <= limit) chunks.push(value);
    else chunks.length = 0; // over the limit: keep nothing, read on to the end
  }
  if (length > limit) return undefined;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) { bytes.set(chunk, offset); offset += chunk.byteLength; }
  return bytes;
}
