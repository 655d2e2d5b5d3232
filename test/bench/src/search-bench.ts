import { resolveScenario, runInference, runSearch, validateScenario, type ScenarioInput } from '@trainplan/protocol';
import { searchPlans, type SearchBase, type SearchResult } from '@trainplan/search';
import { timeRuns as time, type Timing } from './measure.ts';
import type { BenchSection } from './sections.ts';

/** The issue's case: the SC'21 1T model (128 layers, h 25600, 160 heads) on 3072 A100 (384 DGX A100), batch 3072. */
const ONE_T: ScenarioInput = { model: 'megatron-1t', cluster: { gpu: 'a100-80gb', nodes: 384 }, training: { globalBatchSize: 3072 } };
const GPT3: ScenarioInput = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 } };

function baseOf(s: ScenarioInput): SearchBase {
  const v = validateScenario(s);
  if (!v.ok) throw new Error('bench scenario invalid');
  const r = resolveScenario(v.value);
  if (!r.ok) throw new Error('bench scenario unresolved');
  const { tensor: _t, pipeline: _p, data: _d, context: _c, virtualStages: _v, schedule: _s, microBatchSize: _b, sequenceParallel: _sp, recompute: _r, recomputeLayers: _n, sharding: _z, ...base } = r.value.plan;
  return base;
}


/** Serving plans: every default TP × PP shape and its batches, as `trainplan inference` asks. */
const LLAMA70B_SERVING = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous', maxDecodeSecondsPerToken: 0.05 };
/** The CLI's --rate example: the fewest GPUs for 100 requests/s, each point's replicas found by its slot queue (Erlang C). */
const LLAMA8B_AT_RATE = {
  model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 256, batching: 'continuous',
  requestsPerSecond: 100, maxDecodeSecondsPerToken: 0.03, maxPrefillSeconds: 1,
};
const LLAMA405B_ON_24 = { model: 'llama3.1-405b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous', gpus: 24 };

/** Points a serving answer priced: every shape's batches (the frontier and best are drawn from them). */
const pointsOf = (a: ReturnType<typeof runInference>): number => (a.ok ? a.byShape.length : 0);

export const searchSection: BenchSection = {
  name: 'search',
  run(budgetSeconds) {
    const oneT = baseOf(ONE_T);
    const gpt3 = baseOf(GPT3);
    const rows = [
      time('searchPlans, 1T on 3072 A100, batch 3072 (full default space, top 10)', () => searchPlans(oneT), budgetSeconds),
      time('searchPlans, GPT-3 175B on 1024 A100, batch 1536 (full default space, top 10)', () => searchPlans(gpt3), budgetSeconds),
    ];
    const wireTiming = time('runSearch (JSON in → validate → search → top 10, alternatives and any fewer nodes that step faster, as contract JSON), 1T on 3072 A100', () => runSearch(ONE_T), budgetSeconds);
    const serving = [
      time('runInference, Llama 3 70B on H100, 2,048 + 512 tokens, continuous, ≤ 50 ms/token (16 default shapes)', () => runInference(LLAMA70B_SERVING), budgetSeconds),
      time('runInference, Llama 3.1 405B on 24 H100, continuous (the shapes that divide 24)', () => runInference(LLAMA405B_ON_24), budgetSeconds),
      time('runInference, Llama 3 8B on H100, 100 requests/s, ≤ 30 ms/token, ≤ 1 s first token (each point\'s replicas by its queue)', () => runInference(LLAMA8B_AT_RATE), budgetSeconds),
    ];
    const perSecond = (r: Timing<SearchResult>) => r.result.spaceSize / (r.medianMs / 1000);
    const oneTMet = rows[0]!.medianMs <= 100;
    return {
      markdown: [
        '## Configuration search speed',
        '',
        `One core; each row: a cold first run, then repeated runs for ${budgetSeconds} s (at least 5). "Candidates" are the`,
        'space\'s (tensor × pipeline × context × virtual stages × micro-batch × sequence parallelism × recompute ×',
        'optimizer layout); every one is settled: pruned by Megatron\'s divisibility rules or the closed-form memory',
        'bound, skipped by the step-time lower bound (branch and bound; provably outside the top k), or estimated in',
        'full. Pruned candidates count as evaluated (the candidates/s target counts every candidate settled, pruning included); the full-estimate column',
        'says how many went through the planner.',
        '',
        '| benchmark | candidates | full estimates | cold ms | median ms | best ms | candidates/s (median) | target |',
        '|---|---|---|---|---|---|---|---|',
        ...rows.map((r, i) => `| ${r.name} | ${r.result.spaceSize.toLocaleString('en-US')} | ${r.result.fullEstimates.toLocaleString('en-US')} | ${r.coldMs.toFixed(0)} | ${r.medianMs.toFixed(1)} | ${r.bestMs.toFixed(1)} | ${Math.round(perSecond(r)).toLocaleString('en-US')} | ${i === 0 ? `≤ 100 ms and ≥ 1,000,000/s: ${oneTMet && perSecond(r) >= 1e6 ? 'met' : '**missed**'}` : ''} |`),
        `| ${wireTiming.name} | | | ${wireTiming.coldMs.toFixed(0)} | ${wireTiming.medianMs.toFixed(1)} | ${wireTiming.bestMs.toFixed(1)} | | |`,
        '',
        'Peer figure: Calculon (Isaev et al., SC\'23) searches a 1T-model space exhaustively in minutes on many cores.',
        '',
        '### Inference planning speed',
        '',
        'JSON in to JSON out: each TP × PP shape tried is probed for its largest batch, then its batches (powers of two up to it, and the batches where the latency bounds bind, found by bisection) are priced.',
        '',
        '| benchmark | shapes | cold ms | median ms | best ms |',
        '|---|---|---|---|---|',
        ...serving.map((r) => `| ${r.name} | ${pointsOf(r.result)} | ${r.coldMs.toFixed(0)} | ${r.medianMs.toFixed(1)} | ${r.bestMs.toFixed(1)} |`),
        '',
      ],
      summary: [
        ...rows.map((r) => `${r.name}: median ${r.medianMs.toFixed(1)} ms (cold ${r.coldMs.toFixed(0)} ms), ${Math.round(perSecond(r)).toLocaleString('en-US')} candidates/s, ${r.result.fullEstimates} full estimates`),
        `${wireTiming.name}: median ${wireTiming.medianMs.toFixed(1)} ms`,
        ...serving.map((r) => `${r.name}: median ${r.medianMs.toFixed(1)} ms (cold ${r.coldMs.toFixed(0)} ms)`),
      ],
    };
  },
};
