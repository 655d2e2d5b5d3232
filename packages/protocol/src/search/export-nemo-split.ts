import { pipelineSplit, slotsTaken, splitsIntoChunks, type PipelineSplit } from '@trainplan/model';
import { estimatePlan, TIGHT_MEMORY_SHARE, type PlanInput } from '@trainplan/planner';
import { formatGrouped } from '@trainplan/units';

/**
 * An uneven split's keys, with a comment stating it (and what NeMo 1.x would refuse with virtual stages); or
 * the TransformerConfig fields that count the embedding and the loss as layers, passed through by name as the
 * uneven ones are (NVIDIA's Megatron-Bridge recipes for Llama 3.1 405B set both).
 */
export function nemoSplitLines(plan: PlanInput, split: PipelineSplit): string[] {
  const p = plan.pipeline;
  const shape = p > 2 ? `${split.first} + ${split.middle} × ${p - 2} + ${split.last}` : `${split.first} + ${split.last}`;
  if (split.slots !== 'layers') {
    const { embedding, loss } = slotsTaken(split.slots);
    return [
      `  # pipeline split of the ${plan.model.layers} layers with ${[embedding && 'the embedding', loss && 'the loss'].filter(Boolean).join(' and ')} `
        + `counted as a layer each: ${shape} (Megatron-Core TransformerConfig fields)`,
      // NeMo 2's GPTConfig.configure_model (nemo/collections/llm/gpt/model/base.py) skips the check when
      // account_for_embedding/loss_in_pipeline_split is set ("is_pipeline_asymmetric"); NeMo 1.x does not. NeMo 2 is
      // configured in Python (its recipes' GPTConfig and MegatronStrategy), so this YAML is no way to give it the plan.
      ...virtualStageWarning(plan, '', 'this YAML is NeMo 1.x\'s, which stops there; NeMo 2, whose GPTConfig skips the check for a split that counts the '
        + 'embedding or the loss, reads no YAML: set the same values in its recipe\'s Python config (GPTConfig, MegatronStrategy) instead; or '),
      ...(embedding ? ['  account_for_embedding_in_pipeline_split: true'] : []),
      ...(loss ? ['  account_for_loss_in_pipeline_split: true'] : []),
    ];
  }
  if (!split.uneven) return [];
  // Megatron-Core's names of these fields are pinned to no release. 0.9 ("Uneven pipeline parallelism", CHANGELOG.md) named
  // them first_pipeline_num_layers / last_pipeline_num_layers, and so did main on 2024-11-27 (Megatron-LM issue #1303 quotes
  // get_num_layers_to_build with them and "Uneven number of layer not compatible with interleaved pipeline schedule"), a
  // core_transformer_config_from_args that has 0.10's multi-latent attention, and a later test_transformer_block.py that
  // already has include_embedding_in_pipeline_split (the forerunner of account_for_embedding_in_pipeline_split). The
  // rename's commit was not found: 0.11 (its uneven virtual pipeline split) or 0.12 is likely, but the release they are
  // sure of is the one the account_for_* fields were checked in, 0.14 (export-header.ts), which the header asks for.
  // Before the rename NeMo's by-name pass-through drops them, and Megatron-Core 0.9/0.10 then builds num_layers // PP
  // layers a stage, silently fewer than num_layers (Megatron-LM issue #1304: 28 of 30 built).
  return [
    `  # uneven pipeline split of the ${plan.model.layers} layers: ${shape} (Megatron-Core TransformerConfig fields as 0.14 names them; `
      + '0.9 and 0.10 named them first_pipeline_num_layers / last_pipeline_num_layers)',
    ...virtualStageWarning(plan, ' whatever the layers of each stage (it reads only num_layers, PP and v), so no split set by hand passes it', ''),
    `  num_layers_in_first_pipeline_stage: ${split.first}`,
    `  num_layers_in_last_pipeline_stage: ${split.last}`,
  ];
}

/**
 * The first line of a NeMo export its model cannot start: NeMo 1.x's legacy GPT (mcore_gpt: false, which ALiBi needs:
 * export-architecture.ts) builds its layers in ParallelTransformer (nemo/collections/nlp/modules/common/megatron/
 * transformer.py), whose model_type defaults to ModelType.encoder_or_decoder, and for that it asserts "num_layers %
 * parallel_state.get_pipeline_model_parallel_world_size() == 0", 'num_layers must be divisible by
 * pipeline_model_parallel_size', and gives each stage num_layers // PP: the Megatron-Core split keys are not read. So a
 * plan whose layers PP does not divide (an uneven split, or one counting the embedding or the loss: its layers then
 * never divide by PP > 2) fails at start; one that PP divides (2 stages, both counted: L/2 layers each) runs its split.
 */
