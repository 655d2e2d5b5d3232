import { runInference } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

// Too few GPUs for the weights, with latency bounds (and a rate): holding the model is not enough, so the remedy names the
// fewest GPUs whose plan meets the bounds, and every count it names is checked here by running the command it implies.

async function cli(args: string[]) {
  const io = fakeIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** The remedy clause: stderr from its last "; to serve it". */
const remedy = (err: string): string => err.slice(err.lastIndexOf('; to serve it') + 2);

/** Llama 3.1 405B (126 layers, 405.9B parameters) on H200s, a 2,048-token prompt and 512 output tokens. */
const serving = (...more: string[]) => ['inference', '--model', 'llama3.1-405b', '--gpu', 'h200', '--prompt', '2048', '--output', '512', ...more];

/** The CLI's "best under the bounds" line's time per token, in seconds. */
function bestTokenSeconds(out: string): number {
  const m = /^best under the bounds .*?([\d.]+) ms per token/m.exec(out);
  expect(m, out).not.toBeNull();
  return Number(m![1]) / 1000;
}

/**
 * Every count named in the remedy runs as it says: `advised` exits 0 within the bounds, each count from `given` + 1 below it
 * exits 1, and each "serve too" count exits 0.
 */
async function checkAdvice(bounds: string[], given: number, advised: number, maxTokenSeconds: number, between = true) {
  const { code, err } = await cli(serving(...bounds, '--gpus', String(given)));
  expect(code).toBe(1);
  const text = remedy(err);
  expect(text, err).toMatch(new RegExp(`^to serve it, give --gpus ${advised}(,| or)`));
  const ok = await cli(serving(...bounds, '--gpus', String(advised)));
  expect(ok.code, ok.err).toBe(0);
  expect(bestTokenSeconds(ok.out)).toBeLessThanOrEqual(maxTokenSeconds);
  if (between) for (let n = given + 1; n < advised; n++) expect((await cli(serving(...bounds, '--gpus', String(n)))).code, `--gpus ${n}`).toBe(1);
  const also = /\(([\d, ]+) … serve too within them\)/.exec(text);
  for (const n of also === null ? [] : also[1]!.split(', ').map(Number)) {
    expect(n).toBeGreaterThan(advised);
    expect((await cli(serving(...bounds, '--gpus', String(n)))).code, `--gpus ${n}`).toBe(0);
  }
  return text;
}

/** H200 SXM HBM3e bandwidth, 4.8 TB/s (NVIDIA H200 Tensor Core GPU datasheet), in B/s. */
const H200_BYTES_PER_SECOND = 4.8e12;
/** 405B's BF16 weights: 2 bytes × 405.9B parameters (Meta's Llama 3.1 model card), in bytes. */
const WEIGHTS_BYTES = 2 * 405.9e9;
/**
 * A decoded token reads every weight once, split over the TP ranks of a stage, and passes the stages in turn (PP shortens
 * nothing): at best weights / (TP × bandwidth) (the memory-bound floor of decoding, Pope et al. 2022, "Efficiently Scaling
 * Transformer Inference", §3.1).
 */
const tokenFloorSeconds = (tensor: number): number => WEIGHTS_BYTES / (tensor * H200_BYTES_PER_SECOND);

describe('405B on H200s from --gpus 4 with --max-token-ms 50', () => {
  it('the floor: 6 and 7 GPUs run TP 2 at most (a power of two dividing them), whose tokens take at least 84.6 ms; TP 8 may take 21.1 ms', () => {
    expect(tokenFloorSeconds(2) * 1000).toBeCloseTo(84.6, 1);
    expect(tokenFloorSeconds(2)).toBeGreaterThan(0.05);
    expect(tokenFloorSeconds(8)).toBeLessThan(0.05);
  });

  it('names --gpus 8, which meets the bound; 5, 6 and 7 exit 1 (the old remedy named 6, which decodes a token in 125 ms)', async () => {
    const text = await checkAdvice(['--max-token-ms', '50'], 4, 8, 0.05);
    expect(text).toContain('meets them');
    // 6 and 7 hold the weights (they exit 1 on the bound, not on memory), and the remedy says they miss it.
    expect(text).toMatch(/6 and 7 hold it but miss them/);
    for (const n of [6, 7]) expect((await cli(serving('--max-token-ms', '50', '--gpus', String(n)))).err).toContain('no plan meets the latency bounds');
    expect(text).not.toMatch(/serve too: any count that a replica holding it divides/);
  });
});

describe('405B on H200s from --gpus 4 with --max-token-ms 50 and 5 requests/s', () => {
  it('names the fewest GPUs that meet the bound at the rate, and no count between serves', async () => {
    const bounds = ['--max-token-ms', '50', '--rate', '5', '--batching', 'continuous'];
    const { err } = await cli(serving(...bounds, '--gpus', '4'));
    const advised = Number(/^to serve it, give --gpus (\d+)/.exec(remedy(err))![1]);
    // More than the 8 that meet the bound without a rate (8 exits 1 here: checked below with the counts between).
    expect(advised).toBeGreaterThan(8);
    await checkAdvice(bounds, 4, advised, 0.05, false);
    // The ~90 counts between, asked of the protocol as the CLI asks it: the CLI exits 0 exactly when the answer has a best plan.
    const request = { model: 'llama3.1-405b', cluster: { gpu: 'h200' }, promptTokens: 2048, outputTokens: 512, maxDecodeSecondsPerToken: 0.05, requestsPerSecond: 5, batching: 'continuous' };
    const serves = (gpus: number) => { const a = runInference({ ...request, gpus }); return a.ok && a.best !== undefined; };
    expect(serves(advised)).toBe(true);
    for (let n = 5; n < advised; n++) expect(serves(n), `--gpus ${n}`).toBe(false);
    // And a sample of them through the CLI itself.
    for (const n of [6, 8, advised - 1]) expect((await cli(serving(...bounds, '--gpus', String(n)))).code, `--gpus ${n}`).toBe(1);
  });
});

describe('405B on H200s from --gpus 4 with --max-token-ms 10: no count meets it', () => {
  it('names the fewest that hold it (6), says no count tried meets the bound, and the nearest plan with what it needs, which runs', async () => {
    // TP is at most the 8 GPUs of a node, so a token takes at least tokenFloorSeconds(8) = 21.1 ms > 10 ms on any count.
    expect(tokenFloorSeconds(8)).toBeGreaterThan(0.01);
    const { code, err } = await cli(serving('--max-token-ms', '10', '--gpus', '4'));
    expect(code).toBe(1);
    const text = remedy(err);
    expect(text).toMatch(/^to serve it, give at least --gpus 6, the fewest that hold it \(a replica of TP \d+ · PP \d+\); but no count from 6 to \d+ GPUs meets the bounds/);
    expect(text).not.toMatch(/give --gpus \d+(,| or a multiple)/);
    // 5 does not hold it (memory), 6 does (it misses the bound only).
    expect((await cli(serving('--max-token-ms', '10', '--gpus', '5'))).err).toContain('no tensor × pipeline shape tried can serve the model');
    expect((await cli(serving('--max-token-ms', '10', '--gpus', '6'))).err).toContain('no plan meets the latency bounds');
    // The best latency found, no faster than the floor, and the loosened bound on its count gives a plan.
    const [, ms] = /the nearest is on \d+ GPUs: the closest plan \(TP \d+, PP \d+, batch \d+\) decodes a token in ([\d.]+) ms against the 10\.0 ms bound/.exec(text)!;
    expect(Number(ms) / 1000).toBeGreaterThanOrEqual(tokenFloorSeconds(8));
    const [, gpus, bound] = /\(--gpus (\d+) and --max-token-ms ([\d.]+) give a plan\)/.exec(text)!;
    expect((await cli(serving('--max-token-ms', bound!, '--gpus', gpus!))).code).toBe(0);
  });
});
