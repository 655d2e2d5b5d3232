import { ask, type Answer } from '@trainplan/ask';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_CANDIDATE_BUDGET } from '../src/app.ts';
import { toDiscordMessage } from '../src/discord-message.ts';
import { toSlackMessage } from '../src/slack-message.ts';

const huge: Answer = {
  intent: 'nodes', kind: 'answer', ok: true, question: 'q', headline: 'h'.repeat(5000), configuration: 'c'.repeat(5000),
  figures: Array.from({ length: 30 }, (_, i) => ({ label: `label ${i}`, value: 'v'.repeat(3000) })),
  assumptions: ['a'.repeat(5000)], notes: ['n'.repeat(5000)], examples: [], widgetUrl: `https://x.example/#scenario=${'%7B'.repeat(2000)}`,
};

describe('toDiscordMessage: mentions', () => {
  it('allows no mentions, so an echoed @everyone or <@id> pings nobody', () => {
    const m = toDiscordMessage({ ...huge, headline: '@everyone <@123>', figures: [] });
    expect(m.data.allowed_mentions).toEqual({ parse: [] });
  });
});

describe('toSlackMessage', () => {
  it('keeps every text inside Block Kit\'s limits (3000 per text, 10 fields of 2000)', () => {
    const m = toSlackMessage(huge);
    expect(m.text.length).toBeLessThanOrEqual(3000);
    for (const block of m.blocks) {
      if ('text' in block) expect(block.text.text.length).toBeLessThanOrEqual(3000);
      if ('fields' in block) {
        expect(block.fields.length).toBeLessThanOrEqual(10);
        for (const f of block.fields) expect(f.text.length).toBeLessThanOrEqual(2000);
      }
      if ('elements' in block) for (const e of block.elements) expect(e.text.length).toBeLessThanOrEqual(3000);
    }
    // A 6000-character link cannot be sent, so it is left out rather than cut.
    expect(JSON.stringify(m.blocks)).not.toContain('https://x.example');
  });

  it('escapes &, < and > so an answer cannot inject Slack links or mentions', () => {
    const m = toSlackMessage({ ...huge, headline: '<!channel> & <http://evil|x>', configuration: undefined, figures: [], assumptions: [], notes: [], widgetUrl: undefined });
    expect(m.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: '*&lt;!channel&gt; &amp; &lt;http://evil|x&gt;*' } });
    // The fallback text (what notifications show) too.
    expect(m.text).toBe('&lt;!channel&gt; &amp; &lt;http://evil|x&gt;');
  });
});

describe('toDiscordMessage', () => {
  it('keeps the embed inside Discord\'s limits (title 256, 25 fields, 6000 characters in all)', () => {
    const [embed] = toDiscordMessage(huge).data.embeds;
    expect(embed!.title.length).toBeLessThanOrEqual(256);
    expect(embed!.fields.length).toBeLessThanOrEqual(25);
    for (const f of embed!.fields) expect(f.value.length).toBeLessThanOrEqual(1024);
    const total = embed!.title.length + (embed!.description?.length ?? 0) + (embed!.footer?.text.length ?? 0)
      + embed!.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
    expect(total).toBeLessThanOrEqual(6000);
  });

  it('a help answer is ephemeral (flag 64) and lists the examples', () => {
    const m = toDiscordMessage(ask('help'));
    expect(m.data.flags).toBe(64);
    expect(m.data.embeds[0]?.description).toContain('how many nodes for 175B');
  });
});

describe('the notes a plan may carry (stated MFU, sharding, the larger-batch hint) in chat', () => {
  // One question that draws all three, at the bot's own search budget (its batch stated: with none, a deadline plans
  // each size at its own batch, and the batch no longer holds this plan back).
  const a = ask('how many nodes for 70b at 40% mfu with zero-1 and dist opt at global batch 256', { publicUrl: 'https://plan.example', candidateBudget: DEFAULT_CHAT_CANDIDATE_BUDGET });
  const sharding = a.assumptions.find((t) => t.startsWith('ZeRO-1 used, not the distributed optimizer'));
  const hint = a.notes.find((n) => n.startsWith('The batch holds this plan back: '));
  const mfu = a.notes.find((n) => n.startsWith('You stated 40% MFU'));

  it('the answer carries them (the fixture is what it says it is)', () => {
    expect([sharding, hint, mfu].every((t) => t !== undefined)).toBe(true);
    // The sharding note has a semicolon of its own: "; " cannot be what separates assumptions.
    expect(sharding).toContain('; ');
  });

  it('Slack: each assumption and each note is a bulleted line of its own, whole, inside the 3000-character text limit', () => {
    const context = toSlackMessage(a).blocks.flatMap((b) => (b.type === 'context' ? b.elements.map((e) => e.text) : []));
    const assumed = context.find((t) => t.startsWith('Assumed:'));
    expect(assumed?.split('\n')).toEqual(['Assumed:', ...a.assumptions.map((t) => `• ${t.replace(/&/g, '&amp;')}`)]);
    expect(context).toContain(a.notes.map((n) => `• ${n}`).join('\n'));
    for (const text of context) expect(text.length).toBeLessThanOrEqual(3000);
  });

  it('Discord: the notes are bulleted lines of the description and the assumptions of the footer, none cut, inside the embed limits', () => {
    const [embed] = toDiscordMessage(a).data.embeds;
    expect(embed!.footer?.text.split('\n')).toEqual(['Assumed:', ...a.assumptions.map((t) => `• ${t}`)]);
    expect(embed!.description?.split('\n').slice(1)).toEqual(a.notes.map((n) => `• ${n}`));
    expect(embed!.footer!.text.length).toBeLessThanOrEqual(2048);
    expect(embed!.description!.length).toBeLessThanOrEqual(4096);
  });
});
