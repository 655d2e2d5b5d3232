/** The media types the API speaks (RFC 8259 JSON; MessagePack, https://msgpack.org, as msgpack-encode.ts writes it). */
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
 * client gives it a higher quality than JSON; JSON otherwise, including for no Accept, wildcards
 * and types we do not produce (leniency over 406: every client can read JSON). Each type takes the
 * quality of the most specific range that matches it (`application/json` over `application/*` over
 * the any-type wildcard), so any type at q=0.1 with MessagePack at q=0.05 prefers JSON, as it says.
 */
export function responseEncoding(accept: string | undefined): Encoding {
  if (!accept) return 'json';
  // Per type, [specificity, quality] of the most specific range seen (2 exact, 1 application/*, 0 */*).
  let msgpack: [number, number] = [-1, 0];
  let json: [number, number] = [-1, 0];
  const take = (held: [number, number], specificity: number, q: number): [number, number] =>
    specificity > held[0] ? [specificity, q] : specificity === held[0] ? [specificity, Math.max(held[1], q)] : held;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';');
    const name = type.trim().toLowerCase();
    const qParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('q='));
    const parsed = qParam === undefined ? 1 : Number(qParam.slice(2));
    const q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
    if (name === MSGPACK_TYPE || name === MSGPACK_LEGACY_TYPE) msgpack = take(msgpack, 2, q);
    else if (name === JSON_TYPE) json = take(json, 2, q);
    else if (name === 'application/*' || name === '*/*') {
      const specificity = name === '*/*' ? 0 : 1;
      msgpack = take(msgpack, specificity, q);
      json = take(json, specificity, q);
    }
  }
  return msgpack[1] > json[1] ? 'msgpack' : 'json';
}
