import { describeJsonError, formatPath } from '@trainplan/protocol';
import { readAtMost } from '@trainplan/http';
import type { Context } from 'hono';
import { decodeMsgpack, firstNonJson, MessagePackError } from './msgpack.ts';
import { mediaType, requestEncoding } from './media-types.ts';
import { contentTooLarge, invalidInput, unsupportedContentCoding, unsupportedMediaType } from './problems.ts';

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
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return { ok: false, response: contentTooLarge(MAX_BODY_BYTES) };
  // Keeps at most MAX_BODY_BYTES of a chunked body, however much is sent (@trainplan/http's readAtMost says why).
  const bytes = await readAtMost(c.req.raw, MAX_BODY_BYTES);
  if (bytes === undefined) return { ok: false, response: contentTooLarge(MAX_BODY_BYTES) };
  const format = encoding === 'json' ? 'JSON' : 'MessagePack';
  const refuse = (message: string): BodyResult => ({ ok: false, response: invalidInput([{ path: '', message }], subject) });
  if (bytes.byteLength === 0) return refuse(`the body is empty (expected ${/^[aeiou]/.test(subject) ? 'an' : 'a'} ${subject} as ${format})`);
  if (encoding === 'msgpack') {
    let value: unknown;
    try {
      value = decodeMsgpack(bytes);
    } catch (error) {
      // The decoder's own sentence where it has one (0xC1, nesting too deep, a body cut short), else the plain one.
      return refuse(error instanceof MessagePackError ? error.message : 'the body is not valid MessagePack');
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
