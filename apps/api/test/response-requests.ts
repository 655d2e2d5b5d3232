/**
 * Requests for each POST endpoint whose answer has a published response schema: feasible answers
 * and every ok: false answer an HTTP client can get as a 200 (the event-budget failure is a 422 over
 * HTTP, so it is not here). Shared by the schema test; each names the answer it expects.
 */
export interface ResponseCase {
  readonly name: string;
  readonly path: '/v1/collective' | '/v1/search' | '/v1/nodes' | '/v1/scale' | '/v1/inference';
  readonly body: unknown;
  /** The answer's ok, and for ok: false its reason. */
  readonly expect: { ok: true } | { ok: false; reason: string };
  /** Optional parts of the answer the case is there to exercise, as dotted paths (`rows.0.emulated`). */
  readonly shows?: readonly string[];
}

const gpt3 = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 } };
const llama = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' } };

export const RESPONSE_CASES: readonly ResponseCase[] = [
  { name: 'closed form, two sizes', path: '/v1/collective', body: { op: 'all-reduce', gpu: 'h100-sxm', nodes: 2, sizes: [1048576, 1073741824] }, expect: { ok: true } },
  { name: "nccl-tests' default sweep", path: '/v1/collective', body: { op: 'reduce-scatter', gpu: 'a100-80gb', nodes: 4 }, expect: { ok: true } },
  { name: 'emulated on the topology graph', path: '/v1/collective', body: { op: 'all-gather', gpu: 'a100-80gb', nodes: 2, size: 16777216, emulate: true }, expect: { ok: true }, shows: ['rows.0.emulated.bottleneckLink', 'topology'] },
  { name: 'an unknown GPU', path: '/v1/collective', body: { op: 'all-reduce', gpu: 'no-such-gpu', nodes: 2, size: 1024 }, expect: { ok: false, reason: 'invalid' } },
  { name: 'NVLS on an A100 (no NVLink SHARP)', path: '/v1/collective', body: { op: 'all-reduce', gpu: 'a100-80gb', nodes: 1, size: 1048576, algorithm: 'nvls' }, expect: { ok: false, reason: 'unavailable' } },

  { name: 'GPT-3 on 128 nodes, top 3', path: '/v1/search', body: { ...gpt3, cluster: { gpu: 'a100-80gb', nodes: 128 }, top: 3 }, expect: { ok: true } },
  { name: 'cheapest, with tokens and a price', path: '/v1/search', body: { ...llama, cluster: { gpu: 'h100-sxm', nodes: 8 }, training: { globalBatchSize: 256, tokens: 1e12 }, objective: 'cost', pricePerGpuHour: 2, top: 2 }, expect: { ok: true }, shows: ['best.days', 'best.gpuHours', 'best.cost', 'best.estimate.timeToTrain'] },
  { name: 'a budget that runs out', path: '/v1/search', body: { ...gpt3, cluster: { gpu: 'a100-80gb', nodes: 64 }, candidateBudget: 3 }, expect: { ok: true }, shows: ['warnings.0'] },
  { name: 'nothing fits on one node', path: '/v1/search', body: { ...gpt3, cluster: { gpu: 'a100-80gb', nodes: 1 } }, expect: { ok: false, reason: 'no-feasible-configuration' }, shows: ['nearestMiss', 'closest.scenario', 'pruned.0'] },
  { name: 'GPUs that do not fill whole nodes', path: '/v1/search', body: { ...gpt3, cluster: { gpu: 'a100-80gb', gpus: 12 } }, expect: { ok: false, reason: 'invalid' } },
  { name: 'an unknown GPU', path: '/v1/search', body: { ...gpt3, cluster: { gpu: 'no-such-gpu', nodes: 8 } }, expect: { ok: false, reason: 'invalid' } },

  { name: 'fewest nodes for 300B tokens in 30 days', path: '/v1/nodes', body: { ...gpt3, tokens: 300e9, days: 30 }, expect: { ok: true } },
  { name: 'days on 64 nodes, with a price', path: '/v1/nodes', body: { ...gpt3, tokens: 300e9, nodes: 64, pricePerGpuHour: 2 }, expect: { ok: true }, shows: ['cost', 'configuration.cost'] },
  { name: 'a deadline no cluster meets', path: '/v1/nodes', body: { ...gpt3, tokens: 300e9, days: 0.001 }, expect: { ok: false, reason: 'deadline-unreachable' }, shows: ['closest.estimate'] },
  { name: 'one node does not fit the model', path: '/v1/nodes', body: { ...gpt3, tokens: 300e9, nodes: 1 }, expect: { ok: false, reason: 'does-not-fit' } },
  { name: 'an unknown model', path: '/v1/nodes', body: { ...gpt3, model: 'no-such-model', tokens: 300e9, days: 30 }, expect: { ok: false, reason: 'invalid' } },
  // No batch: planned at the CLI's default, which the answer names (a narrowed space keeps the search to a fraction of a second).
  // A batch typed in tokens (4M) at 90% uptime: the uptime echoed and the warning, each documented (nodes-schemas.ts).
  { name: 'days on 32 nodes at 4,000,000 sequences, 90% uptime', path: '/v1/nodes', body: { model: 'llama2-7b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 4e6 }, tokens: 2e12, nodes: 32, uptime: 0.9 }, expect: { ok: true }, shows: ['uptime', 'warnings.0'] },
  { name: 'days on 3 nodes, the batch omitted', path: '/v1/nodes', body: { model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, tokens: 100e9, nodes: 3, constraints: { maxTensor: 8, maxPipeline: 4, maxContext: 1, microBatchSizes: [1], recompute: ['full'] } }, expect: { ok: true }, shows: ['assumedGlobalBatch.sequences', 'assumedGlobalBatch.nodes', 'assumedGlobalBatch.note'] },

  { name: 'strong scaling over three sizes', path: '/v1/scale', body: { ...gpt3, nodes: [32, 64, 128] }, expect: { ok: true } },
  { name: 'weak scaling with the TP × PP table, one size too small', path: '/v1/scale', body: { ...gpt3, training: { globalBatchSize: 512 }, nodes: [1, 32, 64], mode: 'weak', tradeOff: true }, expect: { ok: true }, shows: ['points.0.reason', 'points.1.efficiency', 'tradeOff.0'] },
  // Before: the 1-node point planned a batch of 0 (globalBatchSize 0 against the schema's minimum 1) and, as the smallest size, left every efficiency out.
  { name: 'weak scaling listed largest first, a size whose batch per node falls below one sequence', path: '/v1/scale', body: { model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 16 }, nodes: [64, 1], mode: 'weak' }, expect: { ok: true }, shows: ['points.0.efficiency', 'points.1.reason'] },
  { name: 'no size runs the fixed plan', path: '/v1/scale', body: { ...gpt3, nodes: [3, 5], parallelism: { tensor: 8, pipeline: 8 } }, expect: { ok: false, reason: 'no-feasible-configuration' }, shows: ['points.0.reason', 'points.1.reason', 'mode'] },
  { name: 'an unknown GPU', path: '/v1/scale', body: { ...gpt3, cluster: { gpu: 'no-such-gpu' }, nodes: [8] }, expect: { ok: false, reason: 'invalid' } },

  { name: 'Llama 3 70B on H100', path: '/v1/inference', body: { ...llama, promptTokens: 2048, outputTokens: 512 }, expect: { ok: true }, shows: ['best', 'frontier.0'] },
  { name: 'bounds no shape meets, one shape out of memory', path: '/v1/inference', body: { ...llama, promptTokens: 2048, outputTokens: 512, tensor: [1, 8], maxDecodeSecondsPerToken: 1e-6 }, expect: { ok: true }, shows: ['byShape.0.reason', 'byShape.1.largestBatch', 'closest.point', 'remedy.message', 'remedy.fields.0.value', 'remedy.template'] },
  { name: 'no replica of the GPUs given holds the model', path: '/v1/inference', body: { model: 'llama3.1-405b', cluster: { gpu: 'a100-40gb' }, promptTokens: 2048, outputTokens: 512, gpus: 8 }, expect: { ok: true }, shows: ['unservable', 'remedy.message', 'remedy.fields.0'] },
  { name: 'an unknown model', path: '/v1/inference', body: { ...llama, model: 'no-such-model', promptTokens: 16, outputTokens: 16 }, expect: { ok: false, reason: 'invalid' } },
];
