/** The media types the API speaks (RFC 8259 JSON; MessagePack, https://msgpack.org, as msgpackr writes it). */
export const JSON_TYPE = 'application/json';
export const MSGPACK_TYPE = 'application/msgpack';
/** The unregistered name many MessagePack clients still send. */
export const MSGPACK_LEGACY_TYPE = 'application/x-msgpack';

export type Encoding = 'json' | 'msgpack';

/** The media type of a Content-Type header (parameters such as charset dropped), lower-cased. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** Which encoding a request body is in, or undefined for one the API does not read (→ 415). */
export function requestEncoding(contentType: string | undefined): Encoding | undefined {
  const type = mediaType(contentType);
  if (type === JSON_TYPE) return 'json';
  if (type === MSGPACK_TYPE || type === MSGPACK_LEGACY_TYPE) return 'msgpack';
  return undefined;
}

/**
 * Which encoding to answer in, from the Accept header (RFC 9110 §12.5.1): MessagePack only when the
 * client names it with a higher quality than JSON; JSON otherwise, including for no Accept, wildcards
 * and types we do not produce (leniency over 406: every client can read JSON).
 */
export function responseEncoding(accept: string | undefined): Encoding {
  if (!accept) return 'json';
  let msgpack = 0;
  let json = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';');
    const name = type.trim().toLowerCase();
    const qParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('q='));
    const parsed = qParam === undefined ? 1 : Number(qParam.slice(2));
    const q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
    if (name === MSGPACK_TYPE || name === MSGPACK_LEGACY_TYPE) msgpack = Math.max(msgpack, q);
    else if (name === JSON_TYPE) json = Math.max(json, q);
  }
  return msgpack > json ? 'msgpack' : 'json';
}
