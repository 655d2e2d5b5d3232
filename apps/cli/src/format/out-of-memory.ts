import { memoryAnswer, validateScenario, type EstimateJson, type MemoryOk } from '@trainplan/protocol';

/** What the report says of a plan refused as out of memory: the plan as resolved, and what fills its GPU. */
export type OutOfMemoryPlan = Pick<MemoryOk, 'memory' | 'resolved' | 'parameters'>;

/**
 * For the estimate report: the plan and memory of each scenario the estimate refused as out of memory (the
 * protocol's memoryAnswer, as POST /v1/memory gives it), by its index in `input`; undefined for every other answer.
 * The estimate's refusal states two totals; this is what fills the GPU, what one changes to make it fit, and the
 * defaults the plan took (an omitted recompute is none).
 */
export function outOfMemoryBreakdown(input: unknown, answer: EstimateJson | readonly EstimateJson[]): (index: number) => OutOfMemoryPlan | undefined {
  const answers: readonly EstimateJson[] = Array.isArray(answer) ? answer : [answer as EstimateJson];
  const scenarios: readonly unknown[] = Array.isArray(input) ? input : [input];
  return (index) => {
    const a = answers[index];
    if (a === undefined || a.ok || a.reason !== 'out-of-memory') return undefined;
    const v = validateScenario(scenarios[index]);
    const m = v.ok ? memoryAnswer(v.value) : undefined;
    return m?.ok === true ? m : undefined;
  };
}
