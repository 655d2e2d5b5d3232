import { DECIMAL } from './numbers.ts';
import type { Scanner } from './quantities.ts';

/**
 * The share of GPU memory a plan may use, as a question states it: "with 90% memory", "using 90% of GPU memory", "memory
 * fraction 0.9", vLLM's "gpu_memory_utilization 0.9". The search's constraints.memoryFraction (default 0.95, the share past
 * which an estimate warns memory is tight). QA: "how long … on 64 H100 nodes with 90% memory" was read as a memory question
 * (its "memory"), and the 90 as 90 GPUs a node. Read before the uptime, the counts and the settings no plan models; its words
 * are kept from the intent's (ParseState intentText), whose "memory" they hold.
 */

/** The memory's names: "memory", "gpu memory", "hbm", "vram". */
const MEMORY = String.raw`(?:gpu[\s-]*|device[\s-]*)?(?:memory|mem|hbm|vram)`;
/** What the share is called after the memory: "memory fraction", "memory utilization", "memory limit". */
const SHARE = String.raw`(?:fraction|util(?:i[sz]ation)?|usage|limit|cap|budget)`;
/** A serving engine's name before it ("vllm gpu_memory_utilization 0.9"): said with it. */
const ENGINE = String.raw`(?:(?:vllm|sglang)\s+)?`;

/** After "90% memory", words that make it a change or another figure ("50% memory savings", "90% memory bandwidth"), never a share to plan in. */
const NOT_A_SHARE = String.raw`(?:bandwidth|sav\w*|reduc\w*|overhead|increase|decrease|headroom|less|more|left|free|spare)`;
/** "with 90% memory", "using 90% of the GPU memory", "at most 90% memory": group 1 the percentage. */
const PERCENT_FIRST = new RegExp(String.raw`(?:\b(?:with|at|using|use|uses|max(?:imum)?|at\s+most|up\s+to|only|capped\s+at|limited\s+to)\s+)*(?<![\d.])(${DECIMAL})\s*%\s*(?:of\s+(?:the\s+)?(?:its\s+)?)?${MEMORY}\b(?:[\s-]*${SHARE}\b)?(?![\s-]*${NOT_A_SHARE})`);
/** "memory fraction 0.9", "gpu memory utilization of 90%", "memory limit: 0.85": group 1 the number, group 2 its "%". */
const SHARE_FIRST = new RegExp(String.raw`${ENGINE}\b${MEMORY}[\s-]*${SHARE}\s*(?:=|:|of|at|to|is)?\s*(\d*\.?\d+)\s*(%)?`);

/** Why a serving question's share of memory is not read: the inference planner gives the KV cache what is left. */
export const SERVING_MEMORY_FRACTION = "a serving engine's memory fraction is not modelled: the KV cache takes the memory the weights and activations leave";

/** A share read, with its words; or the words and why it cannot be one. */
export type MemoryFractionRead = { fraction: number; written: string } | { written: string; why: string };

/** Why a share past 100% (or of nothing) is not read. */
const OUT_OF_RANGE = 'a memory fraction is a share of the GPU\'s memory, above 0% and at most 100%';

/** The share of memory the text states, taken out of it; undefined where it states none. */
export function takeMemoryFraction(s: Scanner): MemoryFractionRead | undefined {
  const percent = s.take(PERCENT_FIRST);
  const share = percent === undefined ? s.take(SHARE_FIRST) : undefined;
  const m = percent ?? share;
  if (m === undefined) return undefined;
  const written = m[0].trim();
  const number = Number(m[1]);
  // A number after "fraction" is a fraction ("0.9"); one above 1 with no "%" is refused with what to write, never guessed a
  // percentage ("1.5"), as an uptime's is (uptime.ts).
  if (share !== undefined && share[2] === undefined && number > 1) {
    return { written, why: `a memory fraction is a share of the GPU's memory, at most 1; for ${number}% write "${number}% memory" (or ${number / 100})` };
  }
  const fraction = percent !== undefined || share?.[2] !== undefined ? number / 100 : number;
  return fraction > 0 && fraction <= 1 ? { fraction, written } : { written, why: OUT_OF_RANGE };
}
