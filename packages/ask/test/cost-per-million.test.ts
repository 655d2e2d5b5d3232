import { describe, expect, it } from 'vitest';
import { runInference, type InferenceResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

type InferenceOk = Extract<InferenceResponseJson, { ok: true }>;
const OPTIONS = { publicUrl: null, today: '2026-11-28' } as const;

/**
 * "Cost per 1M output tokens", "cost per million tokens": the unit a serving cost is quoted in. QA found the first read as
 * each request's output length (1,048,576 tokens, and $17.7 per million answered) and the second planned as a training run
 * on a default 128 nodes, with nothing said.
 */
describe('"cost per million tokens" is serving\'s price per million output tokens, at the default lengths', () => {
  it.each([
    'cost per 1M output tokens for llama3 8b on h100 at $2/hr, offline batch',
    'cost per million tokens for llama3 8b on h100 at $2/hr, offline',
  ])('"%s" is the price per million output tokens the CLI gives for the same request', (question) => {
    const q = parse(question, OPTIONS);
    expect(q.intent).toBe('serving');
    expect(q.stated.outputTokens).toBeUndefined();
    expect(q.stated.tokens).toBeUndefined();
    const a = ask(question, OPTIONS);
    const data = a.data as InferenceOk;
    // The default lengths, as `trainplan inference --model llama3-8b --gpu h100-sxm --prompt 2048 --output 512 --batching
    // continuous --price 2` plans them (the protocol's runInference, which the CLI sends): the same best plan.
    expect(data.promptTokens).toBe(2048);
    expect(data.outputTokens).toBe(512);
    const cli = runInference({ model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous', pricePerGpuHour: 2 }) as InferenceOk;
    expect(data.best?.tokensPerSecondPerGpu).toBe(cli.best?.tokensPerSecondPerGpu);
    // By hand: $2 per GPU-hour over (tokens/s per GPU × 3,600 s) tokens an hour, times a million (about a dime), said to
    // three figures.
    const perMillion = (2 / ((data.best?.tokensPerSecondPerGpu ?? 0) * 3600)) * 1e6;
    expect(perMillion).toBeGreaterThan(0.05);
    expect(perMillion).toBeLessThan(0.2);
    expect(a.headline).toContain(`$${perMillion.toPrecision(3)} per million output tokens`);
    expect(a.notes.join(' ')).not.toMatch(/longer than .* sequence length/);
  });

  it('which reading was taken is said: serving, and per million output tokens where "tokens" alone was written', () => {
    const a = ask('cost per million tokens for llama3 8b on h100 at $2/hr, offline', OPTIONS);
    expect(a.assumptions).toContain('read as serving (inference), from "per million tokens" with no training word; say "train" (e.g. "training throughput of …") for training');
    expect(a.assumptions).toContain('"per million tokens" read as per million output tokens, the serving cost given (the GPUs\' time over the tokens they generate, the prompts\' prefill included)');
    const output = ask('cost per 1M output tokens for llama3 8b on h100 at $2/hr, offline batch', OPTIONS);
    expect(output.assumptions.some((x) => x.includes('read as per million output tokens'))).toBe(false);
  });

  it('asked of training, "per million tokens" is said not read, never a budget of a million tokens', () => {
    const q = parse('what is the training cost per million tokens for llama3 8b on 64 h100 at $2/hr', OPTIONS);
    expect(q.intent).toBe('time');
    expect(q.stated.tokens).toBeUndefined();
    expect(q.notRead?.map((n) => n.phrase)).toEqual(['"per million tokens"']);
  });
});

/**
 * The unit written other ways: "what does a million output tokens cost", "per 1k", "per 1B". QA found the first read as a
 * 1,000,000-token output ($55.1 answered), "1k" as a 1,024-token output and "1B" as a 1B model. The expected cost is the
 * CLI's: `trainplan inference --model llama3-70b --gpu h100-sxm --prompt 2048 --output 512 --batching continuous
 * --max-token-ms 200 --max-ttft-s 2 --price 2` gives 0.954 per million generated tokens (TP 2 · PP 8, 582 tokens/s/GPU).
 */
describe('a cost per thousand, million or billion output tokens, however written', () => {
  const AT = 'for llama3 70b on h100 at $2/hr';

  it('"what does a million output tokens cost" is the price per million output tokens at the default lengths', () => {
    const question = `what does a million output tokens cost ${AT}`;
    const q = parse(question, OPTIONS);
    expect(q.intent).toBe('serving');
    expect(q.stated.outputTokens).toBeUndefined();
    const a = ask(question, OPTIONS);
    const data = a.data as InferenceOk;
    expect(data.outputTokens).toBe(512);
    // By hand: $2 per GPU-hour over the plan's tokens/s per GPU × 3,600 s, times a million (583 tokens/s: 2 / 2,098,800 ×
    // 1e6 = $0.953), said to three figures.
    const perMillion = (2 / ((data.best?.tokensPerSecondPerGpu ?? 0) * 3600)) * 1e6;
    expect(perMillion).toBeGreaterThan(0.5);
    expect(perMillion).toBeLessThan(2);
    expect(a.headline).toContain(`, $${perMillion.toFixed(3)} per million output tokens`);
    // "generate 1M output tokens" (no cost asked around it) is still a length.
    expect(parse('serve llama3 8b on h100, generate 1M output tokens', OPTIONS).stated.outputTokens).toBe(1_048_576);
  });

  /** The price per million output tokens the plain question answers, to three figures ("0.953"). */
  const perMillionSaid = (): string => /\$(\d\.\d{3}) per million output tokens/.exec(ask(`what does a million output tokens cost ${AT}`, OPTIONS).headline)![1]!;

  it.each([
    // Per thousand: the million's figure / 1,000; per billion: × 1,000.
    // (The million's price is under a dollar here, "0.953": its three decimals are the thousand's last three and the billion's
    // whole dollars.)
    [`cost per 1k output tokens ${AT}`, (m: string) => `$0.000${m.slice(2)} per thousand output tokens ($${m} per million)`],
    [`cost per 1B output tokens ${AT}`, (m: string) => `$${Number(m.slice(2))} per billion output tokens ($${m} per million)`],
  ])('"%s" answers the million\'s price per thousand or per billion, at the default 512-token output', (question, saidOf) => {
    const million = perMillionSaid();
    expect(million).toMatch(/^0\.[1-9]/);
    const said = saidOf(million);
    const q = parse(question, OPTIONS);
    expect(q.intent).toBe('serving');
    expect(q.stated.outputTokens).toBeUndefined();
    expect(q.stated.model).toBe('llama3-70b');
    expect(q.notRead).toEqual([]);
    const a = ask(question, OPTIONS);
    expect((a.data as InferenceOk).outputTokens).toBe(512);
    expect(a.headline).toContain(said);
  });

  it('"price per million input tokens" is said not answered, never given the output price as input\'s', () => {
    const question = 'price per million input tokens for llama3 8b on h100 at $2/hr';
    const q = parse(question, OPTIONS);
    expect(q.notRead).toEqual([{
      phrase: '"per million input tokens"', heading: 'Not answered',
      why: 'a price per input token is not computed: the serving cost is per million output tokens, the GPUs\' time over the tokens they generate with the prompts\' prefill in it, and the model gives no prefill throughput apart to price prompt tokens alone',
    }]);
    const a = ask(question, OPTIONS);
    expect(a.assumptions.some((x) => x.includes('read as per million output tokens'))).toBe(false);
    expect(a.notes[0]).toMatch(/^Not answered: "per million input tokens" \(a price per input token is not computed/);
  });
});
