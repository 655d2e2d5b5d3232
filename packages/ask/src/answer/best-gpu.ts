import { gpuById } from '@trainplan/presets';
import { restatedKeepingReadings } from './compared-gpus.ts';
import { normalize } from '../parse.ts';
import type { ParsedQuestion } from '../question.ts';

/**
 * "What's the best GPU for training llama3-70b", "which GPU should I train llama3-8b on": no GPU named, so the GPUs are
 * compared, each planned as the question asks (compared-gpus.ts), never the default H100 alone headed "Best for … on
 * H100" as if it had been weighed (QA). Compared: the A100 80GB, the H100 and the B200, one of each of the last three
 * generations of NVIDIA's data-centre training GPUs the presets model; the asker names others to weigh them.
 */

/** "best GPU", "which gpu", "what hardware", "right accelerator": the GPU itself asked, not named (not "the best GPU count"). */
const ASKS_GPU = /\b(?:best|which|what|right|ideal|optimal|fastest|cheapest|recommended)\s+(?:kind\s+of\s+|type\s+of\s+)?(?:gpus?|accelerators?|hardware|chips?|cards?)\b(?![\s-]*(?:counts?|numbers?|hours?|memory|utili[sz]ation|config\w*|setup|layout)\b)/;

/** The GPUs a question naming none is answered on, in the order said: by generation. */
export const GPUS_WEIGHED = ['a100-80gb', 'h100-sxm', 'b200'] as const;

/** Intents whose plan a GPU comparison answers (compared-gpus.ts): training ones. */
const TRAINING: ReadonlySet<string> = new Set(['nodes', 'time', 'config', 'cheapest', 'estimate', 'memory']);

const named = (id: string): string => gpuById(id)?.name.replace(/^NVIDIA\s+/, '') ?? id;

/**
 * The question as a comparison of GPUS_WEIGHED, its readings kept; undefined where it names a GPU or a node type, or asks
 * no GPU.
 */
export function asBestGpuComparison(q: ParsedQuestion): ParsedQuestion | undefined {
  if (q.stated.gpu !== undefined || q.stated.system !== undefined || !TRAINING.has(q.intent) || !ASKS_GPU.test(normalize(q.text))) return undefined;
  const [first, ...rest] = GPUS_WEIGHED;
  // The readings of the question's own words ("70B taken as Llama 3 70B") stay; the defaults are taken again.
  return restatedKeepingReadings(q, { ...q.stated, gpu: first, comparedGpus: rest.map((gpu) => ({ gpu })) });
}

/** Said first in the answer: which GPUs were weighed and why, and how to weigh others or their cost. */
export const BEST_GPU_NOTE = `No GPU named: ${GPUS_WEIGHED.map(named).join(', ')} compared, one of each of NVIDIA's last three training generations; `
  + 'name others to weigh them ("H100 vs H200 for …"), and give each a price ("A100 at $1.5/hr or H100 at $2.5/hr") to weigh their cost.';
