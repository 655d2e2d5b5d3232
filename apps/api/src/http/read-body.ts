import type { Context } from 'hono';
import { decodeMsgpack } from './msgpack.ts';
import { mediaType, requestEncoding } from './media-types.ts';
import { invalidInput, payloadTooLarge, unsupportedMediaType } from './problems.ts';

/** Request bodies larger than this are refused (a scenario is a few hundred bytes). */
export const MAX_BODY_BYTES = 64 * 1024;

export type BodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A request body as a JSON value, from JSON or MessagePack: 415 for another media type, 413 past
 * MAX_BODY_BYTES (checked on Content-Length first, then on the bytes read), 400 when it does not parse.
 */
export async function readBody(c: Context): Promise<BodyResult> {
  const contentType = c.req.header('content-type');
  const encoding = requestEncoding(contentType);
  if (!encoding) return { ok: false, response: unsupportedMediaType(mediaType(contentType)) };
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return { ok: false, response: payloadTooLarge(MAX_BODY_BYTES) };
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.byteLength > MAX_BODY_BYTES) return { ok: false, response: payloadTooLarge(MAX_BODY_BYTES) };
  try {
    return { ok: true, value: encoding === 'json' ? JSON.parse(decoder.decode(bytes)) : decodeMsgpack(bytes) };
  } catch {
    const what = encoding === 'json' ? 'valid UTF-8 JSON' : 'valid MessagePack';
    return { ok: false, response: invalidInput([{ path: '', message: `the body is not ${what}` }]) };
  }
}
