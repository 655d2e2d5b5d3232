import { describe, expect, it } from 'vitest';
import { ask } from '../src/index.ts';

const OPTIONS = { publicUrl: 'https://trainplan.example', today: '2026-11-28' } as const;

/** The token budget in an answer's widget link (its #scenario= JSON), as the widget reads it. */
const linkedTokens = (url: string | undefined): unknown =>
  JSON.parse(decodeURIComponent(/#scenario=([^&]*)/.exec(url ?? '')![1]!)).training.tokens;

describe('the token budget a widget link assumes is said with the answer', () => {
  it('a fit question links Llama 3.1 405B\'s published 15.6T tokens and says so among its assumptions (newcomer QA: unsaid)', () => {
    const a = ask('does llama3.1-405b fit on 16 H200 nodes', OPTIONS);
    expect(linkedTokens(a.widgetUrl)).toBe(15.6e12);
    expect(a.assumptions).toContain('the widget link\'s time to train is for 15.6T training tokens (Llama 3.1 405B\'s published budget)');
  });

  it('said once: a time question that already assumes the budget does not say it again', () => {
    const a = ask('how long to train llama3 70b on 64 h100 nodes', OPTIONS);
    expect(linkedTokens(a.widgetUrl)).toBe(15e12);
    expect(a.assumptions.filter((t) => t.includes('15.0T training tokens'))).toHaveLength(1);
    expect(a.assumptions.some((t) => t.startsWith('the widget link'))).toBe(false);
  });

  it('a budget the question states is linked as given and not listed as assumed', () => {
    const a = ask('does llama3 70b fit on 8 h100 nodes, 2T tokens', OPTIONS);
    expect(linkedTokens(a.widgetUrl)).toBe(2e12);
    expect(a.assumptions.some((t) => t.startsWith('the widget link'))).toBe(false);
  });

  it('no link (no widget served), nothing said of one', () => {
    const a = ask('does llama3.1-405b fit on 16 H200 nodes', { ...OPTIONS, publicUrl: null });
    expect(a.widgetUrl).toBeUndefined();
    expect(a.assumptions.some((t) => t.startsWith('the widget link'))).toBe(false);
  });
});
