import type { InferencePointJson } from '@trainplan/protocol';
import { countOf, formatGrouped, formatSeconds } from '@trainplan/units';
import type { ParsedQuestion } from '../question.ts';
import type { AnswerFigure } from './answer-types.ts';
import type { LoadedPoint } from './serving-load.ts';
import { ASKS_KV_SIZE } from './kv-cache-size.ts';
import { ASKS_MEMORY } from './serving-memory.ts';
import { SPECULATION_TRADE } from './serving-speculation.ts';
import { gpusOfNamed, latencyText, namedGpus, replicaRequestsPerSecond, replicasAtText, requestsPerSecondText, shapeText } from './serving-text.ts';
import type { SpreadPlan, SpreadSearch } from './spread-users.ts';

/**
 * A number of concurrent requests in words, as the service's in all spread over its replicas (spread-users.ts finds the
 * plan): "28 GPUs serve 500 concurrent requests as 7 replicas of TP 4 · PP 1 at up to 72 concurrent requests each: …", in
 * the words a rate's replicas are said in (serving-load.ts, from serving-text.ts's helpers).
 */

/**
 * Words saying a concurrency stated is one replica's: "64 concurrent requests per replica", "concurrency 16 on each
 * instance", "per-replica concurrency of 64", as vLLM's max_num_seqs and TensorRT-LLM's max_batch_size are set.
 */
const PER_REPLICA = /\b(?:concurrent|simultaneous|parallel)\s*(?:requests?|users?|sequences?|streams?|sessions?)\s+(?:per|(?:on|in|for)?\s*each)\s+(?:replica|instance|engine)\b|\bconcurrency(?:\s*(?:of|=|:|is))?\s*\d+\s+(?:per|(?:on|in|for)?\s*each)\s+(?:replica|instance|engine)\b|\bper[\s-]+(?:replica|instance|engine)[\s-]+(?:concurrency|batch)\b/i;

/**
 * The concurrent requests a serving question asks to serve in all ("to 500 concurrent users", "with concurrency 64"), to be
 * spread over replicas; undefined where its concurrency is one replica's: a batch size (taken as one replica's, defaults.ts),
 * said per replica, at a request rate (whose replicas are the load's, each at that batch), or where the question asks a
 * replica's memory or KV cache at it. Speculating too, the users are the service's, spread over replicas of one pipeline
 * stage with the draft (as vLLM runs it), the spread without a draft said beside (usersWithoutSpeculation). QA: "serve
 * llama3-70b on H100 to 500 concurrent users with speculative decoding" put all 500 on one TP 8 replica, which holds 477,
 * and answered "does not fit", where 4 replicas of TP 4 hold them.
 */
export function usersInAll(q: ParsedQuestion): number | undefined {
  const users = q.stated.concurrency;
  if (users === undefined || !Number.isInteger(users) || users < 1) return undefined;
  if (q.parameters.requestsPerSecond !== undefined) return undefined;
  if (PER_REPLICA.test(q.text) || ASKS_KV_SIZE.test(q.text) || ASKS_MEMORY.test(q.text)) return undefined;
  return users;
}

/** How the concurrency was read, said with the assumptions. */
export const usersAssumption = (users: number): string =>
  `${countOf(users, 'concurrent request')} in all, spread over the replicas as a load balancer spreads sessions, each replica at ⌈${formatGrouped(users)} / replicas⌉ or fewer (say "per replica" for one replica's batch)`;

/**
 * A concurrency stated beside a request rate is read as each replica's batch (the rate's replicas are the load's), said
 * with what the rate itself makes of concurrency: by Little's law (L = λW, J. D. C. Little, "A Proof for the Queuing Formula
 * L = λW", Operations Research 9(3), 1961) the service holds the rate times a request's time in it, its mean wait for a
 * slot and the time its slot is held (b / the replica's requests a second, O iterations: the protocol's load reckons it
 * so). QA: "to 500 concurrent users at 100 requests/s" said "500 taken per replica: 6,500 on the 13 replicas", with no
 * word that 100 requests/s of about a minute each are some 6,000 at once, not the 500 asked.
 */
