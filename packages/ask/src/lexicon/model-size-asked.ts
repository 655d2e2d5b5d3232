import type { AskParameters, IntentName } from '../question.ts';

/**
 * A model size asked of a budget, no model named: "what can I train for $1M at $2/GPU-hour", "what's the biggest model I
 * can train with 500k H100 GPU-hours", "what model size is compute-optimal for 1M GPU-hours of A100", "what can I train on
 * 256 H100 in 30 days". Answered with the compute-optimal size (answer/compute-optimal.ts). QA: each was refused as
 * naming no model.
 */

/** "How big a model", "how many parameters can I train", "the largest model", "what model size": a size asked, not named. */
export const ASKS_MODEL_SIZE = /\bhow (?:big|large) (?:of )?(?:an? )?model\b|\bhow many param(?:eter)?s (?:can|could|should|would)\b|\bwhat (?:size (?:of )?)?model size\b|\bwhat size (?:of )?model\b|\b(?:largest|biggest) model\b|\bmax(?:imum)? model size\b/;

/** "What can I train", "what model could we train", "what size model should I pretrain": what a budget trains. */
const ASKS_WHAT_TRAINS = /\bwhat (?:(?:size (?:of )?)?(?:models?|llms?)(?: size)? )?(?:can|could|should|would|might) (?:i|we|you|one) (?:pre[\s-]*)?train\b/;

/** "The compute-optimal model for …", "what size is compute-optimal": the size asked by the ratio it is trained at. */
const ASKS_OPTIMAL_SIZE = /\bcompute[\s-]*optimal (?:model|size)\b|\b(?:model|size) (?:is|would be) (?:the )?compute[\s-]*optimal\b/;

/**
 * Intents whose question may ask what a budget trains: training ones, help (a money budget with no price leaves the
 * question no intent of its own, parse.ts) and rate (a cluster and a price with no model named, classify.ts). Not memory
 * ("the largest model that fits on one H100" asks the memory of one), serving or a collective, which train nothing.
 */
const TRAINS: ReadonlySet<IntentName> = new Set(['nodes', 'cheapest', 'time', 'config', 'estimate', 'help', 'rate']);

/**
 * Whether the (normalised) question asks what size a budget trains, naming no model and no token count: with a token
 * count fixed ("how big a model can we train on 10T tokens") the size is not Chinchilla's, and parse.ts says so.
 */
export function asksWhatBudgetTrains(normal: string, intent: IntentName, stated: AskParameters): boolean {
  if (!TRAINS.has(intent) || stated.model !== undefined || stated.customModel !== undefined || stated.tokens !== undefined) return false;
  return ASKS_WHAT_TRAINS.test(normal) || ASKS_MODEL_SIZE.test(normal) || ASKS_OPTIMAL_SIZE.test(normal);
}
