import { runInference, widestShape } from '@trainplan/protocol';
import { countOf } from '@trainplan/units';
import { clusterGpusOf } from '../defaults.ts';
import { modelNameOf } from '../model-of.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';
import { gpuName } from './describe-estimate.ts';
import { answerHelp } from './help-answer.ts';
import { assumedBoundNote } from './assumed-bound.ts';
import { refusalWords } from './issue-words.ts';
import { servingParallelNotes, servingParallelProblems } from './serving-parallel-notes.ts';
import { contextNote, contextProblem } from '../serving-context.ts';
import { isLoaded, loadFigure } from './serving-load.ts';
import { draftName, speculationAssumption, speculationConfiguration, speculativeOf } from './serving-speculation.ts';
import { costHeadline, noPriceNote } from './serving-cost.ts';
import { servingBudget } from './serving-budget.ts';
import { ASKS_MEMORY, memoryLead } from './serving-memory.ts';
import { ASKS_KV_SIZE, kvCacheSizeText, withoutAssumedBounds } from './kv-cache-size.ts';
import { kvCacheAssumption, precisionConfiguration } from './serving-precision.ts';
import { replicaRequestsPerSecond, requestsPerSecondText, shapeText } from './serving-text.ts';
import { asksMostConcurrent, mostConcurrentLead, otherReplicaNote } from './serving-capacity.ts';
import { lowestLatencyAsked, lowestLatencyLead } from './serving-latency.ts';
import { asksFewestServing, fewestGpusToServe, fewestLead } from './serving-fewest.ts';
import { rateConcurrencyText, usersInAll } from './serving-users.ts';
import { answerUsers } from './serving-users-answer.ts';
import { closestFigures, generationFigure, pointFigures } from './serving-figures.ts';
import { cachedPrefixOf, prefixCaching } from './serving-prefix.ts';
import {
  ASKS_FIT, askedWarnings, boundsNote, closestConfiguration, fastestNote, lengthsText, memoryShareNote, missedText, planHeadline,
} from './serving-plan-text.ts';
import { fp8Remedy, working, workingNote } from './serving-remedy.ts';
import { boundsText, pointAt, requestOf, type Batching, type Served } from './serving-request.ts';
import { withoutSpeculation } from './serving-without-speculation.ts';

/**
 * "Can I serve 70B on one H100 node?", "how many GPUs to serve llama 3 8b at 1000 QPS": the protocol's
 * runInference with continuous batching (requests join and leave the batch at every decode step, as
 * vLLM and TensorRT-LLM serve), on the GPUs the question names (each replica's TP × PP divides them).
 * The answer is the replica with the most tokens/s per GPU within the latency bounds; with a request
 * rate (sent as the protocol's requestsPerSecond), the plan needing the fewest GPUs for it, the wait for a
 * slot counted against the first-token bound, worded from the protocol's load (serving-load.ts). With speculative
 * decoding (the protocol's `speculative`) its figures are worded (serving-speculation.ts) and the plan without it
 * is said beside, from a second run: speculation wins at small batches and loses at large ones. With a number of
 * concurrent requests, the service's in all (serving-users.ts), the plan on the fewest GPUs that holds them spread over
 * replicas of one shape (spread-users.ts), each shape's batches asked of runInference one at a time (serving-users-answer.ts); speculating,
 * each replica is one pipeline stage with its draft, and the users' spread without a draft is said beside.
 */

const CONTINUOUS = 'continuous batching (requests join and leave the batch at every decode step, as vLLM and TensorRT-LLM in-flight batching serve)';
const STATIC = 'static batching, as asked (a batch of requests starts and finishes together)';
/** Words of a question that asks for static batching ("with static batching", "statically batched"); continuous otherwise. */
const ASKS_STATIC = /\bstatic(?:ally)?[\s-]+batch(?:ing|ed|es)?\b/i;

/** How a memory answer labels its configuration, which is not the headline's smallest replica (memoryLead). */
const FASTEST_WITHIN_BOUNDS = 'fastest plan within the bounds, not the smallest replica above';

