import { defaultPrecision, resolveScenario, validateScenario, type ScenarioInput } from '@trainplan/protocol';
import { defaultSystemForGpu, gpuById } from '@trainplan/presets';
import { formatCountExact } from '@trainplan/units';
import { FIELDS, FP8_PARAMS, hiddenFor, type FieldValues } from './fields.ts';
import { keptFromScenario, type KeptFields } from './kept-fields.ts';
import { CUSTOM_MODEL, modelShape, shapeValues, str } from './model-shape.ts';
import { parseFields, type FieldIssue } from './parse-field.ts';

export type { FieldIssue } from './parse-field.ts';

export interface Budget {
  /** Tokens to train on, a plain count. */
  readonly tokens?: number;
  readonly deadlineDays?: number;
}

export type FieldsResult =
  | { ok: true; scenario: ScenarioInput; budget: Budget; auto: boolean }
  | { ok: false; issues: FieldIssue[] };

/**
 * The reader's field values → a contract scenario (../shared/docs/scenario-contract.md) and the
 * token budget and deadline for the "how many nodes" answer. Only checks of one field at a time
 * live here; whether the degrees divide the GPUs is the estimate's answer, mapped back by `issueAt` (issue-fields.ts).
 */
export function scenarioFromFields(values: FieldValues): FieldsResult {
  const custom = values.model === CUSTOM_MODEL;
  const parsed = parseFields(FIELDS, values, hiddenFor(values));
  if (!parsed.ok) return parsed;
  const v = parsed.values;
  const num = (name: string) => v[name] as number;
  const opt = (name: string) => v[name] as number | undefined;

  const model: ScenarioInput['model'] = custom ? modelShape(v, opt('seq') ?? 2048) : (v.model as string);
  // FP8 weights: precision fp8 with fp8Params (fields.ts, FP8_PARAMS).
  const fp8Params = v.precision === FP8_PARAMS;
  const scenario: ScenarioInput = {
    model,
    cluster: {
      gpu: v.gpu as string,
      nodes: num('nodes'),
      ...(opt('gpus-per-node') !== undefined ? { gpusPerNode: num('gpus-per-node') } : {}),
      ...(v.network ? { network: v.network as string } : {}),
    },
    training: {
      globalBatchSize: num('gbs'), microBatchSize: num('mbs'), precision: (fp8Params ? 'fp8' : v.precision) as 'bf16',
      ...(fp8Params ? { fp8Params } : {}),
      ...(!custom && opt('seq') !== undefined ? { seqLength: num('seq') } : {}),
      ...(opt('tokens') !== undefined ? { tokens: num('tokens') } : {}),
    },
    parallelism: {
      tensor: num('tp'), pipeline: num('pp'), virtualStages: num('vp'), context: num('cp'),
      sequenceParallel: v.sp === true, recompute: v.recompute as 'none', distributedOptimizer: v.distopt === true,
    },
  };
  const budget: Budget = {
    ...(opt('tokens') !== undefined ? { tokens: num('tokens') } : {}),
    ...(opt('days') !== undefined ? { deadlineDays: num('days') } : {}),
  };
  return { ok: true, scenario, budget, auto: v.auto === true };
}

/**
 * Nodes, GPUs per node and precision as the protocol itself resolves the scenario (resolveScenario, the
 * code the API and the CLI run): a link that counts GPUs (`cluster.gpus`) becomes the nodes the API would
 * use, and a missing precision the GPU's default (fp16 on a V100). When resolution refuses the scenario
 * (e.g. degrees that do not divide the GPUs) the same arithmetic is done here, so the estimate can still
 * name the problem; `note` says when the link's GPUs do not fill whole nodes.
 */
function machineOf(s: ScenarioInput): { nodes: number; gpusPerNode: number; precision: string; gpu?: string; network?: string; note?: string } {
  const valid = validateScenario(s);
  const resolved = valid.ok ? resolveScenario(valid.value) : undefined;
  if (resolved?.ok) {
    const { plan, gpuId, networkId } = resolved.value;
    // A system id in cluster.gpu (dgx-h100) is its GPU, node size and network: the form shows those.
    const system = gpuById(s.cluster.gpu) === undefined ? { gpu: gpuId, network: networkId } : {};
    return { nodes: plan.nodes, gpusPerNode: plan.gpusPerNode, precision: plan.precision, ...system };
  }
  const c = s.cluster;
  const gpu = gpuById(c.gpu);
  const nodeGpus = c.gpusPerNode ?? defaultSystemForGpu(c.gpu)?.gpusPerNode ?? 8;
  const gpus = c.gpus ?? (c.nodes ?? 1) * nodeGpus;
  const gpusPerNode = Math.min(nodeGpus, gpus);
  const nodes = Math.max(1, Math.ceil(gpus / gpusPerNode));
  const precision = s.training.precision ?? (gpu ? defaultPrecision(gpu) : 'bf16');
  const note = c.gpus !== undefined && gpus % gpusPerNode !== 0
    ? `The link's ${gpus} GPUs do not fill whole nodes of ${gpusPerNode}; showing ${nodes} nodes.` : undefined;
  return { nodes, gpusPerNode, precision, ...(note ? { note } : {}) };
}

