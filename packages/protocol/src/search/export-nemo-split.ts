import { slotsTaken, type PipelineSplit } from '@trainplan/model';
import type { PlanInput } from '@trainplan/planner';
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
  return [
    `  # uneven pipeline split of the ${plan.model.layers} layers: ${shape} (Megatron-Core TransformerConfig fields, ${plan.virtualStages > 1 ? '0.11+ with virtual stages' : '0.9+'})`,
    ...virtualStageWarning(plan, ' whatever the layers of each stage (it reads only num_layers, PP and v), so no split set by hand passes it', ''),
    `  num_layers_in_first_pipeline_stage: ${split.first}`,
    `  num_layers_in_last_pipeline_stage: ${split.last}`,
  ];
}

/** d = 1 … n with n % d === 0. */
const divisorsOf = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);

/** The nearest of `values` below and above `x`, ascending. */
function nearestAround(values: readonly number[], x: number): number[] {
  const below = values.filter((y) => y < x).at(-1);
  const above = values.find((y) => y > x);
  return [below, above].filter((y): y is number => y !== undefined);
}

const orList = (xs: readonly number[]): string => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}` : `${xs[0]}`);

/**
 * What passes NeMo 1.x's assertion, which reads only the layers L, PP p and v (so no split set by hand does): another
 * PP p' that keeps TP · CP on the same GPUs (p' divides p · DP) with (L // p') % v == 0, the nearest below and above p;
 * another v' > 1 dividing L // p; v 1 (no interleaving, nothing asserted); or Megatron-LM's export, whose arguments.py
 * takes the virtual stages per rank without this check (--num-virtual-stages-per-pipeline-rank, or the layers per
 * virtual stage of an even split, which the plan's split divides: checkPlan). Each is a search to run again, not a
 * plan known to fit: the search says whether it does.
 */
function nemoVirtualStageRemedy(plan: PlanInput): string {
  const { layers } = plan.model;
  const p = plan.pipeline;
  const v = plan.virtualStages;
  const gpus = plan.nodes * plan.gpusPerNode;
  const pipelines = nearestAround(divisorsOf(p * plan.data).filter((q) => q > 1 && q <= layers && Math.floor(layers / q) % v === 0), p);
  const stages = nearestAround(divisorsOf(Math.floor(layers / p)).filter((w) => w > 1), v);
  const ways = [
    ...(pipelines.length > 0 ? [`PP ${orList(pipelines)} (the same TP ${plan.tensor} · CP ${plan.context} on the ${formatGrouped(gpus)} GPUs; `
      + `${pipelines.map((q) => `${layers} // ${q} = ${Math.floor(layers / q)}`).join(', ')}: ${pipelines.length > 1 ? 'multiples' : 'a multiple'} of ${v})`] : []),
    ...(stages.length > 0 ? [`v ${orList(stages)} (${stages.length > 1 ? 'divisors' : 'a divisor'} of ${Math.floor(layers / p)})`] : []),
    'v 1 (no interleaving)',
  ];
  const listed = `${ways.slice(0, -1).join(', ')} or ${ways.at(-1)}`;
  return `search again for NeMo 1.x with ${listed} (the search says which of them run); or take this plan as Megatron-LM arguments `
    + '(--export megatron), which assert no such thing';
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
