/**
 * A question of the optimizer states' size: "optimizer state space for llama3-70b", "adam states size for 70B", "how much
 * memory do the optimizer states take". A memory question (classify.ts), answered with the states first
 * (answer/optimizer-states.ts). QA: the first two ran a best-configuration search. Only with a word of size beside the
 * states, so that "how long … with the optimizer states sharded" stays a time question.
 */

/** The states by name: "optimizer states", "optimizer's state", "adam states", "adamw moments", "adam m and v". */
const STATES = String.raw`(?:optimi[sz]er(?:'s)?|adamw?(?:'s)?)[\s-]+(?:states?|moments?|m\s+and\s+v)`;
/** Words of size, on either side of the states: "space", "size", "memory", "footprint", "bytes", "how much", "how big". */
const SIZE = String.raw`(?:space|size|memory|footprint|bytes|usage|how much|how big|how large)`;
/** A verb of holding memory right after the states ("the optimizer states take"), a few words at most between. */
const HOLD = String.raw`(?:\w+\s+){0,2}?(?:take|need|use|occupy|require|consume)s?\b`;

export const ASKS_OPTIMIZER_STATES = new RegExp(String.raw`\b${STATES}\b.*\b${SIZE}\b|\b${SIZE}\b.*\b${STATES}\b|\b${STATES}\s+${HOLD}|(?<!distributed\s)\boptimi[sz]er[\s-]+memory\b`);
