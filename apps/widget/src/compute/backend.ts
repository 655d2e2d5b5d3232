import {
  runEstimate, runInference, type EstimateJson, type InferenceResponseJson, type NodesResponseJson, type ReceivedEstimateJson, type ScenarioInput,
  type SearchResponseJson,
} from '@trainplan/protocol';
import { offThread, type Progress } from './off-thread.ts';

/** Where estimates come from: the core in the page (offline), or a trainplan API. */
export interface Backend {
  /** One estimate per scenario, in order; rejects only when the API cannot be reached or answers garbage. */
  estimate(scenarios: readonly ScenarioInput[]): Promise<EstimateJson[]>;
  /**
   * The configuration search (runSearch): the best parallel configuration for a model, cluster and batch. `signal`
   * stops it in the page (offThread) when its answer is no longer wanted; an API's answer is left to come.
   */
  search(request: unknown, signal?: AbortSignal): Promise<SearchResponseJson>;
  /**
   * "How many nodes" with a searched configuration (runNodes; in the page, runDeadlineNodes: the widget asks no budget),
   * in the page telling `progress` of each cluster size searched; `signal` as for search.
   */
  nodes(request: unknown, progress?: Progress, signal?: AbortSignal): Promise<NodesResponseJson>;
  /** Serving a model (runInference): latency, KV cache, batch and tokens/s per TP × PP shape, and the best plan. */
  inference(request: unknown): Promise<InferenceResponseJson>;
  readonly kind: 'local' | 'api';
}

/** In the page, with the same core the CLI and the API run: no network at all. */
export function localBackend(): Backend {
  return {
    kind: 'local',
    async estimate(scenarios) {
      const out = runEstimate([...scenarios]);
      return Array.isArray(out) ? out : [out];
    },
    // Off the main thread: a search takes 0.2–0.6 s, the time–cost curve seconds (off-thread.ts).
    search: (request, signal) => offThread('search', request, undefined, signal),
    // The widget asks for a deadline's fewest nodes and the time–cost curve, never a budget: the budget search stays out
    // of the bundle (runDeadlineNodes answers the rest as runNodes does).
    nodes: (request, progress, signal) => offThread('nodes', request, progress, signal),
    inference: async (request) => runInference(request),
  };
}

interface Problem { detail?: string; issues?: { path: string; message: string }[] }

/**
 * How long the widget waits for an API before it says it could not reach it (an API that never answers left the
 * previous answer on screen as the form's, or "Searching…" for good). An estimate batch (at most 96 closed-form
 * scenarios, tens of µs each: docs/benchmarks.md) is milliseconds of work, so 20 s covers a cold start and a slow
 * link. A search, "how many nodes" or serving request runs up to 5,000 full estimates per search (apps/api
 * search.ts), and the time–cost curve some 300 such searches (4.2–5.7 s in Chromium on a shared 2-core machine for the
 * demo's GPT-3 175B, trainplan-estimator.ts #timeCost); 30 s is also a Worker's default CPU limit (Cloudflare Workers
 * limits), past which no answer comes.
 */
export const ESTIMATE_TIMEOUT_MS = 20_000;
export const SEARCH_TIMEOUT_MS = 30_000;

/** An API that failed: its message is the whole sentence the widget shows ("The API at … answered 500"). */
export class ApiError extends Error {}

/**
 * A trainplan API at `base` (e.g. "https://trainplan.example"): POST /v1/search, /v1/nodes and
 * /v1/inference with the request as the core takes it, and /v1/estimate with an array of
 * scenarios, which the contract answers with an array in the same order. A 400 problem (invalid
 * input) becomes an 'invalid' answer for every scenario, so the widget shows it beside the field.
 */
