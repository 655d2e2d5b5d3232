import type { AskParameters, IntentName } from '../question.ts';

/**
 * A model size asked of a budget, no model named: "what can I train for $1M at $2/GPU-hour", "what's the biggest model I
 * can train with 500k H100 GPU-hours", "what model size is compute-optimal for 1M GPU-hours of A100", "what can I train on
 * 256 H100 in 30 days". Answered with the compute-optimal size (answer/compute-optimal.ts). QA: each was refused as
 * naming no model.
 */

/** "How big a model", "how many parameters can I train", "the largest model", "what model size": a size asked, not named. */
const ASKS_MODEL_SIZE = /\bhow (?:big|large) (?:of )?(?:an? )?model\b|\bhow many param(?:eter)?s (?:can|could|should|would)\b|\bwhat (?:size (?:of )?)?model size\b|\bwhat size (?:of )?model\b|\b(?:largest|biggest) model\b|\bmax(?:imum)? model size\b/;

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

/** Words of fitting in memory or serving, beside a size asked: "fits", "serve", "run", "inference", "host", "deploy", "load". */
const FITS_OR_SERVES = /\b(?:fits?|fitting|serv(?:e|es|ed|ing)|run(?:s|ning)?|inference|host(?:s|ed|ing)?|deploy\w*|load(?:s|ed)?)\b/;

/** Training said: "train", "training", "pretrain". */
const SAYS_TRAIN = /\b(?:pre[\s-]*)?train\w*/;

/** Words of fitting or serving with no word of training: the largest model asked is one that fits, not one a budget trains. */
const fitsNotTrains = (normal: string): boolean => FITS_OR_SERVES.test(normal) && !SAYS_TRAIN.test(normal);

/**
 * Whether the (normalised) question asks what size a budget trains, naming no model and no token count: with a token
 * count fixed ("how big a model can we train on 10T tokens") the size is not Chinchilla's, and parse.ts says so.
 */
export function asksWhatBudgetTrains(normal: string, intent: IntentName, stated: AskParameters): boolean {
  if (!TRAINS.has(intent) || stated.model !== undefined || stated.customModel !== undefined || stated.tokens !== undefined) return false;
  // "The largest model I can run on 8 H100" asks what fits, not what a budget trains (modelSizeNotAnswered), unless training is said.
  if (fitsNotTrains(normal)) return false;
  return ASKS_WHAT_TRAINS.test(normal) || ASKS_MODEL_SIZE.test(normal) || ASKS_OPTIMAL_SIZE.test(normal);
}

/** Why a model size asked of a budget is not answered, and the questions that are. */
export const MODEL_SIZE_NOT_ANSWERED = 'how big a model a budget trains is not answered here: I plan a model you name; name one to check it, '
  + 'e.g. "can we train llama3-70b on 10T tokens with 2M H100 GPU-hours", or ask "how many tokens for 70B" for a size\'s compute-optimal tokens, '
  + 'or leave the tokens out for the compute-optimal size a budget trains ("what\'s the biggest model I can train with 2M H100 GPU-hours")';

/**
 * Why the largest model that fits or serves on GPUs is not answered: no search over model sizes is made against memory, and
 * the compute-optimal size (a budget's) is no answer to it, so none is pointed at; a named model is checked instead.
 */
export const MODEL_FIT_NOT_ANSWERED = 'the largest model that fits on GPUs, to train or to serve, is not answered here: I plan a model you name; '
  + 'name one to check it, e.g. "does llama3-70b fit on 8 H100" or "serve llama3-70b on 8 H100"';

/**
 * The refusal of a model size asked (the normalised question), undefined where none is asked: of what fits or serves (a
 * memory or serving question, or its words with no word of training) the largest that fits is said not answered; else the
 * size a budget trains.
 */
export function modelSizeNotAnswered(normal: string, intent: IntentName): string | undefined {
  if (!ASKS_MODEL_SIZE.test(normal)) return undefined;
  return intent === 'memory' || intent === 'serving' || fitsNotTrains(normal) ? MODEL_FIT_NOT_ANSWERED : MODEL_SIZE_NOT_ANSWERED;
}
