/** Hex and UTF-8 helpers on Uint8Array, WebCrypto's currency (no Buffer: this runs in Workers and Deno). */

const encoder = new TextEncoder();
export const utf8 = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text) as Uint8Array<ArrayBuffer>;

/** Bytes of an even-length hex string; undefined when it is not hex. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * Equality of two byte strings in time that depends only on their lengths, never on where they
 * first differ (so a forger learns nothing from response times; cf. Node's crypto.timingSafeEqual).
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  // Lengths are public (an HMAC-SHA256 is always 32 bytes), so a length mismatch may answer at once.
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** The bytes of `parts`, one after the other (a signed prefix, then the raw body). */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const p of parts) { out.set(p, offset); offset += p.byteLength; }
  return out;
}