export function apiBackend(base: string, fetchImpl: typeof fetch = (...a) => fetch(...a)): Backend {
  const root = base.replace(/\/+$/, '');
  const url = `${root}/v1/estimate`;
  return {
    kind: 'api',
    async estimate(scenarios) {
      const body = (await post(url, scenarios, fetchImpl, ESTIMATE_TIMEOUT_MS)) as ReceivedEstimateJson[] | Invalid;
      if (Array.isArray(body)) {
        if (body.length === scenarios.length && body.every(drawable)) return body;
      } else if (body.ok === false) {
        // The problem's paths are prefixed "[i]." for an array body; the widget wants the field's own path.
        const invalid = { ...body, issues: body.issues.map((i) => ({ ...i, path: i.path.replace(/^\[\d+\]\.?/, '') })) };
        return scenarios.map(() => invalid);
      }
      throw notJson(url);
    },
    search: (request) => post(`${root}/v1/search`, request, fetchImpl) as Promise<SearchResponseJson>,
    nodes: (request) => post(`${root}/v1/nodes`, request, fetchImpl) as Promise<NodesResponseJson>,
    inference: (request) => post(`${root}/v1/inference`, request, fetchImpl) as Promise<InferenceResponseJson>,
  };
}

/**
 * Whether the widget can draw an answer: the contract lets an API (another one, an older trainplan) send its own fields
 * alone, which validateEstimate takes, but the widget draws from trainplan's extensions too (the headline's parameters,
 * the warnings, the breakdown's recompute and context-parallel parts, and resolved for the pipeline and the sizing),
 * which trainplan's API always sends. An answer without them is "not trainplan's JSON" (an ApiError), not drawn with
 * holes (NaN) or a TypeError. The search, nodes and serving requests only trainplan answers, each plan with every
 * extension (protocol's fullEstimateOkSchema), so their answers are read as they come.
 */
const drawable = (e: ReceivedEstimateJson): e is EstimateJson =>
  !e.ok || [e.resolved, e.parameters, e.warnings, e.breakdown.recomputeSeconds, e.breakdown.contextParallelCommSeconds].every((x) => x !== undefined);

const notJson = (url: string) => new ApiError(`The API at ${url} answered something that is not trainplan's JSON`);

/**
 * POSTs JSON, giving up after `timeoutMs`; a 400 problem becomes the same `ok: false, reason: 'invalid'` answer the
 * core gives. Anything else that is not a JSON answer (a 500, a proxy's HTML page, no answer) throws an ApiError
 * that says which: an error page is never parsed as JSON.
 */
async function post(url: string, body: unknown, fetchImpl: typeof fetch, timeoutMs = SEARCH_TIMEOUT_MS): Promise<unknown> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  let res: Response;
  let json: Problem | undefined;
  try {
    res = await fetchImpl(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body), signal: abort.signal });
    // application/json or application/problem+json; a server's or proxy's error page is text or HTML.
    if (/\bjson\b/.test(res.headers.get('content-type') ?? '')) json = await res.json();
  } catch (e) {
    if (e instanceof SyntaxError) throw notJson(url);
    // One sentence either way: "…: no answer in 20 s", "…: no answer (Failed to fetch)" (the browser's reason). It names
    // the API, not "the estimator": the serving element asks it too (/v1/inference), and said "estimator" (QA).
    throw new ApiError(`Could not reach the API at ${url}: no answer ${abort.signal.aborted ? `in ${timeoutMs / 1000} s` : `(${(e as Error).message})`}`);
  } finally {
    clearTimeout(timer);
  }
  if (res.status === 400 && json) return { ok: false, reason: 'invalid', message: json.detail ?? 'the API refused the request', issues: json.issues ?? [] };
  if (!res.ok) throw new ApiError(`The API at ${url} answered ${res.status}${json?.detail ? ` (${json.detail})` : ''}`);
  if (!json) throw notJson(url);
  return json;
}

interface Invalid { ok: false; reason: 'invalid'; message: string; issues: { path: string; message: string }[] }

/** What the widget says of a failed answer: an API's own sentence, or what went wrong in the page. */
export const failureOf = (e: unknown): string => (e instanceof ApiError ? e.message : `Something went wrong: ${e instanceof Error ? e.message : String(e)}`);
