/**
 * What speculative decoding needs of its draft (Leviathan et al. 2023, arXiv:2211.17192, §2): it proposes tokens the
 * target verifies, so it shares the target's vocabulary; and it must cost less per token than the target, or no
 * accepted token is ever cheaper than the target's own step: a draft of at least the target's size is refused.
 */
function draftModelIssue(draft: ModelShape, target: ModelShape): FieldIssue | undefined {
  const path = 'speculative.draftModel';
  if (draft.vocabSize !== target.vocabSize) {
    return {
      path,
      message: `${draft.name} has a vocabulary of ${countOf(draft.vocabSize, 'token')} and ${target.name} one of ${countOf(target.vocabSize, 'token')}: `
        + 'a draft proposes tokens the target verifies, so it needs the target\'s tokenizer (a draft of the same family)',
    };
  }
  const [d, t] = [parameterCount(draft), parameterCount(target)];
  if (d >= t) {
    return {
      path,
      message: `${draft.name} (${formatCount(d)} parameters) is not smaller than ${target.name} (${formatCount(t)}): a draft must cost `
        + 'less per token than the target it drafts for, or speculation only slows decoding',
    };
  }
  return undefined;
}

/** Inference planning on the wire: validate the request, plan it, answer in JSON with its warnings. */
import { parameterCount, type ModelShape } from '@trainplan/model';
import { planInference, type InferenceEstimate } from '@trainplan/search';
import { countOf, formatCount } from '@trainplan/units';
import { runsBf16 } from '@trainplan/planner';
import { modelById } from '@trainplan/presets';
import { validate } from '../schema/validate.ts';
import { resolveModel } from '../resolve.ts';
import type { FieldIssue } from '../wire.ts';
import { inferenceRequestSchema } from './inference-request.ts';
import { invalid, point, shapeJson, type InferenceResponseJson } from './inference-json.ts';
import { rateFirstTokenBound, rateFirstTokenWarning, ttftWarning, unservableMessage } from './inference-messages.ts';
import { resolveSearch } from './resolve-search.ts';
import { idleFleetJson } from './inference-idle-fleet.ts';

/** Request fields that only continuous batching serves, and why: refused beside the field with static batching. */
const CONTINUOUS_ONLY: readonly (readonly ['prefillChunkTokens' | 'sharedPrefixTokens' | 'requestsPerSecond', string])[] = [
  ['prefillChunkTokens', 'chunked prefill applies to continuous batching'],
  ['sharedPrefixTokens', 'prefix caching applies to continuous batching (a paged KV cache shares the prefix\'s blocks)'],
  ['requestsPerSecond', 'a request rate is served by continuous batching (requests join as sequences finish)'],
];

/**
 * The planner's FP8 refusal as serving reads it: a GPU without FP8 tensor cores still runs an FP8 KV cache
 * beside 16-bit weights (attention computes in 16 bits; vLLM's kv_cache_dtype "fp8" on Ampere), so that is
 * offered first ("serve BF16 weights with an FP8 KV cache, which runs on it (precision "bf16", kvCachePrecision
 * "fp8"), or FP8 weights on a GPU that has them (h100-sxm, …)"). Any other message is as the planner says it.
 */
function servingPrecisionText(message: string): string {
  return message.replace(/has no FP8 tensor cores: use precision "(bf16|fp16)", or a GPU that has them/, (_m, sixteen: string) =>
    `has no FP8 tensor cores: serve ${sixteen.toUpperCase()} weights with an FP8 KV cache, which runs on it (precision "${sixteen}", kvCachePrecision "fp8"), or FP8 weights on a GPU that has them`);
}

