import { CONTRACT_EXAMPLE, runEstimate, validateEstimate, type EstimateOk, type ScenarioInput } from '@trainplan/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiBackend, ESTIMATE_TIMEOUT_MS, failureOf, SEARCH_TIMEOUT_MS } from '../src/compute/backend.ts';

const API = 'https://api.test';
const SCENARIO = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 } } as ScenarioInput;

/** A fetch answering every request with `response` (a fresh copy each time), recording the requests it got. */
const answering = (response: () => Response) => {
  const calls: RequestInit[] = [];
  const impl = (async (_url: string, init: RequestInit) => {
    calls.push(init);
    return response();
  }) as unknown as typeof fetch;
  return { impl, calls };
};

/** A fetch that never answers, as a hung API: it rejects only when its request is aborted, as fetch does. */
const hung = (() => {
  const impl = ((_url: string, init: RequestInit) => new Promise((_resolve, reject) => {
    init.signal!.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')));
  })) as unknown as typeof fetch;
  return impl;
})();

/** What the widget would say of the failure `promise` rejects with. */
const said = (promise: Promise<unknown>) => promise.then(() => 'answered', failureOf);

afterEach(() => {
  vi.useRealTimers();
});

describe('the API backend times out an API that never answers', () => {
  it(`an estimate gives up after ${ESTIMATE_TIMEOUT_MS / 1000} s and says the API did not answer`, async () => {
    vi.useFakeTimers();
    const outcome = said(apiBackend(API, hung).estimate([SCENARIO]));
    let settled = false;
    void outcome.then(() => { settled = true; });
    await vi.advanceTimersByTimeAsync(ESTIMATE_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe(`Could not reach the API at ${API}/v1/estimate: no answer in 20 s`);
  });

  it(`a search, "how many nodes" or serving request waits longer (${SEARCH_TIMEOUT_MS / 1000} s): it searches`, async () => {
    vi.useFakeTimers();
    const backend = apiBackend(API, hung);
    const outcomes = [said(backend.search({})), said(backend.nodes({})), said(backend.inference({}))];
    const settled = outcomes.map(() => false);
    outcomes.forEach((o, i) => void o.then(() => { settled[i] = true; }));
    await vi.advanceTimersByTimeAsync(ESTIMATE_TIMEOUT_MS);
    expect(settled).toEqual([false, false, false]);
    await vi.advanceTimersByTimeAsync(SEARCH_TIMEOUT_MS - ESTIMATE_TIMEOUT_MS);
    expect(await Promise.all(outcomes)).toEqual(['search', 'nodes', 'inference'].map((op) => `Could not reach the API at ${API}/v1/${op}: no answer in 30 s`));
    // The serving element's request (/v1/inference) is no estimate: the message names the API, not "the estimator" (QA).
    for (const text of await Promise.all(outcomes)) expect(text).not.toContain('estimator');
    // The estimate's limit is shorter than a search's: a batch of closed-form estimates is milliseconds of work.
    expect(ESTIMATE_TIMEOUT_MS).toBeLessThan(SEARCH_TIMEOUT_MS);
  });

  it('an API that cannot be reached at all says so, with the browser\'s reason', async () => {
    const refused = (async () => { throw new TypeError('Failed to fetch'); }) as unknown as typeof fetch;
    expect(await said(apiBackend(API, refused).estimate([SCENARIO]))).toBe(`Could not reach the API at ${API}/v1/estimate: no answer (Failed to fetch)`);
  });

  it('an answer in time clears its timer: nothing is aborted later', async () => {
    vi.useFakeTimers();
    const { impl, calls } = answering(() => Response.json([{ ok: false, reason: 'invalid', message: 'x' }]));
    await apiBackend(API, impl).estimate([SCENARIO]);
    expect(vi.getTimerCount()).toBe(0);
    expect(calls[0]!.signal!.aborted).toBe(false);
  });
});

describe('the API backend tells an HTTP error and a page that is not JSON from an API it cannot reach', () => {
  it.each([
    ['a 500 in plain text', () => new Response('Internal Server Error', { status: 500, headers: { 'content-type': 'text/plain' } }), `The API at ${API}/v1/estimate answered 500`],
    ['a 502 HTML page from a proxy', () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }), `The API at ${API}/v1/estimate answered 502`],
    ['a proxy\'s HTML login page with 200', () => new Response('<html>proxy login</html>', { status: 200, headers: { 'content-type': 'text/html' } }), `The API at ${API}/v1/estimate answered something that is not trainplan's JSON`],
    ['JSON that does not parse', () => new Response('{"ok":', { status: 200, headers: { 'content-type': 'application/json' } }), `The API at ${API}/v1/estimate answered something that is not trainplan's JSON`],
    ['JSON of another shape (an object, not one answer per scenario)', () => Response.json({ hello: 'world' }), `The API at ${API}/v1/estimate answered something that is not trainplan's JSON`],
    ['a 422 problem, with its detail', () => Response.json({ title: 'Over budget', detail: 'too many sizes' }, { status: 422, headers: { 'content-type': 'application/problem+json' } }), `The API at ${API}/v1/estimate answered 422 (too many sizes)`],
  ])('%s', async (_what, response, message) => {
    const text = await said(apiBackend(API, answering(response).impl).estimate([SCENARIO]));
    expect(text).toBe(message);
    // Never the JSON parser's words, and never "could not reach" for an API that did answer.
    expect(text).not.toMatch(/Unexpected token|is not valid JSON|Could not reach/);
  });

  it('a search answered with a 500 HTML page says the status, not a JSON parse error', async () => {
    const html = () => new Response('<!doctype html><title>500</title>', { status: 500, headers: { 'content-type': 'text/html; charset=utf-8' } });
    expect(await said(apiBackend(`${API}/`, answering(html).impl).search({}))).toBe(`The API at ${API}/v1/search answered 500`);
  });

  it('a 400 problem is the invalid answer for every scenario, its paths without the array index', async () => {
    const problem = () => Response.json(
      { detail: 'invalid scenario', issues: [{ path: '[0].parallelism.tensor', message: 'must be at most 64000' }] },
      { status: 400, headers: { 'content-type': 'application/problem+json' } },
    );
    const answers = await apiBackend(API, answering(problem).impl).estimate([SCENARIO, SCENARIO]);
    expect(answers).toEqual([0, 1].map(() => ({ ok: false, reason: 'invalid', message: 'invalid scenario', issues: [{ path: 'parallelism.tensor', message: 'must be at most 64000' }] })));
  });

  it('an error thrown in the page (not by the API) is said as something that went wrong', () => {
    expect(failureOf(new TypeError('x is undefined'))).toBe('Something went wrong: x is undefined');
  });
});