export function rateConcurrencyText(concurrency: number, x: LoadedPoint, outputTokens: number): string {
  const seconds = x.load.queueSeconds + x.batch / replicaRequestsPerSecond(x, outputTokens);
  const held = x.load.requestsPerSecond * seconds;
  return `${countOf(concurrency, 'concurrent request')} taken per replica, a rate being given: ${formatGrouped(concurrency * x.load.replicas)} on the ${countOf(x.load.replicas, 'replica')}; `
    + `at ${requestsPerSecondText(x.load.requestsPerSecond)} of ${formatSeconds(seconds)} each the service holds about ${formatGrouped(Number(held.toPrecision(3)))} at once `
    + `(Little's law: requests at once = arrival rate × time in the system), so the ${formatGrouped(concurrency)} asked and the rate disagree`;
}

/** "as 7 replicas of TP 4 · PP 1 at up to 72 concurrent requests each", or "as 1 replica of TP 4 · PP 8" holding them all. */
const asReplicas = (x: SpreadPlan): string =>
  `as ${x.replicas === 1 ? `1 replica of ${shapeText(x.point)}` : replicasAtText(x.replicas, x.point, x.batch, x.users % x.replicas !== 0)}`;


/**
 * The headline's plan: "28 GPUs serve 500 concurrent requests as 7 replicas of TP 4 · PP 1 at up to 72 concurrent
 * requests each: 47.9 ms per token, first token in 230 ms"; of GPUs named, "8 of the 16 GPUs serve …".
 */
export const usersHeadline = (x: SpreadPlan, named: number | undefined): string =>
  `${gpusOfNamed(x.gpus, named)} ${x.gpus === 1 ? 'serves' : 'serve'} ${countOf(x.users, 'concurrent request')} ${asReplicas(x)}: ${latencyText(x.point)}`;

/**
 * The Concurrent requests figure: "72 per replica at most (253 fit in memory), 500 in all on the 7 replicas", the point
 * being the fullest replica's; one replica's batch as ever ("500 per replica (3,310 fit in memory)") with no spread.
 */
export function concurrentValue(x: InferencePointJson, spread: Pick<SpreadPlan, 'users' | 'replicas'> | undefined): string {
  const fit = `(${x.maxBatch.toLocaleString('en-US')} fit in memory)`;
  if (spread === undefined || spread.replicas <= 1) return `${x.batch.toLocaleString('en-US')} per replica ${fit}`;
  const most = spread.users % spread.replicas === 0 ? '' : ' at most';
  return `${x.batch.toLocaleString('en-US')} per replica${most} ${fit}, ${formatGrouped(spread.users)} in all on the ${countOf(spread.replicas, 'replica')}`;
}

/**
 * "GPUs for 500 concurrent requests": "28 GPUs: 7 replicas of TP 4 · PP 1 at up to 72 …", and against the GPUs named, the
 * spare ones. A plan that `missed` the bounds (the closest, where none keeps them) is only placed among the GPUs named
 * ("all 16 named", "8 of the 10 named"): QA: "(the 16 GPUs named are enough)" beside a headline saying no plan serves
 * them on those GPUs.
 */
export function usersFigure(x: SpreadPlan, named: number | undefined, missed = false): AnswerFigure {
  const spare = named === undefined ? 0 : named - x.gpus;
  const among = named === undefined ? '' : spare === 0 ? (named === 1 ? ' (the 1 GPU named)' : ` (all ${formatGrouped(named)} named)`)
    : ` (${formatGrouped(x.gpus)} of the ${formatGrouped(named)} named)`;
  const standing = named === undefined ? '' : spare < 0 ? ` (more than ${namedGpus(named)})` : missed ? among
    : ` (${namedGpus(named)} ${named === 1 ? 'is' : 'are'} enough${spare > 0 ? `: ${countOf(spare, 'GPU')} spare` : ''})`;
  return { label: `GPUs for ${countOf(x.users, 'concurrent request')}`, value: `${countOf(x.gpus, 'GPU')}: ${asReplicas(x).slice('as '.length)}${standing}` };
}

/**
 * The other plans a reader weighs against the headline's: with GPUs named, the least time per token on them where it
 * takes more than the fewest ("For the least time per token on the 16 GPUs named: …"); with none named, one replica
 * holding them all (the plan reading them as one replica's batch gives), on the fewest GPUs that does.
 */
