import { runInference, validateInferenceResponse } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

// An --input request (or POST /v1/inference: the same runInference) whose batches are all too large to fit: said as
// memory, with the largest that fits, never as latency bounds it did not set, nor with batch 1 shown as its largest.

const request = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 100, outputTokens: 10, tensor: [8] };

async function fromInput(body: unknown, json = false) {
  const io = fakeIo({ stdin: JSON.stringify(body) });
  const code = await main(['inference', '--input', '-', ...(json ? ['--json'] : [])], io);
  return { code, out: io.out(), err: io.err() };
}

/** Each shape's largest batch, as the same request without `batches` answers it. */
function largestBatches(): Map<string, number> {
  const a = runInference(request);
  if (!a.ok) throw new Error(a.message);
  return new Map(a.byShape.flatMap((s) => (s.ok ? [[`${s.tensor}·${s.pipeline}`, s.largestBatch.maxBatch] as const] : [])));
}

describe('batches [100000] for Llama 3 70B on TP 8 H100s', () => {
  it('the API answer refuses every shape out of memory, naming the batch and the largest that fits; no best, no frontier', () => {
    const most = largestBatches();
    const a = runInference({ ...request, batches: [100_000] });
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
    if (!a.ok) return;
    expect(a.best).toBeUndefined();
    expect(a.frontier).toEqual([]);
    expect(a.byShape.length).toBe(most.size);
    for (const s of a.byShape) {
      expect(s.ok).toBe(false);
      if (s.ok) continue;
      expect(s.reason).toBe('out-of-memory');
      const fits = most.get(`${s.tensor}·${s.pipeline}`)!;
      expect(fits).toBeLessThan(100_000);
      expect(s.message).toMatch(new RegExp(`^batch 100,000 does not fit \\(the largest that fits is ${fits.toLocaleString('en-US')}\\): needs `));
    }
    expect(a.unservable).toMatch(/^no tensor × pipeline shape tried can serve the model .*: batch 100,000 does not fit/);
  });

  it('the report blames no latency bound and shows no batch the request did not ask for; stderr says the batch that fits', async () => {
    const { code, out, err } = await fromInput({ ...request, batches: [100_000] });
    expect(code).toBe(1);
    expect(out + err).not.toContain('latency bounds');
    // No table row shows a batch (every one is refused: dashes), least of all the probe's batch of 1.
    expect(out).not.toMatch(/^ +8 +\d+ +1 /m);
    const fits = largestBatches();
    expect(out).toContain(`batch 100,000 does not fit (the largest that fits is ${fits.get('8·1')!.toLocaleString('en-US')})`);
    const most = Math.max(...fits.values());
    expect(err).toMatch(new RegExp(`; to serve it, ask for batches that fit in memory \\(batches\\): at most ${most.toLocaleString('en-US')}, on TP 8 · PP \\d+ \\(\\d+ GPUs\\)`));
    // …which then serves.
    expect((await fromInput({ ...request, batches: [most] })).code).toBe(0);
  });

  it('some batches fit: those are served, and a warning names the ones left out', async () => {
    const { code, out } = await fromInput({ ...request, pipeline: [1], batches: [100_000, 64] });
    expect(code).toBe(0);
    const fits = largestBatches().get('8·1')!.toLocaleString('en-US');
    expect(out).toContain(`⚠ batches asked for that do not fit in memory were left out: 100,000 on TP 8 · PP 1 (at most ${fits} fit)`);
    expect(out).toMatch(/^highest throughput \(no latency bound given\): TP 8 · PP 1 · batch 64 /m);
  });
});
