import { gpuById } from '@trainplan/presets';
import { defaultPrecision } from '@trainplan/protocol';
import { DEFAULT_GPU } from '../defaults.ts';
import { takeKvCacheLoad, takeKvCachePrecision } from '../lexicon/kv-cache.ts';
import { findUnnamedLatencyBound, takeLatencyPercentiles } from '../lexicon/percentile.ts';
import { findUnreadLength, takeCostPerMillion, takeServing } from '../lexicon/serving.ts';
import { takeUserLoad, userBaseWhy } from '../lexicon/user-load.ts';
import { asTyped } from './as-typed.ts';
import type { ParseState } from './state.ts';

/** What a serving question states: the KV cache's format, latency bounds, the cost's unit, the load and the users. */
export type ServingRead = ReturnType<typeof readServing>;

/**
 * The serving figures, read before the token budget and the lengths: "generate 512 tokens" and "per 1M output tokens"
 * never a training budget, "32 requests of 8k tokens" a load.
 */
export function readServing(st: ParseState) {
  const { s, text, normal, stated, problems, notRead } = st;
  // Before the precision: "fp8 kv cache" is the cache's format, never the weights'. A "16-bit" cache is the GPU's 16-bit format.
  const kvGpu = gpuById(stated.gpu ?? DEFAULT_GPU);
  const kvCache = takeKvCachePrecision(s, kvGpu === undefined ? 'bf16' : defaultPrecision(kvGpu));
  stated.kvCachePrecision = kvCache?.kvCachePrecision;
  if (kvCache?.problem !== undefined) problems.push(kvCache.problem);
  // Before the bounds: "p99 ttft 500ms" is a bound on the time to first token, its percentile said (the model's latencies are means).
  const percentiles = takeLatencyPercentiles(s);
  // Before token counts: "generate 512 tokens" is an output length, never a training budget.
  // Before the lengths: "per 1M output tokens" is a cost's unit, never an output of 1M tokens.
  const perMillion = takeCostPerMillion(s);
  Object.assign(stated, takeServing(s));
  // A KV cache held "for 32 requests of 8k tokens", "at 2048 tokens": the sequences at once and each one's context (kv-cache.ts).
  Object.assign(stated, takeKvCacheLoad(s, normal));
  // Users at once in other words or at a scale ("1M active users"); a user base ("1M monthly users") said not a load (lexicon/user-load.ts).
  const users = takeUserLoad(s, stated.concurrency !== undefined);
  if (users.concurrency !== undefined) stated.concurrency = users.concurrency;
  notRead.push(...users.userBases.map((b) => ({ phrase: `"${asTyped(text, b)}"`, why: userBaseWhy(asTyped(text, b)) })));
  // A length no pattern read, seen before the training budget's patterns take its number ("2e6 token prompts").
  const unreadLength = findUnreadLength(s.text);
  const unnamedLatency = findUnnamedLatencyBound(s);
  return { kvGpu, kvCache, percentiles, perMillion, users, unreadLength, unnamedLatency };
}
