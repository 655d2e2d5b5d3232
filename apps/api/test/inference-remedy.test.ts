import { inferenceRemedyText, type InferenceRemedyJson, type InferenceResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/index.ts';

const app = createApi();
type Served = Extract<InferenceResponseJson, { ok: true }>;
const post = async (body: unknown): Promise<Served> => {
  const res = await app.request('/v1/inference', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  expect(res.status).toBe(200);
  return await res.json() as Served;
};

// QA: the API answered only why there was no plan, where the CLI said what to change too. The remedy is now the answer's
// (the protocol's runInferenceWithRemedy), the same for both; the CLI writes its fields as flags.
describe('POST /v1/inference answers what to change where there is no plan (remedy), as the CLI says it', () => {
  it('Llama 3.1 405B on 8 A100s of 40 GB: give gpus 22, a replica of TP 2 · PP 11, which then serves', async () => {
    // By hand: 405B in BF16 is 754 GiB of weights. A replica of 20 (TP 2 · PP 10, TP 4 · PP 5) holds 37.7 GiB of them a
    // GPU, with the runtime's 2 GiB past the 39.6 GiB an A100 40 GB has; 21 splits neither the 128 heads (TP 3, 7) nor
    // within 16 stages; 22 as TP 2 · PP 11 holds 34.3 GiB a GPU.
    const request = { model: 'llama3.1-405b', cluster: { gpu: 'a100-40gb' }, promptTokens: 2048, outputTokens: 512, gpus: 8 };
    const a = await post(request);
    expect(a.best).toBeUndefined();
    expect(a.unservable).toMatch(/^no tensor × pipeline shape tried can serve the model/);
    const remedy = a.remedy!;
    expect(remedy.message).toMatch(/^to serve it, give gpus 22, the fewest that serve: a replica of TP 2 · PP 11 \(22 GPUs\) holds it/);
    expect(remedy.fields).toEqual([{ field: 'gpus', value: 22 }]);
    // The CLI's words for a request from its flags.
    expect(inferenceRemedyText(remedy, true)).toMatch(/^to serve it, give --gpus 22, the fewest that serve/);
    const again = await post({ ...request, gpus: 22 });
    expect(again.best).toBeDefined();
    expect(again.remedy).toBeUndefined();
  });

  it('a per-token bound no plan meets: the bound the closest plan needs, which then gives a plan, in seconds here and in ms as a flag', async () => {
    const request = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, maxDecodeSecondsPerToken: 0.005 };
    const a = await post(request);
    expect(a.closest).toBeDefined();
    const remedy: InferenceRemedyJson = a.remedy!;
    const bound = remedy.fields.find((f) => f.field === 'maxDecodeSecondsPerToken')!.value as number;
    // The closest plan's time per token rounded up to three figures, so that it meets the bound.
    expect(bound).toBeGreaterThanOrEqual(a.closest!.point.decodeStepSeconds);
    expect(bound).toBeLessThan(a.closest!.point.decodeStepSeconds * 1.01);
    expect(remedy.message).toContain(`give what the closest plan needs (maxDecodeSecondsPerToken ${bound})`);
    expect(inferenceRemedyText(remedy, true)).toContain(`give what the closest plan needs (--max-token-ms ${Number((bound * 1000).toPrecision(3))})`);
    expect((await post({ ...request, maxDecodeSecondsPerToken: bound })).best!.decodeStepSeconds).toBeLessThanOrEqual(bound);
  });

  // QA: with a rate and no maxPrefillSeconds the plan holds the first token to the default 2 s; the closest plan missed it by
  // 170 times (1M-token prompts) and the remedy said only "try FP8 weights or a faster GPU", which close no such gap.
  describe('a rate whose closest plan misses the default first-token bound (Llama 3 70B, 1M-token prompts, no maxPrefillSeconds)', () => {
    const request = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 1048576, outputTokens: 1, batching: 'continuous' };
    const firstTokenBound = (remedy: InferenceRemedyJson): number => remedy.fields.find((f) => f.field === 'maxPrefillSeconds')!.value as number;

    it('at 1 request/s: the bound the closest plan needs, named as taking the default\'s place, which then serves', async () => {
      const a = await post({ ...request, requestsPerSecond: 1 });
      expect(a.closest!.why).toContain('against the 2.00 s bound');
      const bound = firstTokenBound(a.remedy!);
      // The closest plan's first token (no wait: 5.80 min) rounded up to three figures.
      expect(bound).toBeGreaterThanOrEqual(a.closest!.point.prefillSeconds);
      expect(bound).toBeLessThan(a.closest!.point.prefillSeconds * 1.01);
      expect(a.remedy!.message).toContain(`give what the closest plan needs (maxPrefillSeconds ${bound}: the default first-token bound, 2 s, is missed)`);
      expect(inferenceRemedyText(a.remedy!, true)).toContain(`(--max-ttft-s ${bound}: the default first-token bound, 2 s, is missed)`);
      expect((await post({ ...request, requestsPerSecond: 1, maxPrefillSeconds: bound })).best).toBeDefined();
    });

    it('at 10^6 requests/s, where the closest plan\'s own first token serves none (the wait for a slot counts): the bound asked again that serves', async () => {
      const a = await post({ ...request, requestsPerSecond: 1e6 });
      const bound = firstTokenBound(a.remedy!);
      expect(a.remedy!.message).toMatch(/^to get a plan, give maxPrefillSeconds [\d.]+, within which the rate is served, the wait for a slot included \(the default first-token bound, 2 s, is missed\), or try /);
      expect((await post({ ...request, requestsPerSecond: 1e6, maxPrefillSeconds: Math.ceil(a.closest!.point.prefillSeconds) })).best).toBeUndefined();
      expect((await post({ ...request, requestsPerSecond: 1e6, maxPrefillSeconds: bound })).best).toBeDefined();
      // An explicit bound the closest plan misses is loosened the same way, without the default named.
      const explicit = await post({ ...request, requestsPerSecond: 1e6, maxPrefillSeconds: 1e-9 });
      expect(firstTokenBound(explicit.remedy!)).toBe(bound);
      expect(explicit.remedy!.message).not.toContain('default');
    });
  });

  it('a plan: no remedy', async () => {
    expect((await post({ model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512 })).remedy).toBeUndefined();
  });
});
