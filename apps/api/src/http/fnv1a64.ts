/**
 * FNV-1a, 64-bit (Fowler, Noll, Vo; draft-eastlake-fnv-21 §2): offset basis 0xcbf29ce484222325,
 * prime 2^40 + 0x1b3. Pure JS on four 16-bit limbs so it runs the same on Node, workerd and Deno
 * without BigInt (slow per byte) or WebCrypto (async). Used for ETags, not for security.
 */
const encoder = new TextEncoder();

export function fnv1a64(input: string | Uint8Array): string {
  const bytes = typeof input === 'string' ? encoder.encode(input) : input;
  // h = h3·2^48 + h2·2^32 + h1·2^16 + h0, each limb < 2^16.
  let h0 = 0x2325, h1 = 0x8422, h2 = 0x9ce4, h3 = 0xcbf2;
  for (let i = 0; i < bytes.length; i++) {
    h0 ^= bytes[i]!;
    // h · 0x1b3 (low part of the prime), limb by limb with carries.
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3;
    const t2 = h2 * 0x1b3;
    const t3 = h3 * 0x1b3;
    // h · 2^40 = limbs shifted up by 2 limbs and 8 bits: limb 0 into limb 2 (its carry reaches limb 3), limb 1 into limb 3.
    const s2 = t2 + (h0 << 8);
    const s3 = t3 + (h1 << 8);
    h0 = t0 & 0xffff;
    const c1 = t1 + (t0 >>> 16);
    h1 = c1 & 0xffff;
    const c2 = s2 + (c1 >>> 16);
    h2 = c2 & 0xffff;
    h3 = (s3 + (c2 >>> 16)) & 0xffff;
  }
  return hex4(h3) + hex4(h2) + hex4(h1) + hex4(h0);
}

const hex4 = (limb: number): string => limb.toString(16).padStart(4, '0');