describe('an API that answers the contract\'s fields without trainplan\'s extensions', () => {
  // trainplan's own answer, and the same with only the contract's fields (scenario-contract.md's output: the contract's
  // minimum, which validateEstimate takes) or with one extension the widget draws from left out.
  const ours = runEstimate(CONTRACT_EXAMPLE) as EstimateOk;
  const { ok, stepTimeSeconds, tokensPerSecond, modelTflopsPerGpu, hardwareTflopsPerGpu, mfu, hfu, memory } = ours;
  const { computeSeconds, tensorParallelCommSeconds, pipelineBubbleSeconds, pipelineCommSeconds, dataParallelCommSeconds, optimizerSeconds } = ours.breakdown;
  const contractOnly = {
    ok, stepTimeSeconds, tokensPerSecond, modelTflopsPerGpu, hardwareTflopsPerGpu, mfu, hfu, memory,
    breakdown: { computeSeconds, tensorParallelCommSeconds, pipelineBubbleSeconds, pipelineCommSeconds, dataParallelCommSeconds, optimizerSeconds },
  };
  const { recomputeSeconds: _recompute, ...breakdown } = ours.breakdown;

  it.each<[string, object]>([
    ['the contract\'s fields alone', contractOnly],
    ['no resolved scenario (the pipeline and the sizing read it)', { ...ours, resolved: undefined }],
    ['no breakdown.recomputeSeconds (the step\'s bar draws it)', { ...ours, breakdown }],
  ])('%s: a valid answer, said to be not trainplan\'s JSON rather than drawn with holes', async (_, answer) => {
    expect(validateEstimate(JSON.parse(JSON.stringify(answer))).ok).toBe(true);
    const text = await said(apiBackend(API, answering(() => Response.json([answer])).impl).estimate([SCENARIO]));
    expect(text).toBe(`The API at ${API}/v1/estimate answered something that is not trainplan's JSON`);
  });

  it('trainplan\'s own answer, every extension there, is taken as it came', async () => {
    expect(await apiBackend(API, answering(() => Response.json([ours])).impl).estimate([SCENARIO])).toEqual([JSON.parse(JSON.stringify(ours))]);
  });
});