export function usersNotes(search: SpreadSearch, named: number | undefined): string[] {
  const { fewest, fastest, single } = search;
  if (fewest === undefined) return [];
  if (named !== undefined) {
    if (fastest === undefined || fastest.gpus <= fewest.gpus || fastest.point.decodeStepSeconds >= fewest.point.decodeStepSeconds) return [];
    return [`For the least time per token on ${namedGpus(named)}: ${countOf(fastest.gpus, 'GPU')} ${asReplicas(fastest)}, ${latencyText(fastest.point)}.`];
  }
  if (fewest.replicas === 1) return [];
  const all = formatGrouped(fewest.users);
  if (single === undefined) return [`No one replica holds all ${all} within the bounds.`];
  const takes = single.gpus === fewest.gpus ? `the same ${countOf(single.gpus, 'GPU')}` : countOf(single.gpus, 'GPU');
  return [`One replica holding all ${all} takes ${takes}: ${shapeText(single.point)}, ${latencyText(single.point)}.`];
}

/**
 * What comes closest where no plan holds the users within the bounds, after "no plan serves 500 concurrent requests on the
 * 8 GPUs within …: ": "the 8 GPUs hold 288 within them, as 2 replicas of TP 4 · PP 1 at 144 …; all 500 come closest as 2
 * replicas of TP 4 · PP 1 at 250 …: 62.3 ms per token, first token in 410 ms".
 */
export function usersMissedText(search: SpreadSearch, named: number | undefined): string {
  const { mostWithin, nearest } = search;
  // Where each replica is at the most its memory holds, memory (not latency) is what stops more: said (QA: "1 H100 and 300
  // users" said only "the 1 GPU hold 221 within them", the 221 being all that fit in its memory).
  const full = mostWithin !== undefined && mostWithin.batch >= mostWithin.point.maxBatch
    ? `; memory holds at most ${formatGrouped(mostWithin.users)} in ${mostWithin.replicas === 1 ? 'that replica' : 'those replicas'}` : '';
  const most = mostWithin === undefined || named === undefined ? []
    : [`the ${countOf(named, 'GPU')} ${named === 1 ? 'holds' : 'hold'} ${formatGrouped(mostWithin.users)} within them, ${asReplicas(mostWithin)} (${latencyText(mostWithin.point)})${full}`];
  // With no GPUs named the nearest is one request per replica, as many replicas as requests: said as that.
  const alone = nearest !== undefined && named === undefined && nearest.batch === 1;
  const closest = nearest === undefined ? []
    : alone ? [`even one request per replica misses them, ${shapeText(nearest.point)} coming closest: ${latencyText(nearest.point)}`]
      : [`all ${formatGrouped(nearest.users)} come closest ${asReplicas(nearest)}: ${latencyText(nearest.point)}`];
  return [...most, ...closest].join('; ');
}

/**
 * The users' plan without speculative decoding, said beside a speculating one (`speculating`, its fewest GPUs; undefined
 * where none keeps the bounds), from the same spread search with no draft (`plain`): "Without speculative decoding: 8 GPUs
 * serve 500 concurrent requests as 1 replica of TP 4 · PP 2: …: 16 GPUs with speculation, 8 without; speculation pays …",
 * as the plan of one replica's batch and the plan at a rate are compared (serving-without-speculation.ts).
 */
export function usersWithoutSpeculation(speculating: SpreadPlan | undefined, plain: SpreadSearch, users: number, named: number | undefined, bounds: string | undefined): string {
  const without = plain.fewest;
  if (without === undefined) {
    const on = named === undefined ? '' : ` on the ${countOf(named, 'GPU')}`;
    return `Without speculative decoding no plan serves ${countOf(users, 'concurrent request')}${on} within ${bounds ?? 'the latency bounds'}${speculating === undefined ? ' either' : ''}; ${SPECULATION_TRADE}.`;
  }
  const gpus = speculating === undefined ? '' : `: ${countOf(speculating.gpus, 'GPU')} with speculation, ${formatGrouped(without.gpus)} without`;
  return `Without speculative decoding: ${usersHeadline(without, named)}${gpus}; ${SPECULATION_TRADE}.`;
}
