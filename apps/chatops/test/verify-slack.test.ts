import { describe, expect, it } from 'vitest';
import { checkTimestamp, MAX_REQUEST_AGE_SECONDS, verifySlackRequest } from '../src/verify-slack.ts';
import { constantTimeEqual, fromHex, utf8 } from '../src/bytes.ts';

// Slack's worked example (api.slack.com/authentication/verifying-requests-from-slack).
const DOC = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: '1531420618',
  body: utf8('token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c'),
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};

describe('verifySlackRequest', () => {
  it('accepts the signature of Slack\'s documented example', async () => {
    expect(await verifySlackRequest({ ...DOC, nowSeconds: Number(DOC.timestamp) + 60 })).toEqual({ ok: true });
  });

  it('refuses the same example one byte changed', async () => {
    const body = utf8(new TextDecoder().decode(DOC.body).replace('text=', 'text=x'));
    expect((await verifySlackRequest({ ...DOC, body, nowSeconds: Number(DOC.timestamp) })).ok).toBe(false);
  });

  it('refuses it once it is more than five minutes old', async () => {
    const v = await verifySlackRequest({ ...DOC, nowSeconds: Number(DOC.timestamp) + MAX_REQUEST_AGE_SECONDS + 1 });
    expect(v).toEqual({ ok: false, reason: expect.stringMatching(/5 minutes/) });
  });
});

describe('checkTimestamp', () => {
  it.each([
    ['300', 0, true], ['301', 0, false], ['0', 300, true], ['0', 301, false], ['12.5', 12, false], ['', 0, false], ['-5', 0, false],
  ] as const)('timestamp %s at %s s is fresh: %s', (ts, now, fresh) => {
    expect(checkTimestamp(ts, now).ok).toBe(fresh);
  });
});

describe('constantTimeEqual', () => {
  it('is equality of bytes', () => {
    expect(constantTimeEqual(fromHex('00ff10')!, fromHex('00ff10')!)).toBe(true);
    expect(constantTimeEqual(fromHex('00ff10')!, fromHex('00ff11')!)).toBe(false);
    expect(constantTimeEqual(fromHex('00ff')!, fromHex('00ff10')!)).toBe(false);
  });
});
