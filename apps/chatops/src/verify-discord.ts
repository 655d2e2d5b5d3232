import { concatBytes, fromHex, utf8 } from './bytes.ts';
import { checkTimestamp, type Verification } from './verify-slack.ts';

/** Whether text is a raw Ed25519 public key in hex (32 bytes), as Discord's developer portal shows it. */
export const isDiscordPublicKey = (hex: string): boolean => /^[0-9a-fA-F]{64}$/.test(hex);

const publicKeys = new Map<string, Promise<CryptoKey>>();
function publicKey(hex: string): Promise<CryptoKey> | undefined {
  const raw = fromHex(hex);
  if (raw === undefined || raw.length !== 32) return undefined;
  let key = publicKeys.get(hex);
  if (key === undefined) {
    key = crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
    if (publicKeys.size > 8) publicKeys.clear();
    publicKeys.set(hex, key);
  }
  return key;
}

/**
 * Discord's interaction signing (discord.com/developers/docs/interactions/overview, "Setting up an
 * endpoint"): `X-Signature-Ed25519` is the hex Ed25519 signature of `${X-Signature-Timestamp}${raw body}`
 * under the application's public key. Verified with WebCrypto's Ed25519 (Node ≥ 20, workerd, Deno).
 * The signed timestamp also gets Slack's five-minute window, so a captured request cannot be replayed. The body is the
 * bytes as received: decoding drops a leading byte-order mark and replaces bytes that are not UTF-8, so text encoded
 * again is not what Discord signed.
 */
export async function verifyDiscordRequest(input: {
  publicKeyHex: string;
  timestamp: string | undefined;
  signature: string | undefined;
  body: Uint8Array;
  nowSeconds: number;
}): Promise<Verification> {
  const key = publicKey(input.publicKeyHex);
  if (key === undefined) return { ok: false, reason: 'DISCORD_PUBLIC_KEY is not a 32-byte hex Ed25519 key' };
  const fresh = checkTimestamp(input.timestamp, input.nowSeconds);
  if (!fresh.ok) return fresh;
  const signature = input.signature === undefined ? undefined : fromHex(input.signature);
  if (signature === undefined || signature.length !== 64) return { ok: false, reason: 'missing or malformed X-Signature-Ed25519' };
  let valid = false;
  try {
    valid = await crypto.subtle.verify({ name: 'Ed25519' }, await key, signature, concatBytes(utf8(input.timestamp ?? ''), input.body));
  } catch {
    valid = false;
  }
  return valid ? { ok: true } : { ok: false, reason: 'signature does not match' };
}
