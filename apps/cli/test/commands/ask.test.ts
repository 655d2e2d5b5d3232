import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

describe('trainplan ask', () => {
  it('answers "how many nodes for 175B" in the terminal with the defaults it assumed', async () => {
    const io = fakeIo();
    expect(await main(['ask', 'how many nodes for 175B'], io)).toBe(0);
    const out = io.out();
    expect(out.split('\n')[0]).toMatch(/^GPT-3 175B on H100 .*: \d+ nodes \(\d+ GPUs\) train 300B tokens in [\d.]+ days/);
    for (const part of ['Step time:', 'MFU:', 'Memory per GPU:', '300B training tokens', '30-day deadline', 'http://127.0.0.1:8787/#scenario=']) {
      expect(out).toContain(part);
    }
  });

  it('takes the question unquoted, word by word', async () => {
    const quoted = fakeIo();
    const words = fakeIo();
    await main(['ask', 'all-reduce 1 GB on 64 H100'], quoted);
    await main(['ask', 'all-reduce', '1', 'GB', 'on', '64', 'H100'], words);
    expect(words.out()).toBe(quoted.out());
  });

  it('--json prints the parsed question and the answer', async () => {
    const io = fakeIo();
    expect(await main(['ask', 'memory for 70B with tp 8 pp 4 on A100 80GB', '--json', '--public-url', 'https://plan.example'], io)).toBe(0);
    const json = JSON.parse(io.out()) as { parsed: { intent: string; stated: object }; answer: { widgetUrl: string; figures: { label: string }[] } };
    expect(json.parsed.intent).toBe('memory');
    expect(json.parsed.stated).toEqual({ model: 'llama3-70b', gpu: 'a100-80gb', tensor: 8, pipeline: 4 });
    expect(json.answer.widgetUrl.startsWith('https://plan.example/#scenario=')).toBe(true);
    expect(json.answer.figures.map((f) => f.label)).toContain('Memory per GPU');
  });

  it('an unknown question prints the help with examples and exits 1', async () => {
    const io = fakeIo();
    expect(await main(['ask', 'what is the weather'], io)).toBe(1);
    expect(io.out()).toContain('trainplan ask "how many nodes for 175B"');
  });

  it.each([
    [['--jsn', 'how many nodes for 175B'], 'unknown flag --jsn: did you mean --json?'],
    [['how many nodes for 175B', '--public-url'], '--public-url needs an http(s) URL'],
    [['how many nodes for 175B', '--public-url', '--json'], '--public-url needs an http(s) URL, got the flag --json'],
    [['how many nodes for 175B', '--json=yes'], '--json does not take a value'],
  ])('a flag slip %j is said as every other command says it: %s', async (args, message) => {
    const io = fakeIo();
    expect(await main(['ask', ...args], io)).toBe(2);
    expect(io.err()).toBe(`trainplan: ${message} (usage: trainplan ask "QUESTION" [--json] [--public-url URL])\n`);
  });

  it('a word of an unquoted question that looks like a negative number is a word, not a flag', async () => {
    const quoted = fakeIo();
    const words = fakeIo();
    await main(['ask', 'how many nodes for -5B', '--json'], quoted);
    expect(await main(['ask', 'how', 'many', 'nodes', 'for', '-5B', '--json'], words)).toBe(1);
    expect(words.out()).toBe(quoted.out());
  });

  it('a deadline given as a date is read against today\'s UTC date: the days to it planned, and said', async () => {
    const DAY_MS = 24 * 60 * 60 * 1000;
    const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
    // Forty days on from today's UTC date, as an ISO date; a run across midnight UTC would see 39.
    const before = Date.now();
    const target = utcDay(before + 40 * DAY_MS);
    const io = fakeIo();
    expect(await main(['ask', `how many h100 nodes to train llama 3 8b on 1T tokens by ${target}`, '--json'], io)).toBe(0);
    const days = utcDay(Date.now()) === utcDay(before) ? 40 : 39;
    const { parsed, answer } = JSON.parse(io.out()) as { parsed: { stated: { deadlineSeconds?: number } }; answer: { headline: string; assumptions: string[] } };
    expect(parsed.stated.deadlineSeconds).toBe(days * 24 * 60 * 60);
    expect(answer.headline).toContain(`deadline ${days} days`);
    expect(answer.assumptions.join('\n')).toContain(`"by ${target}" read as `);
    expect(answer.assumptions.join('\n')).toContain(`${days} days from today`);
  });

  it.each([[[]], [['--public-url', 'ftp://x', 'help']], [['--nope', 'x']]])('usage errors exit 2: %j', async (args) => {
    const io = fakeIo();
    expect(await main(['ask', ...args], io)).toBe(2);
    expect(io.err()).toMatch(/^trainplan: .*\(usage: trainplan ask/);
  });
});