/** Words of a question that asks for a count of GPUs or nodes. */
const ASKS_COUNT = /\bhow many\b|\bnumber of\b/i;

export function answerServing(asked: ParsedQuestion): Answer {
  // A KV cache's size asked with no latency bound is planned with none (kv-cache-size.ts).
  const q = withoutAssumedBounds(asked);
  const p = q.parameters;
  // The GPUs the question gives to serving; undefined when it names no count.
  const stated = clusterGpusOf(p);
  // What only continuous batching plans (a rate, a cached prefix) the protocol refuses static; issue-words.ts words it.
  const batching: Batching = ASKS_STATIC.test(q.text) ? 'static' : 'continuous';
  // A prompt and output past the context stated: no engine serves the request asked (serving-context.ts).
  const context = contextProblem(q.stated, p);
  const parallelProblems = [...servingParallelProblems(p), ...(context === undefined ? [] : [context])];
  if (parallelProblems.length > 0) return answerHelp(q, parallelProblems);
  const spec = speculativeOf(p);
  // Speculation asked with no draft to assume (speculative.ts) is said in the headline too: the plan is without it.
  const drafting = spec !== undefined ? ` with a ${draftName(spec)} draft` : p.speculative === false ? ' without speculative decoding (no draft named)' : '';
  const subject = `${modelNameOf(p)}${drafting} on ${stated === undefined ? '' : `${stated} × `}${gpuName(p.gpu ?? '')}`;
  const baseOf = (data: Served, more: readonly string[] = []) => ({
    intent: q.intent, question: q.text, examples: [], data,
    assumptions: [...q.defaults.map((d) => d.text), ...contextNote(q.stated, p), batching === 'static' ? STATIC : CONTINUOUS, ...kvCacheAssumption(p), ...prefixCaching(p, cachedPrefixOf(data)), ...speculationAssumption(spec), ...more],
  });
  // "To 500 concurrent users": the service's requests in all, spread over replicas (serving-users.ts), on the fewest GPUs.
  const users = usersInAll(q);
  const spread = users === undefined ? undefined : answerUsers(q, users, stated, batching, subject, baseOf);
  if (spread !== undefined) return spread;
  // "Minimum number of H100s to serve …" with no count named: the plan on the fewest that serve (serving-fewest.ts). Not at a
  // rate, whose plan is already the fewest GPUs for it.
  const fewest = asksFewestServing(q) ? fewestGpusToServe(requestOf(p, 1, batching)) : undefined;
  const gpus = stated ?? fewest?.gpus;
  const result = fewest?.result ?? runInference(requestOf(p, gpus, batching));
  if (!result.ok) return answerHelp(q, [refusalWords(result)]);
  const bounds = boundsText(p);
  const base = baseOf(result);
  const without = spec === undefined ? [] : withoutSpeculation(result, p, gpus, bounds, batching);
  const best = result.best;
  if (best !== undefined) {
    // The most requests held at once asked ("max batch", "how many sequences fit"): the largest batch that fits leads.
    const mostAsked = asksMostConcurrent(q);
    // A count asked with no request rate: one replica's GPUs answer it for one replica's load (not a count of requests).
    const countNote = p.requestsPerSecond === undefined && ASKS_COUNT.test(q.text) && !mostAsked
      ? [`One replica of ${countOf(best.gpus, 'GPU')} serves ${requestsPerSecondText(replicaRequestsPerSecond(best, p.outputTokens ?? 1))}; give a load ("at 100 requests/s") for the GPUs it needs.`] : [];
    // A stated concurrency is each replica's: said in the total when the plan holds several (the load's, or as many as the GPUs named hold).
    const replicaCount = isLoaded(best) ? best.load.replicas : gpus === undefined ? 1 : gpus / best.gpus;
    const where = isLoaded(best) ? `the ${countOf(replicaCount, 'replica')}` : `the ${countOf(gpus ?? best.gpus, 'GPU')}`;
    // With a rate stated beside it, what the rate makes of concurrency is said too (rateConcurrencyText).
    const perReplica = p.concurrency === undefined || replicaCount <= 1 ? []
      : isLoaded(best) && q.stated.concurrency !== undefined ? [rateConcurrencyText(p.concurrency, best, p.outputTokens ?? 1)]
        : [`${p.concurrency.toLocaleString('en-US')} concurrent requests taken per replica: ${(p.concurrency * replicaCount).toLocaleString('en-US')} on ${where}`];
    // A KV cache's size asked leads with that size, the plan it is held in after it.
    const kv = ASKS_KV_SIZE.test(q.text) ? kvCacheSizeText(p, best) : undefined;
    // A memory question leads with memory (the fewest GPUs that hold the model); the fastest plan follows in the notes. Not
    // one that asks the KV cache's size: that leads, on each GPU of this plan, so no other replica is said beside it.
    const memory = kv === undefined && fewest === undefined && ASKS_MEMORY.test(q.text) ? memoryLead(result) : undefined;
    const most = kv === undefined && fewest === undefined && memory === undefined && mostAsked
      ? mostConcurrentLead(q, result, best, gpus, (batch) => pointAt(p, best, batch, batching)) : undefined;
    // A latency asked with no bound: the lowest latency leads, the plan's throughput traded for it after; the configuration
    // and figures are that lowest-latency point's, which the question asks about.
    const quickest = kv === undefined && fewest === undefined && memory === undefined && most === undefined ? lowestLatencyAsked(q, result) : undefined;
    const shown = quickest ?? best;
    // A budget stated ("is $5k enough … for a week"): held to the plan's cost over the period served, "No: " first where asked.
    const budget = servingBudget(q, p, best, gpus);
    const planned = `${planHeadline(best, gpus)}${costHeadline(best, p, q.text, q.stated.deadlineSeconds)}${budget.clause}`;
    const plan = `${planned}${boundsNote(bounds, p.requestsPerSecond !== undefined)}`;
    // The headline's replica is the smallest that holds the model; the configuration and figures are the fastest plan.
    // Where that is another replica, both say so, never left to read as one plan (the notes come after the configuration
    // in every render, so none says "below").
    const other = memory !== undefined && (memory.tensor !== best.tensor || memory.pipeline !== best.pipeline);
    const fastest = memory === undefined ? kv === undefined ? [] : [`The plan: ${plan}.`]
      : [`${other ? 'The configuration and figures are the fastest plan within the bounds, not the smallest replica of the headline' : 'The fastest plan within the bounds is that replica'}: ${plan}.`];
    const configuration = `${quickest === undefined ? '' : 'lowest latency: '}${shapeText(shown)} · batch ${shown.batch.toLocaleString('en-US')} · ${precisionConfiguration(p)} · ${lengthsText(p)}${speculationConfiguration(spec)}`;
    const lead = kv ?? (fewest === undefined ? undefined : fewestLead(fewest, bounds !== undefined, plan)) ?? memory?.text ?? most
      ?? (quickest === undefined ? undefined : lowestLatencyLead(quickest, best, planned, bounds));
    return {
      ...base, kind: 'answer', ok: true, assumptions: [...base.assumptions, ...perReplica],
      headline: `${budget.verdict}${subject}: ${lead ?? `${ASKS_FIT.test(q.text) ? 'fits; ' : ''}${plan}`}`,
      configuration: other ? `${FASTEST_WITHIN_BOUNDS}: ${configuration}` : configuration,
      figures: [...pointFigures(shown, p, gpus, q.text, q.stated.deadlineSeconds), ...loadFigure(shown, gpus), ...generationFigure(shown, p, gpus)],
      memoryPerGpuBytes: shown.totalBytesPerGpu, memoryCapacityBytes: shown.capacityBytes,
      notes: [...fastest, ...servingParallelNotes(p, best, gpus), ...askedWarnings(result.warnings, p), ...countNote, ...(most === undefined ? [] : otherReplicaNote(result, best, p, gpus)),
        ...(quickest === undefined ? fastestNote(result) : []), ...memoryShareNote(p), ...without, ...noPriceNote(p, q.text)],
    };
  }
  if (result.unservable !== undefined) {
    // Nothing fits on the GPUs named: what works on more of them.
    const widest = widestShape(result.byShape);
    const why = widest === undefined || widest.ok ? 'no tensor × pipeline split of them serves it' : `${shapeText(widest)}: ${widest.message}`;
    // From the search the CLI's remedy names its counts from, so that both name one count.
    const works = gpus === undefined ? undefined : working(result, requestOf(p, gpus, batching));
    const fp8 = fp8Remedy(p, requestOf(p, gpus, batching), gpus, bounds);
    return {
      ...base, kind: 'answer', ok: false,
      headline: `${subject}: ${kvFirst(q, p)}does not fit for serving (${why})${fp8 === undefined ? '' : `; ${fp8}`}`,
      figures: works === undefined ? [] : closestFigures(works.point, p, undefined),
      ...(works !== undefined && { configuration: `closest that works, not what was asked: ${shapeText(works.point)} on ${countOf(works.on, 'GPU')} · ${precisionConfiguration(p)} · ${lengthsText(p)}` }),
      notes: [
        ...(works === undefined ? [] : [workingNote(works, p, batching, bounds)]),
        ...without,
      ],
    };
  }
  const closest = result.closest;
  const missed = `${missedText(bounds, p, gpus)}${closest === undefined ? '' : `: ${closest.why}`}`;
  // A memory question ("how much VRAM to serve 70b with 128k context") is answered by memory, which the latency bounds do
  // not change: the smallest replica that holds it leads, the bounds missed after it, with the protocol's warnings first
  // (a context past the model's own).
  const memory = ASKS_MEMORY.test(q.text) ? memoryLead(result) : undefined;
  // A KV cache's size asked: that size leads, whatever the latency bounds, as memory does below.
  const kv = ASKS_KV_SIZE.test(q.text) ? kvCacheSizeText(p, closest?.point) : undefined;
  if (kv !== undefined) {
    return {
      ...base, kind: 'answer', ok: true,
      headline: `${subject}: ${kv}`,
      figures: closest === undefined ? [] : closestFigures(closest.point, p, gpus),
      ...(closest !== undefined && { configuration: closestConfiguration(closest.point, p) }),
      notes: [...askedWarnings(result.warnings, p), `Latency, the figures being the closest plan's: ${missed}`, ...assumedBoundNote(q, closest?.point), ...fastestNote(result), ...without],
    };
  }
  if (memory !== undefined) {
    return {
      ...base, kind: 'answer', ok: true,
      headline: `${subject}: ${memory.text}`,
      figures: closest === undefined ? [] : closestFigures(closest.point, p, gpus),
      ...(closest !== undefined && { configuration: closestConfiguration(closest.point, p) }),
      notes: [...askedWarnings(result.warnings, p), `Latency, the figures being the closest plan's: ${missed}`, ...assumedBoundNote(q, closest?.point), ...fastestNote(result), ...without],
    };
  }
  return {
    ...base, kind: 'answer', ok: false,
    headline: `${subject}: ${missed}`,
    figures: closest === undefined ? [] : closestFigures(closest.point, p, gpus),
    ...(closest !== undefined && { configuration: closestConfiguration(closest.point, p) }),
    notes: [...assumedBoundNote(q, closest?.point), ...askedWarnings(result.warnings, p), ...fastestNote(result), ...without],
  };
}

/** A KV cache's size asked where nothing serves: the size first ("KV cache 320 KiB per token …; the model "), else nothing. */
function kvFirst(q: ParsedQuestion, p: AskParameters): string {
  const kv = ASKS_KV_SIZE.test(q.text) ? kvCacheSizeText(p, undefined) : undefined;
  return kv === undefined ? '' : `${kv}; the model `;
}
