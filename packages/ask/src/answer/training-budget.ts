import { countOf, toDays, toHours } from '@trainplan/units';
import { clusterGpusOf } from '../cluster-of.ts';
import { compactCount, formatDays } from '../format.ts';
import type { AskParameters } from '../question.ts';
import { budgetOf } from './tokens-bought.ts';

/**
 * The GPU-hours a question gives to train with, however it gives them: GPU-hours, money at a price (tokens-bought.ts'
 * budgetOf, the lesser where both are), or a cluster named for a time ("on 256 H100 in 30 days": its GPUs × the hours).
 */
export interface TrainingBudget {
  gpuHours: number;
  /** The budget in the question's terms, with its GPU-hours: "$1M at $2/GPU-hour (500k GPU-hours)". */
  words: string;
  /** What a plan states to spend it: a cluster's time as GPU-hours (tokens-bought.ts buys tokens with GPU-hours or money). */
  facts: Pick<AskParameters, 'gpuHours'>;
  /** Whether the question names the cluster: then its nodes are planned; else each plan chooses its own. */
  named: boolean;
}

/** Why no budget was found, in what to give, for a question that names a cluster or none. */
export const needsBudget = (stated: AskParameters): string => (clusterGpusOf(stated) === undefined
  ? 'the model a budget trains is sized on the budget: give GPU-hours ("500k H100 GPU-hours"), money at a price ("$1M at $2/GPU-hour"), or a cluster and a time ("on 256 H100 in 30 days")'
  : `the model a cluster trains is sized on its time: give one ("in 30 days"), or a budget in GPU-hours or money at a price ("$1M at $2/GPU-hour")`);

/** The question's budget, or undefined where it gives none (a cluster with no time, money with no price). */
export function trainingBudgetOf(stated: AskParameters): TrainingBudget | undefined {
  const gpus = clusterGpusOf(stated);
  const named = gpus !== undefined;
  const given = budgetOf(stated);
  if (given !== undefined) return { ...given, facts: {}, named };
  if (gpus === undefined || stated.deadlineSeconds === undefined) return undefined;
  const gpuHours = gpus * toHours(stated.deadlineSeconds);
  return { gpuHours, words: `${countOf(gpus, 'GPU')} for ${formatDays(toDays(stated.deadlineSeconds))} (${compactCount(gpuHours)} GPU-hours)`, facts: { gpuHours }, named };
}
