import { ask, type Answer } from '@trainplan/ask';
import { describe, expect, it } from 'vitest';
import { toDiscordMessage } from '../src/discord-message.ts';
import { toSlackMessage } from '../src/slack-message.ts';

const huge: Answer = {
  intent: 'nodes', ok: true, question: 'q', headline: 'h'.repeat(5000), configuration: 'c'.repeat(5000),
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
