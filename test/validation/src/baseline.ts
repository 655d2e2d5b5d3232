import type { ScoredRow } from './score.ts';

/**
 * The strawman the issue measures against: step = hardware FLOPs / (n · peak · η) with one constant
 * η per GPU and precision, fitted to these same rows (least squares on log error, i.e. the geometric
 * mean of the achieved fractions). Reported beside trainplan's error.
 */
export function constantEfficiencyBaseline(rows: readonly ScoredRow[]): { mape: number; efficiency: Record<string, number> } {
  const byGpu = new Map<string, { ideal: number; measured: number }[]>();
  for (const r of rows) {
    const e = r.estimate;
    const gpus = e.resolved.gpus;
    const peak = (e.hardwareFlopsPerStep / e.stepTimeSeconds / gpus) / e.hfu;
    const ideal = e.hardwareFlopsPerStep / (gpus * peak);
    const list = byGpu.get(e.resolved.gpu + '/' + e.resolved.precision) ?? [];
    list.push({ ideal, measured: r.measuredStepSeconds });
    byGpu.set(e.resolved.gpu + '/' + e.resolved.precision, list);
  }
  const efficiency: Record<string, number> = {};
  let sum = 0;
  for (const [gpu, list] of byGpu) {
    const eta = Math.exp(list.reduce((s, x) => s + Math.log(x.ideal / x.measured), 0) / list.length);
    efficiency[gpu] = eta;
    for (const x of list) sum += Math.abs(x.ideal / eta - x.measured) / x.measured;
  }
  return { mape: sum / rows.length, efficiency };
}

