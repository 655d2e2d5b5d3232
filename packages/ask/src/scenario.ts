import type { ScenarioInput } from '@trainplan/protocol';
import { systemById } from '@trainplan/presets';
import { assumedTokens, DEFAULT_GPU, gpusPerNodeOf } from './defaults.ts';
import { modelInputOf } from './model-of.ts';
import type { AskParameters } from './question.ts';

/** The contract's `cluster` for the parameters: the system's fabric when a node type was named. */
export function clusterOf(p: AskParameters): ScenarioInput['cluster'] {
  const system = p.system === undefined ? undefined : systemById(p.system);
  const cluster: ScenarioInput['cluster'] = { gpu: p.gpu ?? system?.gpu ?? DEFAULT_GPU, gpusPerNode: gpusPerNodeOf(p) };
  if (system !== undefined) cluster.network = system.network;
  if (p.network !== undefined) cluster.network = p.network;
  if (p.nodes !== undefined) cluster.nodes = p.nodes;
  else if (p.gpus !== undefined) cluster.gpus = p.gpus;
  return cluster;
}

/** The overlaps and scatter-gather: the scenario's parallelism extensions and the search's settings, of the same names. */
export const SWITCHES = ['overlapTensorParallelComm', 'overlapGradReduce', 'overlapPipelineComm', 'scatterGather'] as const;

/** A contract scenario for a fixed configuration (memory and estimate questions). */
export function scenarioOf(p: AskParameters): ScenarioInput {
  const training: ScenarioInput['training'] = { globalBatchSize: p.globalBatchSize ?? 1, microBatchSize: p.microBatchSize ?? 1 };
  if (p.precision !== undefined) training.precision = p.precision;
  if (p.seqLength !== undefined) training.seqLength = p.seqLength;
  if (p.tokens !== undefined) training.tokens = p.tokens;
  // A model sized in a family's style trains as its rows did (custom-model.ts trainedWithDropout); a preset states its own.
  if (p.customModel !== undefined) training.dropout = p.customModel.trainedWithDropout;
  // Dropout, the attention kernel and FP8 weights as the question states them (parse/switches-read.ts), over the model's own.
  if (p.dropout !== undefined) training.dropout = p.dropout;
  if (p.attentionKernel !== undefined) training.attentionKernel = p.attentionKernel;
  if (p.fp8Params !== undefined) training.fp8Params = p.fp8Params;
  const parallelism: NonNullable<ScenarioInput['parallelism']> = {};
  if (p.tensor !== undefined) parallelism.tensor = p.tensor;
  if (p.pipeline !== undefined) parallelism.pipeline = p.pipeline;
  if (p.context !== undefined) parallelism.context = p.context;
  if (p.data !== undefined) parallelism.data = p.data;
  if (p.virtualStages !== undefined) parallelism.virtualStages = p.virtualStages;
  if (p.recompute !== undefined) parallelism.recompute = p.recompute;
  if (p.sequenceParallel !== undefined) parallelism.sequenceParallel = p.sequenceParallel;
  if (p.distributedOptimizer !== undefined) parallelism.distributedOptimizer = p.distributedOptimizer;
  if (p.zeroStage !== undefined) parallelism.zeroStage = p.zeroStage;
  if (p.recomputeLayers !== undefined) parallelism.recomputeLayers = p.recomputeLayers;
  if (p.schedule !== undefined) parallelism.schedule = p.schedule;
  for (const field of SWITCHES) if (p[field] !== undefined) parallelism[field] = p[field];
  const cluster = clusterOf(p);
  // "Emulated": the step's collectives costed by the discrete-event emulator (the CLI's estimate --emulate).
  if (p.emulate === true) cluster.communicationModel = 'emulated';
  return { model: modelInputOf(p) ?? '', cluster, training, parallelism };
}

/**
 * The widget's address for a scenario: the widget reads `#scenario=` + the URI-encoded JSON
 * (the hash never reaches a server, so the link works behind any static host), and `&days=` the deadline
 * its "how many nodes" answers against (apps/widget hash.ts), where the question had one: without it the
 * widget keeps its page's deadline, and a bot answer for 14 days opened as one for 30.
 */
export function widgetUrl(scenario: ScenarioInput, publicUrl: string, deadlineDays?: number): string {
  const days = deadlineDays === undefined ? '' : `&days=${encodeURIComponent(String(Number(deadlineDays.toPrecision(6))))}`;
  return `${publicUrl.replace(/\/+$/, '')}/#scenario=${encodeURIComponent(JSON.stringify(scenario))}${days}`;
}

/**
 * The `widgetUrl` member of an answer: the link, or nothing where no widget is served (publicUrl null). It carries the
 * question's deadline and the tokens the answer planned or would assume (the model's published budget, as "how long" takes):
 * QA: a step-time answer's link had neither, and the widget showed its page's own 300B tokens and 30 days.
 */
export function widgetLink(scenario: ScenarioInput, publicUrl: string | null, p: AskParameters): { widgetUrl?: string } {
  if (publicUrl === null) return {};
  const tokens = scenario.training.tokens ?? p.tokens ?? assumedTokens(p)?.tokens;
  const linked = tokens === undefined ? scenario : { ...scenario, training: { ...scenario.training, tokens } };
  return { widgetUrl: widgetUrl(linked, publicUrl, p.deadlineSeconds === undefined ? undefined : p.deadlineSeconds / 86_400) };
}
