import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/**
 * Request signing as Slack and Discord do it, written with node:crypto (not the app's WebCrypto
 * code) so a test's signature is an independent expectation.
 */

/** A body as sent: text (as UTF-8) or the exact bytes. */
export type SignedBody = string | Uint8Array;

/** Slack: `v0=` + hex HMAC-SHA256(secret, `v0:${timestamp}:${body}`), over the body's bytes as sent. */
export const slackSignature = (secret: string, timestamp: string, body: SignedBody): string =>
  `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest('hex')}`;

export function slackHeaders(secret: string, timestamp: string, body: SignedBody): Record<string, string> {
  return {
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': timestamp,
    'x-slack-signature': slackSignature(secret, timestamp, body),
  };
}

/**
 * A slash-command body as Slack sends it (form-encoded): the bot reads `text`, and `response_url` to defer an answer,
 * which it does only to hooks.slack.com (the default here is not, so answers come inline).
 */
export const slashCommand = (text: string, responseUrl = 'https://hooks.slack.invalid/x'): string =>
  new URLSearchParams({ token: 'unused', team_id: 'T0001', command: '/trainplan', text, response_url: responseUrl }).toString();

export interface DiscordKeys {
  publicKeyHex: string;
  privateKey: KeyObject;
}

/** A fresh Ed25519 key pair; the public key as Discord's portal shows it (64 hex characters). */
export function discordKeys(): DiscordKeys {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  // The raw 32-byte key is the last 32 bytes of the SPKI DER encoding (RFC 8410).
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  return { publicKeyHex: spki.subarray(spki.length - 32).toString('hex'), privateKey };
}

export function discordHeaders(keys: DiscordKeys, timestamp: string, body: SignedBody): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-signature-timestamp': timestamp,
    'x-signature-ed25519': sign(null, Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]), keys.privateKey).toString('hex'),
  };
}

/** An application-command interaction carrying `question` as its string option. */
export const discordCommand = (question: string): string =>
  JSON.stringify({ type: 2, id: '1', application_id: '2', token: 't', data: { id: '3', name: 'trainplan', type: 1, options: [{ name: 'question', type: 3, value: question }] } });

export const DISCORD_PING = JSON.stringify({ type: 1, id: '1', application_id: '2', token: 't' });
