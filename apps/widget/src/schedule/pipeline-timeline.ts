/**
 * The pipeline schedule as a timeline of forward and backward passes, one row per stage, for the
 * picture the widget draws. Stages are equal and a micro-batch's backward takes `backwardRatio`
 * times its forward (2 without recompute: Narayanan et al. SC'21 §3.2, "the backward pass is
 * roughly twice the forward"); one model chunk of the interleaved schedule takes 1/v of each.
 *
 * The order of operations on each stage is Megatron-LM's (megatron/core/pipeline_parallel/schedules.py):
 * - 1F1B: stage s runs p − s − 1 warm-up forwards, then alternates one forward and one backward, then
 *   drains the remaining backwards (SC'21 §2.2.1, Figure 4 top).
 * - interleaved: micro-batches go in groups of p through chunk 0, then chunk 1, …; warm-up is
 *   (p − s − 1)·2 + (v − 1)·p chunk-forwards (`get_num_warmup_microbatches`), backwards run the
 *   chunks in reverse (SC'21 §2.2.2, Figure 4 bottom).
 * - GPipe: all forwards, then all backwards (Huang et al. 2019).
 * Start times then follow from the data dependencies alone, so the bubble is whatever the order
 * leaves idle: (p − 1)/(v·m) of the ideal time for 1F1B and interleaved, as SC'21 derives.
 */
export type TimelineSchedule = '1f1b' | 'interleaved' | 'gpipe';

export interface TimelineOp {
  readonly stage: number;
  readonly microBatch: number;
  /** Model chunk (0 … v − 1); always 0 without interleaving. */
  readonly chunk: number;
  readonly kind: 'forward' | 'backward';
  /** In units of one whole-stage forward of one micro-batch. */
  readonly start: number;
  readonly end: number;
}

export interface Timeline {
  readonly stages: number;
  readonly microBatches: number;
  readonly virtualStages: number;
  readonly schedule: TimelineSchedule;
  readonly ops: readonly TimelineOp[];
  /** Time from the first forward to the last backward. */
  readonly makespan: number;
  /** Busy time of one stage: m · (1 + backwardRatio). */
  readonly busyPerStage: number;
  /** (makespan − busy) / busy: the bubble fraction of the ideal time. */
  readonly bubbleFraction: number;
}

export type TimelineResult = { ok: true; timeline: Timeline } | { ok: false; message: string };

interface Planned { readonly microBatch: number; readonly chunk: number; readonly kind: 'forward' | 'backward' }

/** Megatron's mapping of the k-th chunk-forward (or backward) of a stage to (micro-batch, chunk). */
function interleavedOp(k: number, p: number, v: number, kind: 'forward' | 'backward'): Planned {
  const inGroup = k % (p * v);
  const chunk = Math.floor(inGroup / p);
  return { microBatch: Math.floor(k / (p * v)) * p + (k % p), chunk: kind === 'forward' ? chunk : v - 1 - chunk, kind };
}

function stageOrder(stage: number, p: number, m: number, v: number, schedule: TimelineSchedule): Planned[] {
  const total = m * v;
  const fwd = (k: number): Planned => (v === 1 ? { microBatch: k, chunk: 0, kind: 'forward' } : interleavedOp(k, p, v, 'forward'));
  const bwd = (k: number): Planned => (v === 1 ? { microBatch: k, chunk: 0, kind: 'backward' } : interleavedOp(k, p, v, 'backward'));
  const order: Planned[] = [];
  if (schedule === 'gpipe') {
    for (let k = 0; k < total; k += 1) order.push(fwd(k));
    for (let k = 0; k < total; k += 1) order.push(bwd(k));
    return order;
  }
  const warmup = Math.min(total, v === 1 ? p - stage - 1 : (p - stage - 1) * 2 + (v - 1) * p);
  let f = 0;
  let b = 0;
  for (; f < warmup; f += 1) order.push(fwd(f));
  while (f < total) {
    order.push(fwd(f));
    f += 1;
    order.push(bwd(b));
    b += 1;
  }
  for (; b < total; b += 1) order.push(bwd(b));
  return order;
}

const key = (stage: number, op: Planned): string => `${stage}|${op.microBatch}|${op.chunk}|${op.kind[0]}`;

/** The operation that must finish before `op` can start on `stage` (undefined for the very first). */
function dependency(stage: number, op: Planned, p: number, v: number): string | undefined {
  if (op.kind === 'forward') {
    if (stage > 0) return key(stage - 1, op);
    return op.chunk > 0 ? key(p - 1, { ...op, chunk: op.chunk - 1 }) : undefined;
  }
  if (stage < p - 1) return key(stage + 1, op);
  return op.chunk < v - 1 ? key(0, { ...op, chunk: op.chunk + 1 }) : key(stage, { ...op, kind: 'forward' });
}

/**
 * The timeline of one step for p stages, m micro-batches and v chunks per stage. Invalid shapes are
 * an answer (`ok: false`), as Megatron refuses them: the interleaved schedule needs m divisible by p.
 */
export function pipelineTimeline(input: {
  stages: number; microBatches: number; virtualStages: number; schedule: TimelineSchedule; backwardRatio?: number;
}): TimelineResult {
  const { stages: p, microBatches: m, virtualStages: v, schedule } = input;
  const ratio = input.backwardRatio ?? 2;
  if (![p, m, v].every((n) => Number.isInteger(n) && n >= 1)) return { ok: false, message: 'stages, micro-batches and virtual stages must be whole numbers ≥ 1' };
  if (schedule === 'interleaved' && v > 1 && m % p !== 0) {
    return { ok: false, message: `the interleaved schedule needs micro-batches (${m}) divisible by pipeline stages (${p})` };
  }
  const effectiveV = schedule === 'interleaved' ? v : 1;
  const forwardTime = 1 / effectiveV;
  const backwardTime = ratio / effectiveV;
  const orders = Array.from({ length: p }, (_, s) => stageOrder(s, p, m, effectiveV, schedule));
  const next = new Array<number>(p).fill(0);
  const free = new Array<number>(p).fill(0);
  const done = new Map<string, number>();
  const ops: TimelineOp[] = [];
  const total = orders.reduce((n, o) => n + o.length, 0);
  // Each pass over the stages schedules at least one operation when the order is deadlock-free,
  // which Megatron's orders are; the bound turns a bug into an answer instead of a hang.
  for (let pass = 0; ops.length < total && pass <= total; pass += 1) {
    for (let s = 0; s < p; s += 1) {
      for (;;) {
        const op = orders[s]![next[s]!];
        if (!op) break;
        const dep = dependency(s, op, p, effectiveV);
        const ready = dep === undefined ? 0 : done.get(dep);
        if (ready === undefined) break;
        const start = Math.max(ready, free[s]!);
        const end = start + (op.kind === 'forward' ? forwardTime : backwardTime);
        done.set(key(s, op), end);
        ops.push({ stage: s, ...op, start, end });
        free[s] = end;
        next[s] = next[s]! + 1;
      }
    }
  }
  if (ops.length < total) return { ok: false, message: 'the schedule deadlocked (a bug: please report the p, m, v)' };
  const makespan = Math.max(...free);
  const busyPerStage = m * (1 + ratio);
  return {
    ok: true,
    timeline: { stages: p, microBatches: m, virtualStages: effectiveV, schedule, ops, makespan, busyPerStage, bubbleFraction: (makespan - busyPerStage) / busyPerStage },
  };
}
