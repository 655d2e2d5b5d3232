import { stageText, TIGHT_MEMORY_SHARE, type PlanEstimate, type PlanInfeasible } from '@trainplan/planner';
import { formatBytes, type Bytes } from '@trainplan/units';
import type { SearchBase } from './candidate.ts';

/**
 * The memory per GPU the search lets a plan use: memoryFraction of HBM, by default the share above
 * which an estimate warns that memory is tight (TIGHT_MEMORY_SHARE), so the search never recommends a
 * plan its own estimate calls tight. memoryFraction 1 lets it use all of HBM.
 */
export const memoryBudgetBytes = (base: SearchBase, memoryFraction: number | undefined): Bytes =>
  base.gpu.hbmBytes * (memoryFraction ?? TIGHT_MEMORY_SHARE);

/**
 * An estimate that fits the GPU but not the search's budget is out of memory to the search: the same
 * answer as the planner's, naming the budget instead of the HBM, with the estimate kept for ranking.
 */
export function withinMemoryBudget(result: PlanEstimate | PlanInfeasible, base: SearchBase, budgetBytes: Bytes): PlanEstimate | PlanInfeasible {
  if (!result.ok || result.memory.totalBytes <= budgetBytes) return result;
  const share = budgetBytes / base.gpu.hbmBytes;
  return {
    ok: false,
    reason: 'out-of-memory',
    message: `needs ${formatBytes(result.memory.totalBytes)} per GPU${stageText(result.stages.length, result.memory.stage)}, above the `
      + `${formatBytes(budgetBytes)} the search leaves usable (memoryFraction ${+share.toFixed(3)} of the ${base.gpu.name}'s ${formatBytes(base.gpu.hbmBytes)})`,
    neededBytes: result.memory.totalBytes,
    availableBytes: budgetBytes,
    estimate: result,
  };
}
