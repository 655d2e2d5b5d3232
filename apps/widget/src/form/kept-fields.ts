import { runsFlashAttention, type ScenarioInput } from '@trainplan/protocol';
import { gpuById } from '@trainplan/presets';
import { FIELDS, type FieldValues } from './fields.ts';
import { PATH_TO_FIELD } from './issue-fields.ts';
import { CUSTOM_MODEL } from './model-shape.ts';

/**
 * A shared link's fields the form has no input for (`parallelism.zeroStage`, `model.tiedEmbeddings`,
 * `training.attentionKernel`, …), by their path in the contract scenario. The widget keeps them, merges
 * them back into every scenario it estimates (so it answers what the API answers for the link) and
 * writes them into the hash it shares; one is dropped only when the reader changes something it
 * conflicts with (`dropConflicting`).
 */
export type KeptFields = Readonly<Record<string, unknown>>;

/** Whether the GPU (a preset id) runs flash attention; an unknown id is left to the estimate to refuse. */
const runsOn = (gpu: string | undefined): boolean => { const spec = gpuById(gpu ?? ''); return spec === undefined || runsFlashAttention(spec); };

type Section = 'model' | 'cluster' | 'training' | 'parallelism';
const SECTIONS: readonly Section[] = ['model', 'cluster', 'training', 'parallelism'];

/**
 * Whether the form shows a link's `value` at `path`: a path the form has a field for (issue-fields.ts, PATH_TO_FIELD)
 * and the gated-MLP box, but not the schedule (its issues go beside the virtual stages), fp8Params only as the
 * Precision select shows it (true beside fp8: its FP8-weights option; false: its other options), and a custom shape's
 * name only as the form names it, "custom". Everything else a link carries is kept.
 */
function formShows(s: ScenarioInput, path: string, value: unknown): boolean {
  switch (path) {
    case 'model.gatedMlp': return true;
    case 'model.name': return value === CUSTOM_MODEL;
    case 'parallelism.schedule': return false;
    case 'training.fp8Params': return value !== true || s.training.precision === 'fp8';
    default: return path in PATH_TO_FIELD;
  }
}

/** The fields of a (validated) link scenario the form cannot show. */
export function keptFromScenario(s: ScenarioInput): KeptFields {
  const kept: Record<string, unknown> = {};
  for (const section of SECTIONS) {
    const part = s[section];
    if (part === null || typeof part !== 'object') continue; // a preset model id is shown whole
    for (const [key, value] of Object.entries(part)) {
      const path = `${section}.${key}`;
      if (value !== undefined && !formShows(s, path, value)) kept[path] = value;
    }
  }
  return kept;
}

/** `s` with the kept fields merged in (model fields only onto a custom shape). */
export function withKept(s: ScenarioInput, kept: KeptFields): ScenarioInput {
  const entries = Object.entries(kept);
  if (entries.length === 0) return s;
  const out = {
    ...s,
    model: typeof s.model === 'string' ? s.model : { ...s.model },
    cluster: { ...s.cluster },
    training: { ...s.training },
    parallelism: { ...(s.parallelism ?? {}) },
  } as unknown as Record<Section, Record<string, unknown> | string>;
  for (const [path, value] of entries) {
    const [section, key] = path.split('.') as [Section, string];
    const part = out[section];
    if (typeof part === 'object') part[key] = value;
  }
  return out as unknown as ScenarioInput;
}

/** Only the kept fields of one section. */
export function keptIn(kept: KeptFields, section: Section): KeptFields {
  return Object.fromEntries(Object.entries(kept).filter(([path]) => path.startsWith(`${section}.`)));
}

const shortName = (path: string) => path.slice(path.indexOf('.') + 1);
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
/** "zeroStage 1, tiedEmbeddings false". */
export const describeKept = (kept: KeptFields): string => Object.entries(kept).map(([p, v]) => `${shortName(p)} ${shown(v)}`).join(', ');

/** The visible note for what the widget keeps from the link ('' when nothing). */
export function keptNote(kept: KeptFields): string {
  return Object.keys(kept).length > 0 ? `From the link, not editable here: ${describeKept(kept)}.` : '';
}

/**
 * Does changing the form's `field` (to `values`) conflict with a kept field? A custom shape's extras go
 * with the shape; a stated data-parallel degree with anything that changes the GPUs or the model-parallel
 * degrees; ZeRO with the distributed-optimizer box; the schedule with the virtual stages; recomputed
 * layers with anything that changes the layers per stage or the recompute mode; the embedding or the loss
 * counted in the pipeline split with the pipeline depth or the layers; a kernel with a GPU or
 * context parallelism that cannot run it. "Auto" searches the parallel configuration and the machine with
 * the form's fields only, so it keeps nothing but the model's.
 */
function conflicts(path: string, value: unknown, field: string, values: FieldValues): boolean {
  if (field === 'auto') return values.auto === 'true' && !path.startsWith('model.');
  if (path.startsWith('model.')) return field === 'model' && values.model !== 'custom';
  switch (path) {
    case 'parallelism.data': return ['nodes', 'gpus-per-node', 'gpu', 'tp', 'pp', 'cp'].includes(field);
    case 'parallelism.zeroStage': return field === 'distopt' && values.distopt === 'true';
    case 'parallelism.schedule': return field === 'vp';
    // Beside another precision (which the protocol refuses): the reader's precision, FP8 weights or not, replaces it.
    case 'training.fp8Params': return field === 'precision';
    case 'parallelism.recomputeLayers': return ['recompute', 'pp', 'vp', 'layers', 'model'].includes(field);
    // The embedding or the loss counted in the split: its slots must divide over the stages, which another
    // pipeline depth or layer count need not.
    case 'parallelism.embeddingInPipelineSplit':
    case 'parallelism.lossInPipelineSplit': return ['pp', 'layers', 'model'].includes(field);
    case 'training.attentionKernel':
      return (field === 'gpu' && value === 'flash' && !runsOn(values.gpu))
        || (field === 'cp' && value === 'unfused' && values.cp !== '1');
    default: return false;
  }
}

/** The kept fields that survive the reader's change of `field`, and a note naming those dropped ('' when none). */
export function dropConflicting(kept: KeptFields, field: string, values: FieldValues): { kept: KeptFields; note: string } {
  const stay: Record<string, unknown> = {};
  const dropped: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(kept)) (conflicts(path, value, field, values) ? dropped : stay)[path] = value;
  if (Object.keys(dropped).length === 0) return { kept, note: '' };
  const why = field === 'model' ? 'the model is no longer the link\'s custom shape' : field === 'auto' ? 'auto searches with the form\'s fields' : `${FIELDS.find((f) => f.name === field)?.label ?? field} changed`;
  return { kept: stay, note: `Dropped from the link (${why}): ${describeKept(dropped)}.` };
}
