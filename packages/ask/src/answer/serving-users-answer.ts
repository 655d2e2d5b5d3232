import { runInference } from '@trainplan/protocol';
import { countOf } from '@trainplan/units';
import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';
import { servingBudget } from './serving-budget.ts';
import { costHeadline, noPriceNote } from './serving-cost.ts';
import { generationFigure, pointFigures } from './serving-figures.ts';
import { servingParallelNotes } from './serving-parallel-notes.ts';
import { ASKS_FIT, askedWarnings, boundsNote, lengthsText } from './serving-plan-text.ts';
import { precisionConfiguration } from './serving-precision.ts';
import { boundsText, requestOf, type Batching, type Served } from './serving-request.ts';
import { speculationConfiguration, speculativeOf } from './serving-speculation.ts';
import { shapeText } from './serving-text.ts';
import {
  usersAssumption, usersFigure, usersHeadline, usersMissedText, usersNotes, usersWithoutSpeculation,
} from './serving-users.ts';
import { spreadUsers, type ReplicaShape } from './spread-users.ts';

/** The deepest pipeline runInference tries on a GPU count (@trainplan/search's MAX_DEFAULT_PIPELINE). */
const MAX_PIPELINE_ON_COUNT = 16;

/**
 * The answer to a number of concurrent requests in all (usersInAll): the replica shapes that fit in the GPUs named at
 * least once (or those runInference tries with none named), each planned at one batch at a time for spreadUsers; the plan on the fewest GPUs leads,
 * its figures the fullest replica's from runInference asked again on the plan's GPUs (its data). Where none keeps the
 * bounds, what comes closest, and with GPUs named the plan with no count. Undefined where no shape holds the model (or the
 * request is refused): the answer at that batch then says why, as for any concurrency.
 */
