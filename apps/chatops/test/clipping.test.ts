import { ask, type Answer } from '@trainplan/ask';
import { describe, expect, it } from 'vitest';
import { toDiscordMessage } from '../src/discord-message.ts';
import { toSlackMessage } from '../src/slack-message.ts';

/**
 * Texts cut to the platforms' limits are cut between whole code points: an emoji (two UTF-16 code units) halved leaves a
 * lone surrogate, which JSON carries as "\ud83d" and a client draws as U+FFFD.
 */

/** The lone surrogates in a string: a high half without its low half, or a low half without its high one. */
const loneSurrogates = (s: string): string[] => s.match(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g) ?? [];
/** Every string in a message, one to a line. */
const strings = (value: unknown): string =>
  typeof value === 'string' ? value
    : value !== null && typeof value === 'object' ? Object.values(value).map(strings).join('\n') : '';

const ROCKETS = '🚀'.repeat(2000);
const emojiAnswer: Answer = {
  intent: 'nodes', kind: 'answer', ok: true, question: ROCKETS, headline: ROCKETS, configuration: ROCKETS,
  figures: [{ label: ROCKETS, value: ROCKETS }], assumptions: [ROCKETS], notes: [ROCKETS], examples: [],
};

describe('clipping between whole code points', () => {
  it('Discord: an emoji-heavy title, description, field and footer, each cut to its limit, hold no lone surrogate', () => {
    const message = toDiscordMessage(emojiAnswer);
    const [embed] = message.data.embeds;
    expect(embed?.title.length).toBeLessThanOrEqual(256);
    expect(embed?.title.endsWith('🚀…')).toBe(true);
    expect(loneSurrogates(strings(message))).toEqual([]);
  });

  it('Slack: an emoji-heavy fallback text and blocks, cut to 3000 and 2000, hold no lone surrogate', () => {
    const message = toSlackMessage(emojiAnswer);
    expect(message.text.length).toBeLessThanOrEqual(3000);
    expect(message.text.endsWith('🚀…')).toBe(true);
    expect(loneSurrogates(strings(message))).toEqual([]);
  });

  it('the help quoting an emoji-heavy question back (80 characters) holds no lone surrogate, on either platform', () => {
    const answer = ask('🚀'.repeat(60));
    expect(answer.headline).toMatch(/^I didn't understand "(🚀)+…"\.$/);
    expect(loneSurrogates(answer.headline)).toEqual([]);
    expect(loneSurrogates(strings(toSlackMessage(answer)))).toEqual([]);
    expect(loneSurrogates(strings(toDiscordMessage(answer)))).toEqual([]);
  });
});
