import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The shared ground truth sits beside the checkout: ../shared/ground-truth (see its README). */
export const GROUND_TRUTH_DIR = fileURLToPath(new URL('../../../../shared/ground-truth/', import.meta.url));

export interface TrainingRow {
  readonly id: string;
  readonly source: string;
  readonly tier: 'A' | 'B' | 'C';
  readonly precision: string | null;
  readonly notes: string;
  readonly model: {
    readonly name: string; readonly layers: number; readonly hidden: number; readonly heads: number;
    readonly seq: number; readonly vocab: number | null; readonly kv_heads: number | null; readonly ffn_hidden: number | null;
  };
  readonly hardware: { readonly gpu: string; readonly gpus_per_node: number; readonly nodes: number; readonly total_gpus: number; readonly inter: string };
  readonly parallel: {
    readonly tp: number | null; readonly pp: number | null; readonly dp: number | null; readonly vp: number | null;
    readonly sp: boolean | null; readonly cp: number | null; readonly recompute: string | null; readonly zero: number | null;
    readonly mbs: number | null; readonly gbs: number | null;
  };
  readonly measured: {
    readonly step_time_s: number | null; readonly tflops_per_gpu: number | null; readonly tflops_basis?: string;
    readonly mfu: number | null; readonly hfu: number | null; readonly tokens_per_s: number | null;
  };
}

export function loadTrainingRows(): TrainingRow[] {
  return JSON.parse(readFileSync(`${GROUND_TRUTH_DIR}training-runs.json`, 'utf8')) as TrainingRow[];
}
