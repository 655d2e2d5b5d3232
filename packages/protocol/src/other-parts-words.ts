import type { OtherMemoryPartsJson } from './wire.ts';

/**
 * The parts of a GPU's "other" memory (memory.otherParts; planner plan-memory.ts OtherMemoryParts) by name, one wording
 * for every reader: the CLI's memory report puts a size before each with what it holds after ("1.50 GiB runtime reserve
 * (CUDA context, …)"), the chat bot puts each after its name as it does the other parts ("runtime reserve 1.50 GiB").
 */
export const OTHER_PART_NAMES = {
  runtimeReserveBytes: 'runtime reserve',
  fragmentationBytes: 'allocator fragmentation',
  zero3GatheredBytes: 'ZeRO-3 unit gathered whole',
  optimizerStepBytes: "optimizer step's fp32 gradient copy",
} as const satisfies Readonly<Record<keyof OtherMemoryPartsJson, string>>;

/** A named part of "other" memory, in bytes. */
export interface OtherPart {
  readonly name: string;
  readonly bytes: number;
}

/** The parts that hold any memory, largest first; parts of the same size in OTHER_PART_NAMES's order. */
export function otherPartsLargestFirst(parts: OtherMemoryPartsJson): OtherPart[] {
  return (Object.keys(OTHER_PART_NAMES) as (keyof OtherMemoryPartsJson)[])
    .map((key) => ({ name: OTHER_PART_NAMES[key], bytes: parts[key] }))
    .filter((p) => p.bytes > 0)
    // Array.prototype.sort is stable (ES2019), so equal parts keep the names' order.
    .sort((a, b) => b.bytes - a.bytes);
}
