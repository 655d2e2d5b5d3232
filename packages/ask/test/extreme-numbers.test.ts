import { describe, expect, it } from 'vitest';
import { ask, type Answer } from '../src/index.ts';

const N400 = '9'.repeat(400);

/** What an answer says to the asker: its headline, configuration, figures, assumptions, notes and examples (not the question echoed). */
const saidIn = (a: Answer): string =>
  [a.headline, a.configuration ?? '', ...a.figures.flatMap((f) => [f.label, f.value]), ...a.assumptions, ...a.notes, ...a.examples].join('\n');

describe('extreme numbers in any field: no answer says Infinity, NaN or ∞', () => {
  // QA: 400 nines of H100s were answered "Infinity GPUs do not fill whole nodes … ask for ∞ (Infinity nodes)".
  it.each([
    `how long to train gpt3-175b on ${N400} H100s`,
    `how long to train gpt3-175b on ${N400} nodes`,
    `how long to train gpt3-175b on ${N400}k GPUs`,
    `how much memory to train llama3-8b on ${N400} h100`,
    `how many tokens per second for llama3-8b on ${N400} h100`,
    `all-reduce 1GB on ${N400} h100`,
    `serve llama3-70b on ${N400} h100`,
    `how long to train gpt3-175b on 64 H100s in ${N400} days`,
    `how many H100s to train llama3-70b in ${N400} days`,
    `how long to train gpt3-175b on 64 H100s on ${N400} tokens`,
    `how long to train llama3-8b with ${N400} GPU-hours`,
    `what is the cheapest way to train llama3-8b for $${N400}`,
    `how long to train llama3-8b on 64 h100 at $${N400}/GPU-hour`,
    `how long to train a ${N400}B model on 64 h100`,
    `how long to train llama3-8b on 64 h100 with tp ${N400}`,
    `how long to train llama3-8b on 64 h100 with global batch ${N400}`,
    `how long to train llama3-8b on 64 h100 with seq len ${N400}`,
    `serve llama3-70b at ${N400} requests per second`,
    `all-reduce ${N400} bytes on 64 h100`,
    'how long to train gpt3-175b on 1e308 H100s',
    'how long to train gpt3-175b on 1e400 H100s',
    'how long to train gpt3-175b on 64 H100s in 1e400 days',
    'how long to train gpt3-175b on 64 H100s in 1e-400 days',
    'how long to train gpt3-175b on NaN H100s',
    'how long to train gpt3-175b on Infinity H100s',
    'how long to train gpt3-175b on 64 H100s in NaN days',
  ])('%s', (question) => {
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(false);
    expect(saidIn(a)).not.toMatch(/Infinity|NaN|∞/);
  });
});
