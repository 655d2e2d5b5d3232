/** The capacity planner's points, goals and checks: the types its searches (capacity*.ts) and their words (capacity-text.ts) share. */
import type { RankedPlan } from './search.ts';

/** A cluster size, the best plan found on it, and what training the token budget on it takes. */
export interface CapacityPoint {
  readonly nodes: number;
  readonly gpus: number;
  /** Sequences per optimizer step on this size: the base's, or the size's own (CapacityOptions.globalBatchFor). */
  readonly globalBatchSize: number;
  readonly plan: RankedPlan;
  readonly seconds: number;
  readonly days: number;
  readonly gpuHours: number;
  /** With a price per GPU-hour. */
  readonly cost?: number;
}

export interface CapacityGoal {
  /** Train within this many seconds. */
  readonly deadlineSeconds?: number;
  /** Spend at most this many GPU-hours. */
  readonly gpuHourBudget?: number;
  /** Spend at most this much money (with pricePerGpuHour). */
  readonly costBudget?: number;
  readonly pricePerGpuHour?: number;
}

/** A goal with a deadline (fewestNodes's question), optionally checked against a budget. */
export type DeadlineGoal = CapacityGoal & { readonly deadlineSeconds: number };

/** How far below the answer every cluster size was searched (a deadline's answer only). */
export interface CapacityCheck {
  /**
   * Every size from this many nodes to one below the answer was searched and falls short: it runs a
   * plan that misses the goal, or runs no plan at all (`noPlan` of them).
   */
  readonly fromNodes: number;
  /** Of those sizes, how many run no plan at all (nothing fits in memory, no split divides evenly, or the search's budget ran out). */
  readonly noPlan: number;
  /** Of the `noPlan` sizes, how many are out of memory. */
  readonly outOfMemory: number;
  /**
   * Of the `noPlan` sizes, how many the search's candidate budget ran out on before any plan that fits was estimated
   * (NoPlanReason 'candidate-budget': one may run among the candidates not estimated); absent when none did, so that the
   * answer's wire form (the protocol's checked, four fields) is unchanged where it has nothing to add. The rest of
   * `noPlan`, neither out of memory nor these: no split passes the divisibility rules.
   */
  readonly candidateBudget?: number;
  /**
   * True when no size below `fromNodes` can meet the deadline even at the GPU's peak (MFU 1), so the
   * answer is the fewest nodes; false when the scan stopped at its window (SCAN_WINDOW sizes).
   */
  readonly complete: boolean;
}
