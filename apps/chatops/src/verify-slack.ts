import { concatBytes, constantTimeEqual, fromHex, utf8 } from './bytes.ts';

/** Slack refuses requests whose timestamp is more than five minutes from now, and so do we. */
export const MAX_REQUEST_AGE_SECONDS = 5 * 60;

export type Verification = { ok: true } | { ok: false; reason: string };

/** Whether a signed timestamp (Unix seconds, as text) is within the replay window of `nowSeconds`. */
export function checkTimestamp(timestamp: string | undefined, nowSeconds: number): Verification {
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'missing or malformed request timestamp' };
  if (Math.abs(nowSeconds - Number(timestamp)) > MAX_REQUEST_AGE_SECONDS) {
    return { ok: false, reason: `request timestamp is more than ${MAX_REQUEST_AGE_SECONDS / 60} minutes from now (replayed?)` };
  }
  return { ok: true };
}

const hmacKeys = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (key === undefined) {
    key = crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    // One signing secret per deployment: the map stays tiny, but never let a caller grow it unbounded.
    if (hmacKeys.size > 8) hmacKeys.clear();
    hmacKeys.set(secret, key);
  }
  return key;
}

/**
 * Slack's request signing (api.slack.com/authentication/verifying-requests-from-slack):
 * `X-Slack-Signature` is `v0=` + hex HMAC-SHA256(signing secret, `v0:${timestamp}:${raw body}`);
 * the timestamp is `X-Slack-Request-Timestamp`. Compared in constant time. The body is the bytes as received, never
 * text decoded and encoded again: decoding replaces a byte that is not UTF-8 (a raw 0xFF) with U+FFFD, and the HMAC
 * of what Slack signed would no longer match.
 */
export async function verifySlackRequest(input: {
  secret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  body: Uint8Array;
  nowSeconds: number;
}): Promise<Verification> {
  const fresh = checkTimestamp(input.timestamp, input.nowSeconds);
  if (!fresh.ok) return fresh;
  const given = input.signature?.startsWith('v0=') === true ? fromHex(input.signature.slice(3)) : undefined;
  if (given === undefined) return { ok: false, reason: 'missing or malformed X-Slack-Signature' };
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(input.secret), concatBytes(utf8(`v0:${input.timestamp}:`), input.body));
  return constantTimeEqual(new Uint8Array(mac), given) ? { ok: true } : { ok: false, reason: 'signature does not match' };
}
