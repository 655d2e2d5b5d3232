import {
  runEstimate, runInference, runNodes, runSearch, type EstimateJson, type InferenceResponseJson, type NodesResponseJson, type ScenarioInput, type SearchResponseJson,
} from '@trainplan/protocol';

/** Where estimates come from: the core in the page (offline), or a trainplan API. */
export interface Backend {
  /** One estimate per scenario, in order; rejects only when the API cannot be reached or answers garbage. */
  estimate(scenarios: readonly ScenarioInput[]): Promise<EstimateJson[]>;
  /** The configuration search (runSearch): the best parallel configuration for a model, cluster and batch. */
  search(request: unknown): Promise<SearchResponseJson>;
  /** "How many nodes" with a searched configuration (runNodes). */
  nodes(request: unknown): Promise<NodesResponseJson>;
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
    search: async (request) => runSearch(request),
    nodes: async (request) => runNodes(request),
    inference: async (request) => runInference(request),
  };
}

interface Problem { detail?: string; issues?: { path: string; message: string }[] }

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
      const res = await fetchImpl(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(scenarios) });
      const body = (await res.json()) as unknown;
      if (res.ok && Array.isArray(body) && body.length === scenarios.length) return body as EstimateJson[];
      if (res.status === 400 && body && typeof body === 'object') {
        const p = body as Problem;
        // The problem's paths are prefixed "[i]." for an array body; the widget wants the field's own path.
        const issues = (p.issues ?? []).map((i) => ({ path: i.path.replace(/^\[\d+\]\.?/, ''), message: i.message }));
        const invalid: EstimateJson = { ok: false, reason: 'invalid', message: p.detail ?? 'the API refused the scenario', issues };
        return scenarios.map(() => invalid);
      }
      throw new Error(`the API at ${url} answered ${res.status}`);
    },
    search: (request) => post<SearchResponseJson>(`${root}/v1/search`, request, fetchImpl),
    nodes: (request) => post<NodesResponseJson>(`${root}/v1/nodes`, request, fetchImpl),
    inference: (request) => post<InferenceResponseJson>(`${root}/v1/inference`, request, fetchImpl),
  };
}

/** POSTs JSON; a 400 problem becomes the same `ok: false, reason: 'invalid'` answer the core gives. */
async function post<T>(url: string, body: unknown, fetchImpl: typeof fetch): Promise<T> {
  const res = await fetchImpl(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as Problem & Record<string, unknown>;
  if (res.ok) return json as T;
  if (res.status === 400) return { ok: false, reason: 'invalid', message: json.detail ?? 'the API refused the request', issues: json.issues ?? [] } as T;
  throw new Error(`the API at ${url} answered ${res.status}`);
}
