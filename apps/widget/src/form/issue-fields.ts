import { labelledIssue } from './field-names.ts';
import { FIELDS } from './fields.ts';
import { SHAPE_PATH_TO_FIELD } from './model-shape.ts';
import type { FieldIssue } from './parse-field.ts';

/**
 * The form's field for each scenario path the schema, resolveScenario and the planner name in an issue; also what the
 * form shows of a link (kept-fields.ts keeps the rest).
 */
export const PATH_TO_FIELD: Readonly<Record<string, string>> = {
  ...SHAPE_PATH_TO_FIELD,
  'cluster.gpu': 'gpu', 'cluster.network': 'network', 'cluster.nodes': 'nodes', 'cluster.gpus': 'nodes',
  'cluster.gpusPerNode': 'gpus-per-node',
  'training.globalBatchSize': 'gbs', 'training.microBatchSize': 'mbs', 'training.precision': 'precision',
  'training.seqLength': 'seq', 'training.tokens': 'tokens', 'training.fp8Params': 'precision',
  'parallelism.tensor': 'tp', 'parallelism.pipeline': 'pp',
  'parallelism.virtualStages': 'vp', 'parallelism.context': 'cp', 'parallelism.schedule': 'vp',
  'parallelism.sequenceParallel': 'sp', 'parallelism.recompute': 'recompute', 'parallelism.distributedOptimizer': 'distopt',
};

/**
 * What sets the data-parallel degree: the GPUs (nodes × GPUs per node) over t × p × c. The nodes are marked, GPUs
 * per node being the system's (blank) unless the reader set it.
 */
const DATA_PARALLEL = ['nodes', 'tp', 'pp', 'cp'] as const;

/** Paths of issues about several fields at once, and the fields each names. */
const PATH_TO_FIELDS: Readonly<Record<string, readonly string[]>> = {
  // resolveScenario: "1024 GPUs are not divisible by tensor × pipeline × context = 24".
  parallelism: DATA_PARALLEL,
  // checkPlan, with a link's data-parallel degree: "tensor × pipeline × context × data = …, but the cluster has … GPUs".
  'parallelism.data': DATA_PARALLEL,
};

/** An issue about several fields that shares its path with issues about one, told apart by the planner's rule id. */
interface RuleFields {
  /** The planner's name for the rule (PlanRule, packages/planner/src/check-plan.ts), which the wire issue carries. */
  readonly rule: string;
  /** Every field it is about; the message goes beside the first of them in each fieldset. */
  readonly fields: readonly string[];
}

/**
 * checkPlan's rules about several fields that it files under one field's path, which single-field issues there share
 * (the schema's "global batch must be at most …"): each wire issue a rule raised names it (FieldIssue.rule).
 */
export const RULE_FIELDS: readonly RuleFields[] = [
  // "global batch 1,000 is not a multiple of micro-batch × data-parallel = 1×16 = 16".
  { rule: 'batch-indivisible', fields: ['gbs', 'mbs', ...DATA_PARALLEL] },
  // "the interleaved schedule needs the micro-batches per step (65) in whole rounds of the 8 pipeline stages": with
  // v > 1, the micro-batches per step (global batch over micro-batch × data-parallel) must be a multiple of p.
  { rule: 'interleave-rounds', fields: ['vp', 'pp', 'gbs', 'mbs', 'nodes', 'tp', 'cp'] },
  // "virtual stages need a pipeline of more than one stage": v > 1 with p = 1.
  { rule: 'interleave-needs-pipeline', fields: ['vp', 'pp'] },
  // "the N layers per stage do not split into v model chunks": the layers over p, then over v.
  { rule: 'interleave-indivisible', fields: ['vp', 'pp'] },
  // "the interleaved schedule on 2 pipeline stages needs overlapped pipeline sends".
  { rule: 'interleave-needs-overlap', fields: ['vp', 'pp'] },
  // "sequence parallelism splits each rank's s / c tokens over t tensor-parallel ranks, which does not divide them".
  { rule: 'sequence-parallel-indivisible', fields: ['sp', 'tp', 'cp'] },
];

/** An answer for an array of scenarios prefixes each path with its index ("[0].parallelism.tensor"). */
const unindexed = (path: string): string => path.replace(/^\[\d+\]\.?/, '');

/** The fields an estimate's issue at `path` is about: one, several (PATH_TO_FIELDS), or none (the status line says it). */
export function fieldsForPath(path: string): readonly string[] {
  const key = unindexed(path);
  const one = PATH_TO_FIELD[key];
  return PATH_TO_FIELDS[key] ?? (one === undefined ? [] : [one]);
}

/** The one field to show an estimate's issue beside, from its JSON path: '' when none fits, or when it names several. */
export function fieldForPath(path: string): string {
  const fields = fieldsForPath(path);
  return fields.length === 1 ? fields[0]! : '';
}

/**
 * An estimate's issue as the form shows it: beside its field, on every field it is about (by its path, or by the
 * planner's rule: RULE_FIELDS) or its message names (in the form's labels: field-names.ts), or in the status line.
 */
export function issueAt(issue: { readonly path: string; readonly message: string; readonly rule?: string }): FieldIssue {
  const byRule = issue.rule === undefined ? undefined : RULE_FIELDS.find((r) => r.rule === issue.rule);
  const fields = byRule?.fields ?? fieldsForPath(issue.path);
  return labelledIssue({ field: '', fields, message: issue.message }, FIELDS, PATH_TO_FIELD);
}
