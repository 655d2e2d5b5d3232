/**
 * A question of the optimizer states' size: "optimizer state space for llama3-70b", "adam states size for 70B", "how much
 * memory do the optimizer states take". A memory question (classify.ts), answered with the states first
 * (answer/optimizer-states.ts). QA: the first two ran a best-configuration search. Only with a word of size beside the
 * states, so that "how long … with the optimizer states sharded" stays a time question, and only where the states are the
 * quantity asked, not a setting ("shard the optimizer states", "distributed optimizer": STATES_AS_SETTING).
 */

/** The states by name: "optimizer states", "optimizer's state", "adam states", "adamw moments", "adam m and v". */
const STATES = String.raw`(?:optimi[sz]er(?:'s)?|adamw?(?:'s)?)[\s-]+(?:states?|moments?|m\s+and\s+v)`;
/** Words of size, on either side of the states: "space", "size", "memory", "footprint", "bytes", "how much", "how big". */
const SIZE = String.raw`(?:space|size|memory|footprint|bytes|usage|how much|how big|how large)`;
/** A verb of holding memory right after the states ("the optimizer states take"), a few words at most between. */
const HOLD = String.raw`(?:\w+\s+){0,2}?(?:take|need|use|occupy|require|consume)s?\b`;

/** The states asked as a quantity: a word of size on either side, a verb of holding memory after, or "optimizer memory". */
const ASKS_STATES = new RegExp(String.raw`\b${STATES}\b.*\b${SIZE}\b|\b${SIZE}\b.*\b${STATES}\b|\b${STATES}\s+${HOLD}|(?<!distributed\s)\boptimi[sz]er[\s-]+memory\b`);

/** Verbs that set where the states go: "shard", "partition", "split", "offload", "distribute". */
const SPREAD = String.raw`(?:shard|partition|split|offload|distribut)\w*`;
/**
 * The states named as a setting, not as the quantity asked: "to shard the optimizer states", "optimizer states sharded
 * over dp", "with the optimizer states offloaded", "optimizer states in host memory", and Megatron's "distributed
 * optimizer". QA: "memory for llama3-70b with zero-1 to shard the optimizer states on 64 H100" led with the states, the
 * total memory asked put second.
 */
const STATES_AS_SETTING = new RegExp(String.raw`\b${SPREAD}\s+(?:(?:the|its|all)\s+)?${STATES}\b|\b${STATES}\s+(?:(?:are|is|get|being)\s+)?${SPREAD}|\b${STATES}\s+(?:in|on|to)\s+(?:the\s+)?(?:host|cpu|nvme)\b(?:\s+memory)?|\bdistributed[\s-]+optimi[sz]er\b`, 'g');

/** Whether the (normalised) question asks the optimizer states' size, the states named as a setting left out. */
export const asksOptimizerStates = (normal: string): boolean => ASKS_STATES.test(normal.replace(STATES_AS_SETTING, ' '));
