import { ask, type Answer } from '@trainplan/ask';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_CANDIDATE_BUDGET } from '../src/app.ts';
import { toDiscordMessage, type DiscordEmbed } from '../src/discord-message.ts';
import { toSlackMessage } from '../src/slack-message.ts';

/**
 * Answers sent whole where the platforms' limits leave room, and cut after a whole word, saying so, where they do not.
 * Discord: title 256, description 4096, 25 fields (name 256, value 1024), footer 2048, 6000 in all
 * (https://discord.com/developers/docs/resources/message#embed-object-embed-limits). Slack: 3000 per text, 10 fields of
 * 2000 per section, 50 blocks (https://api.slack.com/reference/block-kit/blocks).
 */

const DISCORD_CUT = "… (cut to Discord's limit)";
const SLACK_CUT = "… (cut to Slack's limit)";

/** A note of `words` words, numbered so that no two notes are alike. */
const note = (i: number, words = 16): string => `Note ${i}: ${Array.from({ length: words }, (_, w) => `word${w}`).join(' ')}.`;
const answerOf = (parts: Partial<Answer>): Answer => ({
  intent: 'nodes', kind: 'answer', ok: true, question: 'q', headline: 'A headline', figures: [], assumptions: [], notes: [], examples: [], ...parts,
});
const embedOf = (answer: Answer): DiscordEmbed => toDiscordMessage(answer).data.embeds[0]!;
const totalChars = (e: DiscordEmbed): number =>
  e.title.length + (e.description?.length ?? 0) + (e.footer?.text.length ?? 0) + e.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
/** Whether `cut` is `full` cut after a whole word and ended with `notice`: what precedes the notice ends where a word of `full` does. */
const cutAtAWord = (cut: string, full: string, notice: string): boolean => {
  if (!cut.endsWith(notice)) return false;
  const kept = cut.slice(0, -notice.length);
  return full.startsWith(kept) && /\s/.test(full[kept.length] ?? '');
};

describe('Discord: the description', () => {
  it('of 3,000 characters is sent whole: the limit is 4,096 (it was cut at 2,000)', () => {
    const notes = Array.from({ length: 28 }, (_, i) => note(i));
    const e = embedOf(answerOf({ notes }));
    expect(e.description!.length).toBeGreaterThan(3000);
    expect(e.description!.split('\n')).toEqual(notes.map((n) => `• ${n}`));
  });

  it('over 4,096 characters is cut after a whole word, and says so', () => {
    const notes = Array.from({ length: 40 }, (_, i) => note(i));
    const full = notes.map((n) => `• ${n}`).join('\n');
    const e = embedOf(answerOf({ notes }));
    expect(full.length).toBeGreaterThan(4096);
    expect(e.description!.length).toBeLessThanOrEqual(4096);
    expect(cutAtAWord(e.description!, full, DISCORD_CUT)).toBe(true);
  });
});

describe('Discord: a headline over the 256-character title', () => {
  const headline = `No: ${Array.from({ length: 60 }, (_, i) => `clause${i}`).join(' ')}; $1M buys about 1.63T of the 2.00T tokens`;
  const e = embedOf(answerOf({ headline, configuration: 'TP 8', notes: ['a note'] }));

  it('is titled with its words up to the limit and "…", never half a word', () => {
    expect(headline.length).toBeGreaterThan(256);
    expect(e.title.length).toBeLessThanOrEqual(256);
    expect(e.title.endsWith('…')).toBe(true);
    expect(headline[e.title.length - 1]).toBe(' ');
  });

  it('carries the rest to the top of the description, so no word of it is lost (the end held the budget verdict)', () => {
    const [first, ...others] = e.description!.split('\n');
    expect(first!.startsWith('…')).toBe(true);
    expect(`${e.title.slice(0, -1)} ${first!.slice(1)}`).toBe(headline);
    expect(others).toEqual(['**Configuration:** TP 8', '• a note']);
  });

  it('that fits is the title whole, and the description carries nothing of it', () => {
    const short = embedOf(answerOf({ headline: 'x'.repeat(256), notes: ['a note'] }));
    expect(short.title).toBe('x'.repeat(256));
    expect(short.description).toBe('• a note');
  });
});

