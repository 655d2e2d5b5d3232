import { formatGrouped, formatLoad, formatSeconds } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { runInferenceWithRemedy, validateInferenceResponse } from '../../src/index.ts';
import { ceilFigures } from '../../src/search/ceil-figures.ts';
import { served, type InferenceOk } from '../support/inference.ts';

// QA (High): "--model llama3.1-405b --gpu h100-sxm --prompt 8k --output 512 --rate 50 --max-ttft-s 2 --batching continuous" answered
// 1,339,150 replicas (21,426,400 GPUs), 0% loaded: the prefill alone took 1.99 s of the 2 s, leaving the wait for a slot ~10 ms.
const QA = {
  model: 'llama3.1-405b', cluster: { gpu: 'h100-sxm' }, promptTokens: 8192, outputTokens: 512, batching: 'continuous', requestsPerSecond: 50, maxPrefillSeconds: 2,
};
/** The QA request held within one NVLink domain (TP ≤ 8, as every answer was before): no degree across nodes is tried. */
const WITHIN_NODE = { ...QA, tensor: [1, 2, 4, 8] };

const withRemedy = (body: object): InferenceOk => {
  const a = runInferenceWithRemedy(body);
  if (!a.ok) throw new Error(a.message);
  return a;
};

describe('an idle fleet on the wire (405B at 50 requests/s of 8K prompts within 2 s, TP ≤ 8)', () => {
  const a = served(WITHIN_NODE);
  const idle = a.idleFleet!;

  it('the best plan stays (it meets the bounds), its fleet said idle first among the warnings, with the prefill\'s share of the bound', () => {
    const best = a.best!;
    expect(best.load!.utilization).toBeLessThan(idle.loadFloor);
    expect(idle).toMatchObject({ maxPrefillSeconds: 2, prefillSeconds: best.prefillSeconds, loadFloor: 0.5 });
    expect(idle.waitBudgetSeconds).toBeCloseTo(2 - best.prefillSeconds, 12);
    expect(a.warnings![0]).toBe(idle.why);
    expect(idle.why).toContain(`the first-token bound binds: the prefill alone takes ${formatSeconds(best.prefillSeconds)} of its 2.00 s `
      + `(TP ${best.tensor} · PP ${best.pipeline} · batch ${best.batch}), leaving ${formatSeconds(idle.waitBudgetSeconds)} to wait for a slot, `
      + `which a request holds for ${formatSeconds(idle.slotSeconds)}`);
    expect(idle.why).toContain(`the best keeps ${formatGrouped(best.load!.replicas)} replicas (${formatGrouped(best.load!.gpus)} GPUs) ${formatLoad(best.load!.utilization)} loaded`);
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
  });

  it('the bound loosened is the soonest first token at half load rounded up, and asked again with it the plan is that one, not idle', () => {
    const { loosened, atLoadFloor } = idle;
    expect(atLoadFloor.firstTokenSeconds).toBeGreaterThan(2);
    expect(loosened.maxPrefillSeconds).toBe(ceilFigures(atLoadFloor.firstTokenSeconds));
    // The point at half load: its replicas each at least half busy (tokens/s on its GPUs over 512 a request, against the rate).
    const p = atLoadFloor.point;
    expect(atLoadFloor.gpus).toBe(atLoadFloor.replicas * p.gpus);
    expect(50 / (atLoadFloor.replicas * ((p.tokensPerSecondPerGpu * p.gpus) / 512))).toBeGreaterThanOrEqual(0.5);
    const again = served({ ...WITHIN_NODE, maxPrefillSeconds: loosened.maxPrefillSeconds });
    expect(again.idleFleet).toBeUndefined();
    expect(loosened.best).toEqual(again.best);
    expect(again.best!.load!.firstTokenSeconds).toBeLessThanOrEqual(loosened.maxPrefillSeconds);
    // Far fewer GPUs than the idle fleet's.
    expect(again.best!.load!.gpus).toBeLessThan(a.best!.load!.gpus / 100);
    expect(idle.why).toContain(`a first-token bound of ${formatSeconds(loosened.maxPrefillSeconds)} serves the rate on ${formatGrouped(again.best!.load!.gpus)} GPUs at the fewest`);
  });

  it('with its remedy: the bound loosened, and FP8 weights, whose plan meets the bounds as given at a real load, each checked by asking again', () => {
    const r = withRemedy(WITHIN_NODE).idleFleet!.remedy!;
    const fp8 = served({ ...WITHIN_NODE, precision: 'fp8' });
    expect(fp8.idleFleet).toBeUndefined();
    expect(fp8.best!.load!.utilization).toBeGreaterThanOrEqual(0.5);
    expect(r.fields).toEqual([
      { field: 'maxPrefillSeconds', value: idle.loosened.maxPrefillSeconds }, { field: 'precision', value: 'fp8' },
      { field: 'sharedPrefixTokens' }, { field: 'promptTokens' }, { field: 'cluster.gpu' },
    ]);
    expect(r.message).toBe(`to serve 50 requests/s at a real load, give maxPrefillSeconds ${idle.loosened.maxPrefillSeconds} `
      + `(${formatGrouped(idle.loosened.best!.load!.gpus)} GPUs, ${formatLoad(idle.loosened.best!.load!.utilization)} loaded), or try FP8 weights `
      + `(precision "fp8", which meets the bounds as given on ${formatGrouped(fp8.best!.load!.gpus)} GPUs, ${formatLoad(fp8.best!.load!.utilization)} loaded), `
      + 'fewer prompt tokens to prefill (a shared prefix cached, sharedPrefixTokens, or a shorter prompt, promptTokens) or a faster GPU (cluster.gpu)');
  });
});

describe('the QA request as asked: TP 16 across two nodes serves it at a real load', () => {
  it('the best is TP 16, at least half loaded within 2 s, no idle fleet, and a warning says why it spans nodes', () => {
    const a = served(QA);
    expect(a.best!.tensor).toBe(16);
    expect(a.best!.load!.utilization).toBeGreaterThanOrEqual(0.5);
    expect(a.best!.load!.firstTokenSeconds).toBeLessThanOrEqual(2);
    expect(a.idleFleet).toBeUndefined();
    expect(a.warnings).toContainEqual(expect.stringMatching(/^within one NVLink domain \(TP ≤ 8\) the first-token bound binds: /));
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
  });
});

describe('ordinary requests at a rate carry no idle fleet', () => {
  it.each([
    [{ model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous', requestsPerSecond: 20, maxPrefillSeconds: 2 }],
    [{ model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 256, batching: 'continuous', requestsPerSecond: 0.001, maxDecodeSecondsPerToken: 0.05 }],
  ])('%j', (request) => {
    const a = withRemedy(request);
    expect(a.best).toBeDefined();
    expect(a.idleFleet).toBeUndefined();
    expect(a.warnings!.some((w) => w.includes('first-token bound binds'))).toBe(false);
    expect([...a.frontier, a.best!].every((p) => p.tensor <= 8)).toBe(true);
  });
});
