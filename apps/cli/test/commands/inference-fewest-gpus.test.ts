import { runInference } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

// Too few GPUs for the weights: the remedy names the fewest GPUs that serve (any pipeline depth up to 16 that
// divides them, as planInference tries on a count, not only 1, 2, 4 and 8), the fastest replica of that many,
// and the other counts that serve; each claim is checked here by running the command it implies.

async function cli(args: string[]) {
  const io = fakeIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** The remedy clause: stderr from its last "; to serve it". */
const remedy = (err: string): string => err.slice(err.lastIndexOf('; to serve it') + 2);

/** Llama 3.1 405B (126 layers) served with a 2,048-token prompt and 128 output tokens. */
const serving405b = (gpu: string) => ['inference', '--model', 'llama3.1-405b', '--gpu', gpu, '--prompt', '2048', '--output', '128'];

/** The 1-replica shapes that hold it on exactly `gpus` GPUs, each at batch 1, from the protocol (as the API answers). */
function shapesOn(gpu: string, gpus: number, precision?: string) {
  const a = runInference({ model: 'llama3.1-405b', cluster: { gpu }, promptTokens: 2048, outputTokens: 128, gpus, batches: [1], ...(precision && { precision }) });
  if (!a.ok) throw new Error(a.message);
  return a.byShape.flatMap((s) => (s.ok && s.tensor * s.pipeline === gpus ? [s] : []));
}

describe.each([
  // 405B's BF16 weights are 756 GiB (2 bytes × 405.9B parameters): 5 H200s of 140 GiB hold 151 GiB each, too many with
  // the runtime and the heaviest stage's share of 126 layers; 6 hold it (TP 2 · PP 3 or TP 1 · PP 6), which a
  // search without --gpus never tries (PP 1, 2, 4, 8 only), so the old remedy said 8.
  { gpu: 'h200', given: 4, fewest: 6, shapeCount: 2 },
  // On 40 GB A100s: 19 GPUs is the floor on weights alone (756 / 40); 22 (TP 2 · PP 11) is the fewest whose heaviest
  // stage fits, where the old remedy said 32 (TP 4 · PP 8).
  { gpu: 'a100-40gb', given: 16, fewest: 22, shapeCount: 1 },
])('405B on $gpu with --gpus $given', ({ gpu, given, fewest, shapeCount }) => {
  it(`the remedy names --gpus ${fewest}, which serves, and no count below it serves`, async () => {
    const { code, err } = await cli([...serving405b(gpu), '--gpus', String(given)]);
    expect(code).toBe(1);
    expect(remedy(err)).toMatch(new RegExp(`^to serve it, give --gpus ${fewest}, the fewest that serve: a replica of TP \\d+ · PP \\d+ \\(${fewest} GPUs\\) holds it`));
    expect((await cli([...serving405b(gpu), '--gpus', String(fewest)])).code).toBe(0);
    for (let n = given + 1; n < fewest; n++) expect((await cli([...serving405b(gpu), '--gpus', String(n)])).code, `--gpus ${n}`).toBe(1);
  });

  it('the other counts it says serve do, and it says no "multiple of it" where those other counts serve', async () => {
    const { err } = await cli([...serving405b(gpu), '--gpus', String(given)]);
    expect(err).not.toContain('or a multiple of it');
    const listed = /holds it \(([\d, ]+) … serve too/.exec(remedy(err));
    expect(listed, err).not.toBeNull();
    const counts = listed![1]!.split(', ').map(Number);
    expect(counts.length).toBeGreaterThan(0);
    for (const n of counts) {
      expect(n).toBeGreaterThan(fewest);
      expect((await cli([...serving405b(gpu), '--gpus', String(n)])).code, `--gpus ${n}`).toBe(0);
    }
  });

  it('of the replica shapes of that many GPUs, it names the one that decodes a token soonest', async () => {
    const { err } = await cli([...serving405b(gpu), '--gpus', String(given)]);
    const [, t, p] = /a replica of TP (\d+) · PP (\d+)/.exec(remedy(err))!;
    const shapes = shapesOn(gpu, fewest);
    // 6 GPUs: TP 1 · PP 6 and TP 2 · PP 3; 22: TP 2 · PP 11 alone (TP 1 · PP 22 is past 16 stages).
    expect(shapes).toHaveLength(shapeCount);
    const soonest = Math.min(...shapes.map((s) => s.largestBatch.decodeStepSeconds));
    const named = shapes.find((s) => s.tensor === Number(t) && s.pipeline === Number(p))!;
    expect(named.largestBatch.decodeStepSeconds).toBe(soonest);
  });
});

it('FP8 weights on the GPUs given: the replica offered is the fastest of those of as many GPUs (TP 4 · PP 1, not TP 1 · PP 4)', async () => {
  const { err } = await cli([...serving405b('h200'), '--gpus', '4']);
  const [, t, p, n] = /FP8 weights \(--precision fp8\): TP (\d+) · PP (\d+) \((\d+) GPUs\) holds them/.exec(err)!;
  const shapes = shapesOn('h200', Number(n), 'fp8');
  const named = shapes.find((s) => s.tensor === Number(t) && s.pipeline === Number(p))!;
  expect(named.largestBatch.decodeStepSeconds).toBe(Math.min(...shapes.map((s) => s.largestBatch.decodeStepSeconds)));
  // TP splits every layer's weight reads over its GPUs; PP only stacks the layers: TP 4 decodes well over twice as fast.
  const pp4 = shapes.find((s) => s.tensor === 1 && s.pipeline === 4)!;
  expect(pp4.largestBatch.decodeStepSeconds / named.largestBatch.decodeStepSeconds).toBeGreaterThan(2);
  expect((await cli([...serving405b('h200'), '--gpus', '4', '--precision', 'fp8'])).code).toBe(0);
});