/** What a shared link's scenario puts in the form, what the form cannot show (kept), and notes to show. */
export interface ScenarioReading {
  readonly values: FieldValues;
  readonly kept: KeptFields;
  readonly notes: readonly string[];
}

/**
 * A contract scenario (from a shared link, or a searched plan) → field values over `base` for what it
 * leaves out, the fields the form has no input for (kept: merge them back with `withKept`), and notes.
 */
export function readScenario(scenario: ScenarioInput, base: FieldValues): ScenarioReading {
  const out: FieldValues = { ...base };
  const m = scenario.model;
  if (typeof m === 'string') {
    out.model = m;
    out.seq = str(scenario.training.seqLength);
  } else {
    Object.assign(out, shapeValues(m), { seq: str(scenario.training.seqLength ?? m.seqLength) });
  }
  const c = scenario.cluster;
  const machine = machineOf(scenario);
  out.gpu = machine.gpu ?? c.gpu;
  out.network = str(c.network ?? machine.network);
  out.nodes = str(machine.nodes);
  // Blank means the system's GPUs per node; state it when the link did, or when the protocol resolved fewer.
  const systemGpus = machine.gpu === undefined ? defaultSystemForGpu(c.gpu)?.gpusPerNode : undefined;
  out['gpus-per-node'] = c.gpusPerNode !== undefined || machine.gpusPerNode !== systemGpus ? str(machine.gpusPerNode) : '';
  const t = scenario.training;
  out.gbs = str(t.globalBatchSize);
  out.mbs = str(t.microBatchSize ?? 1);
  // fp8 with FP8 weights is the Precision select's own option (kept-fields.ts keeps fp8Params only beside another precision).
  out.precision = machine.precision === 'fp8' && t.fp8Params === true ? FP8_PARAMS : machine.precision;
  // As a reader writes it in the token-budget field (2T, 1.5T, 300B), and read back exactly.
  if (t.tokens !== undefined) out.tokens = formatCountExact(t.tokens);
  const p = scenario.parallelism ?? {};
  Object.assign(out, {
    tp: str(p.tensor ?? 1), pp: str(p.pipeline ?? 1), vp: str(p.virtualStages ?? 1), cp: str(p.context ?? 1),
    sp: str(p.sequenceParallel ?? false), recompute: p.recompute ?? 'none', distopt: str(p.distributedOptimizer ?? false),
  });
  return { values: out, kept: keptFromScenario(scenario), notes: machine.note ? [machine.note] : [] };
}

/** The field values of `readScenario` alone (what the form shows; the kept fields are not in it). */
export function fieldsFromScenario(scenario: ScenarioInput, base: FieldValues): FieldValues {
  return readScenario(scenario, base).values;
}

/** The tensor-core format a Precision option runs in: FP8 weights run in fp8 ('fp8-params' → 'fp8'). */
const format = (precision: string): string => precision.split('-')[0]!;

const hasPrecision = (gpu: NonNullable<ReturnType<typeof gpuById>>, precision: string): boolean =>
  (gpu.peakFlops as Readonly<Record<string, number | undefined>>)[format(precision)] !== undefined;

/**
 * After the reader picks another GPU: a precision that GPU has no tensor cores for (bf16 on a V100, fp8
 * before Hopper) is switched to the GPU's default (the protocol's defaultPrecision), and the note says so;
 * `switchedFrom` remembers the reader's precision, which comes back on a GPU that runs it.
 */
export function fitPrecisionToGpu(values: FieldValues, switchedFrom?: string): { values: FieldValues; switchedFrom?: string; note: string } {
  const gpu = gpuById(values.gpu ?? '');
  const precision = values.precision ?? '';
  const stay = { values, ...(switchedFrom ? { switchedFrom } : {}), note: '' };
  if (!gpu) return stay;
  if (switchedFrom !== undefined && switchedFrom !== precision && hasPrecision(gpu, switchedFrom)) {
    return { values: { ...values, precision: switchedFrom }, note: `Precision back to ${switchedFrom} on ${gpu.name}.` };
  }
  if (hasPrecision(gpu, precision)) return stay;
  const fallback = defaultPrecision(gpu);
  return {
    values: { ...values, precision: fallback },
    switchedFrom: switchedFrom ?? precision,
    note: `${gpu.name} has no ${format(precision).toUpperCase()} tensor cores: precision switched from ${precision} to ${fallback}.`,
  };
}