export function answerUsers(q: ParsedQuestion, users: number, stated: number | undefined, batching: Batching, subject: string,
  baseOf: (data: Served, more: readonly string[]) => Omit<Answer, 'kind' | 'ok' | 'headline' | 'figures' | 'notes'>): Answer | undefined {
  const asked = q.parameters;
  const spec = speculativeOf(asked);
  const runAt = (x: { tensor: number; pipeline: number }, batch: number, gpus: number | undefined, p = asked) =>
    runInference(requestOf({ ...p, tensor: x.tensor, pipeline: x.pipeline, concurrency: batch }, gpus, batching));
  // The users spread over one shape's replicas, with the question's draft (`p`, the question's parameters) or, said beside a
  // speculating plan, without it.
  const search = (gpus: number | undefined, p = asked) => {
    // Each shape's largest batch that fits, from one run at a single request with no bound (every shape holds that). With
    // GPUs named, every shape that fits in them at least once, not only those dividing them (runInference's shapes on a
    // count): the users may leave GPUs idle. QA: on 10 H100 only shapes of 1, 2, 5 and 10 GPUs were tried, so 150 users
    // were "not served on the 10 GPUs" while one replica of TP 4 · PP 2 on 8 of them holds them. So the probe names no
    // count and asks every pipeline depth up to runInference's deepest on a count (16; its tensor degrees are the powers
    // of two up to a node's NVLink domain either way), the shapes past the count then left out.
    const unbounded = { ...p, concurrency: 1, maxTokenSeconds: undefined, maxFirstTokenSeconds: undefined };
    const depths = Array.from({ length: Math.min(MAX_PIPELINE_ON_COUNT, gpus ?? 0) }, (_, i) => i + 1);
    const probe = runInference({ ...requestOf(unbounded, undefined, batching), ...(gpus !== undefined && p.pipeline === undefined && { pipeline: depths }) });
    const shapes: ReplicaShape[] = !probe.ok ? []
      : probe.byShape.flatMap((s) => (s.ok && s.largestBatch.gpus <= (gpus ?? Number.POSITIVE_INFINITY)
        ? [{ tensor: s.tensor, pipeline: s.pipeline, gpus: s.largestBatch.gpus, maxBatch: s.largestBatch.maxBatch }] : []));
    return spreadUsers(users, shapes, (shape, batch) => {
      const one = runAt(shape, batch, shape.gpus, p);
      const point = one.ok ? one.best ?? one.closest?.point : undefined;
      return point === undefined ? undefined : { point, within: one.ok && one.best !== undefined };
    }, gpus, { maxTokenSeconds: p.maxTokenSeconds, maxFirstTokenSeconds: p.maxFirstTokenSeconds });
  };
  const p = asked;
  const found = search(stated);
  const plan = found.fewest ?? found.nearest ?? found.mostWithin;
  const result = plan === undefined ? undefined : runAt(plan.point, plan.batch, plan.gpus);
  if (plan === undefined || result === undefined || !result.ok) return undefined;
  const x = result.best ?? result.closest?.point ?? plan.point;
  const base = baseOf(result, [usersAssumption(users)]);
  const bounds = boundsText(p);
  const replicas = plan.replicas > 1 ? ` · ${countOf(plan.replicas, 'replica')}` : '';
  const configuration = `${shapeText(x)} · batch ${x.batch.toLocaleString('en-US')}${replicas} · ${precisionConfiguration(p)} · ${lengthsText(p)}${speculationConfiguration(spec)}`;
  // Speculating: the users' plan without a draft said beside, as for one replica's batch (withoutSpeculation).
  const without = spec === undefined ? [] : [usersWithoutSpeculation(found.fewest, search(stated, { ...p, speculative: undefined }), users, stated, bounds)];
  // The GPUs the users take are said apart where they are several replicas, or against the GPUs named (the spare ones).
  const taken = plan.replicas > 1 || stated !== undefined ? [usersFigure(plan, stated, found.fewest === undefined)] : [];
  const figures = [...pointFigures(x, p, plan.gpus, q.text, q.stated.deadlineSeconds, plan), ...taken, ...generationFigure(x, p, plan.gpus)];
  const memory = { memoryPerGpuBytes: x.totalBytesPerGpu, memoryCapacityBytes: x.capacityBytes };
  if (found.fewest !== undefined) {
    const budget = servingBudget(q, p, x, plan.gpus);
    const planned = `${usersHeadline(plan, stated)}${costHeadline(x, p, q.text, q.stated.deadlineSeconds)}${budget.clause}`;
    return {
      ...base, kind: 'answer', ok: true, configuration, figures, ...memory,
      headline: `${budget.verdict}${subject}: ${ASKS_FIT.test(q.text) ? 'fits; ' : ''}${planned}${boundsNote(bounds, true)}`,
      notes: [...servingParallelNotes(p, x, plan.gpus), ...askedWarnings(result.warnings, p), ...usersNotes(found, stated), ...without, ...noPriceNote(p, q.text)],
    };
  }
  // None keeps the bounds: with GPUs named, the fewest that would with none named (the plan "on more GPUs" a rate's closest says).
  const free = stated === undefined ? undefined : search(undefined).fewest;
  const on = stated === undefined ? '' : ` on the ${countOf(stated, 'GPU')}`;
  return {
    ...base, kind: 'answer', ok: false, ...memory,
    headline: `${subject}: no plan serves ${countOf(users, 'concurrent request')}${on} within ${bounds ?? 'the latency bounds'}: ${usersMissedText(found, stated)}`,
    configuration: `${plan === found.nearest ? 'closest to the bounds, missing them' : `closest, holding ${plan.users.toLocaleString('en-US')} of the ${users.toLocaleString('en-US')}`}: ${configuration}`,
    figures: figures.map((f) => ({ ...f, label: `${f.label} (closest)` })),
    notes: [...askedWarnings(result.warnings, p), ...(free === undefined ? [] : [`On more GPUs than named: ${usersHeadline(free, undefined)}.`]), ...without],
  };
}
