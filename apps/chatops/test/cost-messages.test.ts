import { ask, type Answer } from '@trainplan/ask';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_CANDIDATE_BUDGET } from '../src/app.ts';
import { toDiscordMessage } from '../src/discord-message.ts';
import { toSlackMessage } from '../src/slack-message.ts';

/** Cost and cheapest answers as the bot makes them (its search budget, a public URL). */
const chat = (question: string): Answer => ask(question, { publicUrl: 'https://plan.example', candidateBudget: DEFAULT_CHAT_CANDIDATE_BUDGET });

const QUESTIONS = [
  'cheapest way to train 70B on 2T tokens at $2/GPU-hour',
  'what\'s the most cost-effective cluster for llama3-70b on 15T tokens',
  'cheapest way to train 70B in 30 days at €1.8/GPU-h',
  'how many nodes to train llama3-8b on 15T tokens in 14 days at 2.5 USD per gpu-hour',
  'how long to train 70b on 2T tokens on 64 H100 nodes at $2/GPU-hour with a $1M budget',
  'cheapest way to train 70b on 2T tokens at $2/GPU-hour with a $1M budget',
  'what does it cost per day to run 128 H100 nodes at $2/GPU-hour',
  'how many GPU-hours to train 70b on 2T tokens in 30 days',
];

describe.each(QUESTIONS)('"%s" in chat', (question) => {
  const a = chat(question);

  it('is answered (the fixture is a plan, not help)', () => {
    expect(a.ok).toBe(true);
    expect(a.intent).not.toBe('help');
  });

  it('Slack: the headline whole in bold, every figure a field, each note a bulleted line of its own, all inside Block Kit\'s limits', () => {
    const m = toSlackMessage(a);
    expect(m.text).toBe(a.headline.replace(/&/g, '&amp;'));
    expect(m.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: `*${a.headline}*` } });
    const fields = m.blocks.flatMap((b) => ('fields' in b ? b.fields.map((f) => f.text) : []));
    expect(fields).toEqual(a.figures.map((f) => `*${f.label}*\n${f.value}`));
    const context = m.blocks.flatMap((b) => (b.type === 'context' ? b.elements.map((e) => e.text) : []));
    expect(context).toContain(a.notes.map((n) => `• ${n}`).join('\n'));
    for (const text of [...fields, ...context]) expect(text.length).toBeLessThanOrEqual(2000);
    expect(m.blocks.length).toBeLessThanOrEqual(50);
  });

  it('Discord: the headline as the whole title, the figures as fields, the notes uncut, inside the embed\'s limits', () => {
    const [embed] = toDiscordMessage(a).data.embeds;
    expect(embed!.title).toBe(a.headline);
    expect(embed!.title.length).toBeLessThanOrEqual(256);
    expect(embed!.fields.map((f) => `${f.name}: ${f.value}`)).toEqual(a.figures.map((f) => `${f.label}: ${f.value}`));
    expect(embed!.description?.split('\n').slice(a.configuration === undefined ? 0 : 1)).toEqual(a.notes.map((n) => `• ${n}`));
    const total = embed!.title.length + (embed!.description?.length ?? 0) + (embed!.footer?.text.length ?? 0)
      + embed!.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
    expect(total).toBeLessThanOrEqual(6000);
  });
});

describe('the cost in chat', () => {
  it('a priced answer shows its cost as a field in the currency asked, on Slack and on Discord', () => {
    const a = chat('cheapest way to train 70B in 30 days at €1.8/GPU-h');
    const slack = toSlackMessage(a).blocks.flatMap((b) => ('fields' in b ? b.fields.map((f) => f.text) : []));
    expect(slack.at(-1)).toMatch(/^\*Cost\*\n€[\d.]+M: [\d.]+M GPU-hours at €1\.80\/GPU-hour$/);
    expect(toDiscordMessage(a).data.embeds[0]!.fields.at(-1)).toMatchObject({ name: 'Cost', inline: true });
  });

  it('the cheapest\'s trade-off notes reach the channel: the fastest size is named in both renderings', () => {
    const a = chat('cheapest way to train 70B on 2T tokens at $2/GPU-hour');
    const fastest = a.notes.find((n) => n.startsWith('The fastest, '));
    expect(fastest).toBeDefined();
    expect(JSON.stringify(toSlackMessage(a).blocks)).toContain(fastest);
    expect(toDiscordMessage(a).data.embeds[0]!.description).toContain(fastest);
  });

  it('a budget on a stated cluster reaches the channel as one line: the cost and how far over the budget it is', () => {
    const a = chat('how long to train 70b on 2T tokens on 64 H100 nodes at $2/GPU-hour with a $1M budget');
    const budget = a.notes.find((n) => n.endsWith(' over the $1M budget.'));
    expect(budget).toMatch(/^\$1\.\d\dM, \d+% over/);
    expect(JSON.stringify(toSlackMessage(a).blocks)).toContain(`• ${budget}`);
    expect(toDiscordMessage(a).data.embeds[0]!.description?.split('\n')).toContain(`• ${budget}`);
  });

  it('a cluster\'s cost per day is posted to the channel, not privately as help', () => {
    const a = chat('what does it cost per day to run 128 H100 nodes at $2/GPU-hour');
    expect(toSlackMessage(a).response_type).toBe('in_channel');
    expect(toDiscordMessage(a).data.flags).toBeUndefined();
    expect(toDiscordMessage(a).data.embeds[0]!.title).toContain('$49.2k a day');
  });

  it('two cluster sizes are answered side by side (since 2026-11-28, not a pointer), publicly, inside Discord\'s 256-character title', () => {
    const a = chat('is 512 or 1024 H100 cheaper for 405B on 15T tokens');
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(/512 GPUs.*1,024 GPUs/);
    expect(toSlackMessage(a).response_type).toBe('in_channel');
    expect(toDiscordMessage(a).data.embeds[0]!.title.length).toBeLessThanOrEqual(256);
  });

  it('an out-of-range price is help, privately: the problem names the price', () => {
    const a = chat('how long to train 70b on 64 nodes at $0/GPU-hour');
    expect(toSlackMessage(a).response_type).toBe('ephemeral');
    expect(toDiscordMessage(a).data.flags).toBe(64);
    expect(toDiscordMessage(a).data.embeds[0]!.title).toContain('a price of $0 per GPU-hour is out of range');
  });
});