/** Inference planning on the wire: prefill/decode latency, KV cache, largest batch, tokens/s/GPU, frontier. */
export function runInference(request: unknown): InferenceResponseJson {
  const valid = validate(inferenceRequestSchema, request);
  if (!valid.ok) return invalid(valid.issues);
  const req = valid.value;
  const staticOnly = req.batching === 'continuous' ? undefined : CONTINUOUS_ONLY.find(([field]) => req[field] !== undefined);
  if (staticOnly !== undefined) {
    const [field, why] = staticOnly;
    return invalid([{ path: field, message: `${why}: give batching "continuous", or leave ${field} out` }]);
  }
  const draftIssues: FieldIssue[] = [];
  const draft = req.speculative === undefined ? undefined : resolveModel(req.speculative.draftModel, draftIssues);
  if (draftIssues.length > 0) return invalid(draftIssues.map((i) => ({ ...i, path: 'speculative.draftModel' })));
  if (req.sharedPrefixTokens !== undefined && req.sharedPrefixTokens > req.promptTokens) {
    return invalid([{ path: 'sharedPrefixTokens', message: `the shared prefix (${req.sharedPrefixTokens.toLocaleString('en-US')} tokens) is part of the prompt: at most promptTokens (${req.promptTokens.toLocaleString('en-US')})` }]);
  }
  const resolved = resolveSearch({
    model: req.model, cluster: req.cluster,
    // Precision and attention kernel left to the GPU's defaults (flash where it runs) unless asked.
    training: { globalBatchSize: 1, precision: req.precision, dropout: false },
    settings: { scatterGather: false, overlapGradReduce: false, overlapTensorParallelComm: false, overlapPipelineComm: false },
  }, { nodes: 1 });
  // The request sets precision at its top level: name it so, not as the scenario's training.precision.
  if (!resolved.ok) return invalid(resolved.issues.map((i) => (i.path === 'training.precision' ? { path: 'precision', message: servingPrecisionText(i.message) } : i)));
  // A 16-bit cache is read by 16-bit attention, so BF16 needs the GPU's BF16 support (Volta has none), as the weights' precision does.
  const { gpu } = resolved.value.base;
  if (req.kvCachePrecision === 'bf16' && !runsBf16(gpu)) {
    return invalid([{ path: 'kvCachePrecision', message: `${gpu.name} has no BF16 tensor cores: use kvCachePrecision "fp16", or kvCachePrecision "fp8"` }]);
  }
  const draftIssue = draft === undefined ? undefined : draftModelIssue(draft, resolved.value.base.model);
  if (draftIssue !== undefined) return invalid([draftIssue]);
  // The request's fields are the search's, by the same names; a field left out stays undefined there too.
  const { model: _model, cluster: _cluster, precision: _precision, speculative, ...search } = req;
  const contextWindowTokens = typeof req.model === 'string' ? modelById(req.model)?.contextWindowTokens : undefined;
  const planned = {
    ...search,
    ...(contextWindowTokens !== undefined && { contextWindowTokens }),
    maxPrefillSeconds: rateFirstTokenBound(req),
    speculative: speculative === undefined || draft === undefined ? undefined
      : { draft, draftTokens: speculative.draftTokens, acceptanceRate: speculative.acceptanceRate },
  };
  const result = planInference(resolved.value.base, planned);
  // An idle fleet is said with the plan the bound loosened gives, asked again of the search (one plan more, only then).
  const idleFleet = result.idleFleet === undefined ? undefined
    : idleFleetJson(result.idleFleet, (maxPrefillSeconds) => planInference(resolved.value.base, { ...planned, maxPrefillSeconds }).best, req.gpus);
  const byShape = result.byShape.map((s) => shapeJson(s.tensor, s.pipeline, s.answer, req.gpus));
  // Nothing serves at all: said first among the warnings too, where answers before `unservable` said it.
  const unservable = unservableMessage(byShape, req.gpus);
  const json = (e: InferenceEstimate) => point(e, req.gpus);
  return {
    ok: true,
    promptTokens: req.promptTokens,
    outputTokens: req.outputTokens,
    ...(result.best && { best: json(result.best) }),
    frontier: result.frontier.map(json),
    byShape,
    ...(result.closest && { closest: { why: result.closest.why, point: json(result.closest.point) } }),
    ...(unservable !== undefined && { unservable }),
    ...(idleFleet !== undefined && { idleFleet }),
    // An idle fleet is said first too: the best plan is sized by its bound, not its rate.
    warnings: [...(unservable === undefined ? [] : [unservable]), ...(idleFleet === undefined ? [] : [idleFleet.why]), ...rateFirstTokenWarning(req), ...result.warnings,
      ...ttftWarning(result.best, req)],
  };
}
