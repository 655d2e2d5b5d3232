import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { fakeIo } from './support/fake-io.ts';

/**
 * The README's quick tour shows plain questions as `npx trainplan ask "…"` lines, each with what it answers after a
 * `#`. A reader copies them: each must run, exit 0 and answer (not ask for help), and what its comment promises must be
 * there ("No: by how much" is a "No:" headline).
 */
const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const questions = [...readme.matchAll(/^npx trainplan ask "((?:[^"\\]|\\.)*)"(?:\s+#\s*(.*))?$/gm)]
  .map((m) => ({ text: m[1]!.replace(/\\\$/g, '$'), comment: m[2] ?? '' }));

describe('the README\'s ask examples', () => {
  it('are there (the tour shows at least five)', () => expect(questions.length).toBeGreaterThanOrEqual(5));

  it.each(questions)('"$text" answers, exit 0', async ({ text, comment }) => {
    const io = fakeIo();
    expect(await main(['ask', text], io)).toBe(0);
    const headline = io.out().split('\n')[0]!;
    expect(headline).not.toMatch(/^I didn't understand/);
    if (/^No:/.test(comment)) expect(headline.startsWith('No: ')).toBe(true);
  });
});
