import { describe, expect, it } from 'vitest';
import { inferenceFailureText, retryInference, runInference } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import type { Served } from './support/serving.ts';

const options = { publicUrl: null, today: '2026-11-28' } as const;

/**
 * The bot's fewest GPUs and the CLI's remedy come from one search (the protocol's fewestServingGpus): for the same request they
 * name the same count. The request is the one the bot sends, with the defaults it says among its assumptions (2,048 prompt
 * tokens, 512 generated, continuous batching, 200 ms a token and 2 s to the first unless "offline" or a bound is asked);
 * the CLI's line is what `trainplan inference … --gpus N` prints on stderr (inferenceFailureText).
 */
const request = (model: string, gpu: string, gpus: number, extra: Record<string, unknown> = {}) => ({
  model, cluster: { gpu }, promptTokens: 2048, outputTokens: 512, batching: 'continuous', gpus, maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2, ...extra,
});
const offline = { maxDecodeSecondsPerToken: undefined, maxPrefillSeconds: undefined };

/** The CLI's stderr line for the request. */
function cli(r: Record<string, unknown>): string {
  const a = runInference(r) as Served;
  expect(a.best).toBeUndefined();
  return inferenceFailureText(a, r, { fromFlags: true, unservable: a.unservable }, retryInference(r));
}

/** The count a headline says is the fewest ("12 GPUs are the fewest that serve it"). */
const botCount = (headline: string): number => Number(/: (\d+) GPUs? (?:is|are) the fewest that serves? it/.exec(headline)?.[1]);

describe('"fewest GPUs to serve" names the count the CLI\'s --gpus 1 remedy names', () => {
  it.each<[string, Record<string, unknown>]>([
    ['fewest H100s to serve llama 3.1 405b', request('llama3.1-405b', 'h100-sxm', 1)],
    ['fewest H200s to serve llama 3.1 405b at 50 ms per token', request('llama3.1-405b', 'h200', 1, { maxDecodeSecondsPerToken: 0.05 })],
    ['fewest H100s to serve gpt-3 175b at batch 128', request('gpt3-175b', 'h100-sxm', 1, { batches: [128] })],
    ['fewest H100s to serve llama 3.1 405b offline', request('llama3.1-405b', 'h100-sxm', 1, offline)],
    // Without bounds and at a batch asked: the CLI named the fewest that hold the model at one request (2, which hold no batch
    // of 256; the bot said 5 without the CLI), now the fewest that serve that batch, the bot's count.
    ['fewest H100s to serve llama 3 70b at batch 256 offline', request('llama3-70b', 'h100-sxm', 1, { ...offline, batches: [256] })],
  ])('"%s"', (question, r) => {
    const named = Number(/give --gpus (\d+)(?:,| or)/.exec(cli(r))?.[1]);
    expect(named).toBeGreaterThan(1);
    const a = ask(question, options);
    expect(botCount(a.headline)).toBe(named);
    expect(a.headline).toContain("(the count the CLI's inference names)");
    // That count plans within the request, as `--gpus N` exits 0.
    expect((runInference({ ...r, gpus: named }) as Served).best).toBeDefined();
    expect((runInference({ ...r, gpus: named - 1 }) as Served).best).toBeUndefined();
  });
});

describe('where the GPUs named hold no replica and no count meets the bounds, the bot names what the CLI names', () => {
  // 405B on H200s within 10 ms a token: TP is at most 8, and 812 GB of weights over 8 GPUs at 4.8 TB/s take 21 ms a token.
  const r = request('llama3.1-405b', 'h200', 4, { maxDecodeSecondsPerToken: 0.01 });
  const a = ask('can I serve llama 3.1 405b on 4 H200s at 10 ms per token', options);
  const note = a.notes.find((n) => n.startsWith('Closest that works')) ?? '';

  it('the fewest that hold it, and the nearest plan on its count', () => {
    const text = cli(r);
    const holds = /give at least --gpus (\d+), the fewest that hold it/.exec(text)?.[1];
    const [, on, tp, pp] = /the nearest is on (\d+) GPUs: the closest plan \(TP (\d+), PP (\d+), batch 1\)/.exec(text) ?? [];
    expect(holds).toBeDefined();
    expect(on).toBeDefined();
    // Before, the bot said the smallest power-of-two replica (TP 4 · PP 2 on 8, 65.3 ms a token), which was neither.
    expect(note).toMatch(new RegExp(`^Closest that works: ${on} GPUs \\(TP ${tp} · PP ${pp}\\) hold it, .*; ${holds} GPUs are the fewest that hold it \\(the count the CLI's inference names\\)\\.$`));
    expect(a.configuration).toMatch(new RegExp(`^closest that works, not what was asked: TP ${tp} · PP ${pp} on ${on} GPUs · `));
  });
});

describe('where the CLI\'s remedy names no count, the bot still answers the fewest, without saying the CLI names it', () => {
  it('"fewest A100 80GB GPUs to serve llama 3 8b at batch 512": 3, where --gpus 1 offers fewer requests', () => {
    const r = request('llama3-8b', 'a100-80gb', 1, { batches: [512] });
    expect(cli(r)).toMatch(/ask for batches that fit in memory/);
    const a = ask('fewest A100 80GB GPUs to serve llama 3 8b at batch 512', options);
    // Before, it answered with the plan of most tokens/s per GPU (TP 4 · PP 1, 4 GPUs) and no count.
    const n = botCount(a.headline);
    expect(a.headline).not.toContain('the CLI');
    expect((runInference({ ...r, gpus: n }) as Served).best?.batch).toBe(512);
    for (let k = 1; k < n; k++) expect((runInference({ ...r, gpus: k }) as Served).best, `${k} GPUs`).toBeUndefined();
  });

  it('"fewest H100s to serve llama 3 8b with a 400k token prompt offline": the CLI offers chunked prefill, so no count is its', () => {
    // The bot reads "400k" tokens as 400 × 1,024 = 409,600, and says so in its configuration.
    const r = request('llama3-8b', 'h100-sxm', 1, { ...offline, promptTokens: 409_600 });
    expect(cli(r)).toMatch(/prefill the prompt in chunks/);
    const a = ask('fewest H100s to serve llama 3 8b with a 400k token prompt offline', options);
    expect(a.configuration).toContain('409,600 prompt tokens + 512 output tokens');
    // Before, it said "(the count the CLI's inference names)" of a count the CLI never names here.
    expect(a.headline).toMatch(/: \d+ GPUs are the fewest that serve it: /);
    expect(a.headline).not.toContain('the CLI');
    expect((runInference({ ...r, gpus: botCount(a.headline) }) as Served).best).toBeDefined();
  });
});