describe('Discord: 6,000 characters in all', () => {
  const big = answerOf({
    headline: 'h '.repeat(200),
    notes: Array.from({ length: 60 }, (_, i) => note(i)),
    figures: Array.from({ length: 30 }, (_, i) => ({ label: `Figure ${i}`, value: note(i, 50) })),
    assumptions: Array.from({ length: 30 }, (_, i) => note(i)),
  });
  const e = embedOf(big);

  it('are never exceeded, nor any part\'s own limit', () => {
    expect(totalChars(e)).toBeLessThanOrEqual(6000);
    expect(e.title.length).toBeLessThanOrEqual(256);
    expect(e.description!.length).toBeLessThanOrEqual(4096);
    expect(e.fields.length).toBeLessThanOrEqual(25);
    for (const f of e.fields) expect(f.value.length).toBeLessThanOrEqual(1024);
    expect(e.footer!.text.length).toBeLessThanOrEqual(2048);
  });

  it('figures that do not fit are left out whole, and the footer counts them', () => {
    const cut = big.figures.length - e.fields.length;
    expect(cut).toBeGreaterThan(0);
    expect(e.fields.map((f) => f.value)).toEqual(big.figures.slice(0, e.fields.length).map((f) => f.value));
    expect(e.footer!.text.split('\n').at(-1)).toBe(`${cut} more figures cut to Discord's limit`);
  });

  it('26 short figures: the 26th is over the 25-field limit, and said to be cut', () => {
    const figures = Array.from({ length: 26 }, (_, i) => ({ label: `F${i}`, value: `${i}` }));
    const few = embedOf(answerOf({ figures }));
    expect(few.fields).toHaveLength(25);
    expect(few.footer?.text).toBe("1 more figure cut to Discord's limit");
  });
});

describe('Slack', () => {
  it('notes over a text object\'s 3,000 characters are cut after a whole word, and say so', () => {
    const notes = Array.from({ length: 40 }, (_, i) => note(i));
    const full = notes.map((n) => `• ${n}`).join('\n');
    const context = toSlackMessage(answerOf({ notes })).blocks.flatMap((b) => (b.type === 'context' ? b.elements.map((x) => x.text) : []));
    expect(context).toHaveLength(1);
    expect(context[0]!.length).toBeLessThanOrEqual(3000);
    expect(cutAtAWord(context[0]!, full, SLACK_CUT)).toBe(true);
  });

  it('a headline over 3,000 characters is cut after a word inside its bold', () => {
    const headline = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ');
    expect(headline.length).toBeGreaterThan(3000);
    const first = toSlackMessage(answerOf({ headline })).blocks[0];
    const text = first !== undefined && first.type === 'section' && 'text' in first ? first.text.text : '';
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(text.startsWith('*') && text.endsWith('*')).toBe(true);
    expect(cutAtAWord(text.slice(1, -1), headline, SLACK_CUT)).toBe(true);
  });

  it('25 figures are all shown, 10 to a section (the 15 past the first section were dropped)', () => {
    const figures = Array.from({ length: 25 }, (_, i) => ({ label: `F${i}`, value: `${i}` }));
    const sections = toSlackMessage(answerOf({ figures })).blocks.flatMap((b) => ('fields' in b ? [b.fields.map((f) => f.text)] : []));
    expect(sections.map((s) => s.length)).toEqual([10, 10, 5]);
    expect(sections.flat()).toEqual(figures.map((f) => `*${f.label}*\n${f.value}`));
  });

  it('figures past the 50 blocks are counted in a context line, and the message stays within 50 blocks', () => {
    const figures = Array.from({ length: 600 }, (_, i) => ({ label: `F${i}`, value: `${i}` }));
    const { blocks } = toSlackMessage(answerOf({ figures, configuration: 'TP 8', notes: ['a note'] }));
    expect(blocks.length).toBe(50);
    const shown = blocks.reduce((n, b) => n + ('fields' in b ? b.fields.length : 0), 0);
    expect(shown).toBeLessThan(600);
    const said = blocks.flatMap((b) => (b.type === 'context' ? b.elements.map((x) => x.text) : []));
    expect(said).toContain(`${600 - shown} more figures cut to Slack's limit`);
  });
});

describe('the questions QA found cut, as the bot answers them', () => {
  const chat = (question: string): Answer => ask(question, { publicUrl: 'https://plan.example', candidateBudget: DEFAULT_CHAT_CANDIDATE_BUDGET });

  it('"what can I train for $1M on H100 at $2/GPU-hour": every note whole on Discord (it lost them after 2,000 characters, the budget verdict too)', () => {
    const a = chat('what can I train for $1M on H100 at $2/GPU-hour');
    const notes = a.notes.map((n) => `• ${n}`);
    expect(notes.join('\n').length).toBeGreaterThan(2000);
    const e = embedOf(a);
    expect(e.description!.split('\n').slice(a.configuration === undefined ? 0 : 1)).toEqual(notes);
    expect(JSON.stringify(toSlackMessage(a))).not.toContain('(cut to');
  });

  it('"is $1M enough to train llama3-70b on 2T tokens on 64 H100 nodes at $2/GPU-hour": every word of the headline on Discord', () => {
    const a = chat('is $1M enough to train llama3-70b on 2T tokens on 64 H100 nodes at $2/GPU-hour');
    expect(a.headline.length).toBeGreaterThan(256);
    const e = embedOf(a);
    const carried = e.description!.split('\n')[0]!;
    expect(`${e.title.slice(0, -1)} ${carried.slice(1)}`).toBe(a.headline);
    expect(JSON.stringify(toSlackMessage(a))).not.toContain('(cut to');
  });
});