export function nemoLegacyWarning(plan: PlanInput, split: PipelineSplit, legacy: boolean): string[] {
  const { layers } = plan.model;
  const p = plan.pipeline;
  if (!legacy || layers % p === 0) return [];
  const how = split.uneven ? `its uneven split (${split.first} layers on the first stage)` : 'its split counting the embedding or the loss';
  return [`# WARNING: NeMo cannot start this plan: ${plan.model.name} needs NeMo 1.x's legacy GPT model (mcore_gpt: false, below), which `
    + `asserts num_layers % pipeline_model_parallel_size == 0 ("num_layers must be divisible by pipeline_model_parallel_size", `
    + `nemo/collections/nlp/modules/common/megatron/transformer.py) and ignores the split keys below: ${layers} % ${p} = ${layers % p}, so `
    + `${how} cannot be given to it. Search again with --pipeline set to a divisor of ${layers} (${orList(divisorsOf(layers))}) and `
    + '--pipeline-split layers; the rest of this YAML is as planned'];
}

/** d = 1 … n with n % d === 0. */
const divisorsOf = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);

const orList = (xs: readonly number[]): string => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}` : `${xs[0]}`);

/**
 * The model chunks per stage (v ≥ 2) a remedy names at PP q: as the search's default (megatronVirtualStages,
 * packages/search/src/search-space.ts), up to one layer a chunk.
 */
const chunkCounts = (layers: number, q: number): number[] => Array.from({ length: Math.max(0, Math.floor(layers / q) - 1) }, (_, i) => i + 2);

/** NeMo 1.x MegatronBaseModel.__init__: (num_layers // pipeline_model_parallel_size) % virtual_pipeline_model_parallel_size == 0. */
const nemoPasses = (layers: number, p: number, v: number): boolean => v === 1 || Math.floor(layers / p) % v === 0;

/**
 * Whether the planner runs this plan with PP `p` and v `v`, TP, CP, the GPUs and the split's slots held (DP = GPUs / (TP · CP · PP)):
 * Megatron's split of the slots over p stages and into v chunks, the interleaved schedule's rounds and 2-stage rule (checkPlan), and
 * memory within the search's default budget (memoryBudgetBytes: TIGHT_MEMORY_SHARE of HBM), at this plan's micro-batch, recompute
 * and optimizer layout or, where those no longer fit, at micro-batch 1, full recompute and the distributed optimizer, all in the
 * search's default space (defaultSearchSpace). A search with these sizes fixed then finds this plan at least.
 */
function runs(plan: PlanInput, p: number, v: number): boolean {
  const slots = plan.pipelineSlots ?? 'layers';
  const gpus = plan.nodes * plan.gpusPerNode;
  const width = plan.tensor * plan.context * p;
  if (p > plan.model.layers || gpus % width !== 0) return false;
  const split = pipelineSplit(plan.model.layers, p, slots);
  if (split === undefined || (v > 1 && (p === 1 || !splitsIntoChunks(split, v)))) return false;
  const budgetBytes = plan.gpu.hbmBytes * TIGHT_MEMORY_SHARE;
  const batches = [...new Set([plan.microBatchSize, 1])];
  const recomputes = [...new Set([plan.recompute, 'full' as const])];
  const shardings = [...new Set([plan.sharding, 'distributed-optimizer' as const])];
  return batches.some((microBatchSize) => recomputes.some((recompute) => shardings.some((sharding) => {
    const r = estimatePlan({
      ...plan, pipeline: p, data: gpus / width, virtualStages: v, schedule: v > 1 ? 'interleaved' : '1f1b',
      // Megatron overlaps pipeline sends only with virtual stages (overlapPipelineCommFor); memory does not depend on the comm model.
      overlapPipelineComm: v > 1 && plan.overlapPipelineComm, microBatchSize, recompute, sharding,
      recomputeLayers: recompute === plan.recompute ? plan.recomputeLayers : undefined, communicationModel: 'closed-form',
    });
    return r.ok && r.memory.totalBytes <= budgetBytes;
  })));
}

/** How a split of p stages reads: "20 layers a stage", "13 + 14 × 4 + 13 layers", "81 slots, 9 a stage". */
function splitWords(plan: PlanInput, p: number): string {
  const split = pipelineSplit(plan.model.layers, p, plan.pipelineSlots ?? 'layers')!;
  if (split.slots !== 'layers') return `${split.slotCount} slots, ${split.slotCount / p} a stage`;
  if (!split.uneven) return `${split.first} layers a stage`;
  return `${p > 2 ? `${split.first} + ${split.middle} × ${p - 2} + ${split.last}` : `${split.first} + ${split.last}`} layers`;
}

/** What the split counts besides the layers, in words. */
function slotsWords(plan: PlanInput): string {
  const { embedding, loss } = slotsTaken(plan.pipelineSlots ?? 'layers');
  const counted = [embedding && 'the embedding', loss && 'the loss'].filter(Boolean).join(' and ');
  return counted === '' ? 'the layers alone in the split' : `${counted} counted in the split`;
}

/**
 * What passes NeMo 1.x's assertion, which reads only the layers L, PP p and v (so no split set by hand does), and runs in the
 * planner, each checked (runs): every PP p' dividing GPUs / (TP · CP) (TP, CP and the split's slots held) with each v' ≤ 8 that
 * both NeMo's (L // p') % v' == 0 and Megatron's split into p' × v' chunks accept, nearest p first; v 1 (no interleaving, nothing
 * asserted); or Megatron-LM's export, whose arguments.py takes the virtual stages per rank without this check
 * (--num-virtual-stages-per-pipeline-rank, or the layers per virtual stage of an even split, which the plan's split divides:
 * checkPlan). Where no (p', v') passes both, only v 1 and Megatron-LM are offered. Each is named as the flags of a search to run again.
 */
function nemoVirtualStageRemedy(plan: PlanInput): string {
  const { layers } = plan.model;
  const p = plan.pipeline;
  const slots = plan.pipelineSlots ?? 'layers';
  const gpus = plan.nodes * plan.gpusPerNode;
  const ranks = gpus / (plan.tensor * plan.context);
  const held = `--tensor ${plan.tensor} --context ${plan.context} --pipeline-split ${slots}`;
  const where = `TP ${plan.tensor} · CP ${plan.context} on the ${formatGrouped(gpus)} GPUs and ${slotsWords(plan)}`;
  const interleaved = divisorsOf(ranks)
    .filter((q) => q > 1)
    .sort((a, b) => Math.abs(a - p) - Math.abs(b - p) || a - b)
    .map((q) => ({ q, vs: chunkCounts(layers, q).filter((w) => nemoPasses(layers, q, w) && runs(plan, q, w)) }))
    .filter(({ vs }) => vs.length > 0);
  // v 1 at this PP, or failing that (its memory) the nearest PP that runs it.
  const flat = [p, ...divisorsOf(ranks).sort((a, b) => Math.abs(a - p) - Math.abs(b - p) || a - b)].find((q) => runs(plan, q, 1));
  const noInterleaving = flat === undefined ? 'v 1 (no interleaving, nothing asserted; the search says whether it fits)'
    : `--pipeline ${flat} --virtual-stages 1 (no interleaving, nothing asserted)`;
  const megatron = 'or take this plan as Megatron-LM arguments (--export megatron), which assert no such thing';
  if (interleaved.length === 0) {
    return `search again for NeMo 1.x with ${held} ${noInterleaving}: no PP dividing the ${formatGrouped(ranks)} ranks left by ${where} `
      + `has a v (up to one layer a chunk) that both NeMo 1.x and Megatron's split accept; ${megatron}`;
  }
  const ways = interleaved.map(({ q, vs }) => `--pipeline ${q} --virtual-stages ${orList(vs)} (${layers} // ${q} = ${Math.floor(layers / q)}; ${splitWords(plan, q)})`);
  return `search again for NeMo 1.x holding ${where} (${held}, the other flags as before) with ${ways.join(', with ')}, or with ${noInterleaving}, `
    + `each checked to split and fit in the planner; ${megatron}`;
}

/**
 * NeMo 1.x MegatronBaseModel.__init__ asserts "(num_layers // pipeline_model_parallel_size) % vp_size == 0", which
 * any split with virtual stages can fail: a comment saying so, where this plan fails it, and what passes it (`after`
 * qualifies the failure, `before` leads the remedy).
 */
function virtualStageWarning(plan: PlanInput, after: string, before: string): string[] {
  const { layers } = plan.model;
  const p = plan.pipeline;
  const v = plan.virtualStages;
  if (v <= 1 || Math.floor(layers / p) % v === 0) return [];
  return [`  # NeMo 1.x asserts (num_layers // pipeline_model_parallel_size) % virtual_pipeline_model_parallel_size == 0, `
    + `which ${layers} // ${p} = ${Math.floor(layers / p)} fails for ${v}${after}: ${before}${nemoVirtualStageRemedy(plan)}`];
}
