import type { Answer } from './answer-types.ts';
import { planLabelWords } from './plan-label-words.ts';

/**
 * The protocol's sentences are written for API callers: a refusal or a warning may tell them to set a wire field
 * ("give maxPrefillSeconds", `kvCachePrecision "fp8"`, "give cluster.nodes"). An answer passes them on to a person who
 * asked in words, so each such phrase is said as a question says it. A sentence with none of them is left as it is;
 * the field paths of a refusal's issues are worded in issue-words.ts.
 */
type Rewrite = readonly [RegExp, (...groups: string[]) => string];

const PHRASES: readonly Rewrite[] = [
  // inference-messages.ts, a late first token under a per-token bound only.
  [/\bgive maxPrefillSeconds for an interactive service\b/g, () => 'bound the time to first token for an interactive service ("ttft under 2 s")'],
  // inference-messages.ts, a throughput plan (no bound at all) with a late first token.
  [/\bgive maxDecodeSecondsPerToken and maxPrefillSeconds\b/g, () => 'bound both latencies ("50 ms per token, ttft under 2 s")'],
  [/\buse batching "continuous" to admit prompts as sequences finish\b/g, () => 'ask without "static batching" for continuous batching, which admits prompts as sequences finish'],
  // inference.ts, a BF16 KV cache on a GPU without BF16 (V100).
  [/\buse kvCachePrecision "fp16", or kvCachePrecision "fp8"/g, () => 'use an FP16 or FP8 KV cache ("fp8 kv cache")'],
  // inference.ts, FP8 weights served on a GPU without FP8 (A100): 16-bit weights with an FP8 KV cache run on it.
  [/\(precision "(\w+)", kvCachePrecision "(\w+)"\)/g, (weights = '', cache = '') => `("in ${weights} with an ${cache} kv cache")`],
  // check-plan.ts, a precision the GPU has no tensor cores for.
  [/\buse precision "(\w+)"/g, (precision = '') => `use ${precision.toUpperCase()} ("in ${precision}")`],
  // run-search.ts, GPUs that do not fill whole nodes.
  [/, or give cluster\.nodes\b/g, () => ', or give a count of nodes ("on 2 nodes")'],
  // inference.ts, a shared prefix longer than the prompt it opens.
  [/\bat most promptTokens \(([\d,]+)\)/g, (tokens = '') => `at most the prompt (${tokens} tokens)`],
  // inference-messages.ts, GPUs no tensor × pipeline shape divides.
  [/ \(gpus\): give tensor and pipeline degrees whose product divides it/g, () => ': give a TP and PP whose product divides them ("with tp 2 pp 2")'],
];

/**
 * Any request field a sentence still names after PHRASES, in words (a quoted value after it kept: `attentionKernel
 * "flash"` → 'the attention kernel "flash"'): so that a sentence the protocol adds later, which PHRASES does not know
 * yet, still reaches a person without a wire name. The fields of the inference and search requests and the scenario.
 */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  promptTokens: 'the prompt length', outputTokens: 'the output length', requestsPerSecond: 'the request rate',
  sharedPrefixTokens: 'the shared prefix', prefillChunkTokens: 'the prefill chunk', kvCachePrecision: 'the KV cache precision',
  maxPrefillSeconds: 'the bound on the time to first token', maxDecodeSecondsPerToken: 'the bound per token',
  pricePerGpuHour: 'the price per GPU-hour', gpuMemoryUtilization: 'the share of GPU memory used', draftTokens: 'the draft tokens',
  acceptanceRate: 'the acceptance rate', globalBatchSize: 'the global batch', microBatchSize: 'the micro-batch',
  virtualStages: 'the virtual stages', sequenceParallel: 'sequence parallelism', recomputeLayers: 'the recomputed layers',
  attentionKernel: 'the attention kernel', gpusPerNode: 'the GPUs per node', candidateBudget: 'the search budget',
  overlapPipelineComm: 'overlapped pipeline sends', overlapTensorParallelComm: 'tensor-parallel communication overlap',
  overlapGradReduce: 'overlapped gradient reduction', scatterGather: 'scatter-gather', distributedOptimizer: 'the distributed optimizer',
  zeroStage: 'the ZeRO stage', seqLength: 'the sequence length',
};

// Not a field in double quotes: a JSON key a person is told to type (custom-model.ts SHAPE_AS_MODEL_OBJECT's "seqLength").
const FIELD = new RegExp(String.raw`(?<![\w."])(${Object.keys(FIELD_WORDS).join('|')})(?![\w])`, 'g');
/** A field named in brackets after the words that say it ("overlapped pipeline sends (overlapPipelineComm)"): for API callers only. */
const BRACKETED = new RegExp(String.raw` \((?:${Object.keys(FIELD_WORDS).join('|')})\)`, 'g');

/** One sentence with the protocol's wire phrases said in words, and its plans' labels as the Configuration line says plans (plan-label-words.ts). */
export function plainWords(text: string): string {
  // The replacer gets the groups first, then the offset and the whole text, which the rewrites leave unread.
  const phrased = PHRASES.reduce((t, [pattern, words]) => t.replace(pattern, (_match, ...groups: string[]) => words(...groups)), planLabelWords(text));
  return phrased.replace(BRACKETED, '').replace(FIELD, (name: string) => FIELD_WORDS[name] ?? name);
}

/** An answer whose every sentence a person reads (headline, configuration, figures, assumptions, notes) is in plain words. */
export function inPlainWords(a: Answer): Answer {
  return {
    ...a,
    headline: plainWords(a.headline),
    ...(a.configuration !== undefined && { configuration: plainWords(a.configuration) }),
    figures: a.figures.map((f) => ({ label: plainWords(f.label), value: plainWords(f.value) })),
    assumptions: a.assumptions.map(plainWords),
    notes: a.notes.map(plainWords),
  };
}
