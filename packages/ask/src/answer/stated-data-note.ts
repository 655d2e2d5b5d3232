import { countOf } from '@trainplan/units';

/**
 * A search question that states DP ("best config … with dp 32"): the search does not hold DP, which follows from the
 * GPUs over TP × PP × CP (Megatron-LM's data-parallel size), so where its best plan's DP differs, the answer says so
 * and how to hold it: a TP × PP × CP that leaves that DP, which the question can state.
 */
export function statedDataNote(statedData: number | undefined, gpus: number, bestData: number): string[] {
  if (statedData === undefined || statedData === bestData) return [];
  const lead = `DP ${statedData} asked: a search sets DP from the GPUs over TP × PP × CP, and its best plan has DP ${bestData}`;
  if (gpus % statedData !== 0) return [`${lead}; DP ${statedData} does not divide the ${countOf(gpus, 'GPU')}.`];
  return [`${lead}; for DP ${statedData}, state a TP × PP × CP of ${gpus / statedData} (e.g. "${layoutOf(gpus / statedData)}").`];
}

/** A TP × PP split of `width` GPUs as a question states it: TP up to 8 (one NVLink node), PP the rest. */
export function layoutOf(width: number): string {
  const tensor = [8, 4, 2, 1].find((t) => width % t === 0)!;
  return width / tensor === 1 ? `tp ${tensor} pp 1` : `tp ${tensor} pp ${width / tensor}`;
}
