import { BYTES_16BIT } from '@trainplan/model';
import { kernelContext, layerComputeCost, parallelGroups, peak16, resolveCalibration, tensorParallelLayerComm, type PlanInput } from '@trainplan/planner';
import type { Seconds } from '@trainplan/units';
import { customAllReduceIfRuns } from './custom-all-reduce.ts';

/**
 * One layer's forward over a prefill's tokens as a serving engine runs it: the planner's layerProfile (its GEMMs,
 * attention, element-wise traffic and Megatron's two tensor-parallel all-reduces of b·s·h 16-bit values), with those
 * all-reduces on the engine's custom kernel where it runs and is the quicker (customAllReduceIfRuns, the decode's own
 * rule, tensorParallelAllReduceSeconds), in place of the NCCL cost the planner gives them. The planner costs training,
 * which runs NCCL only; costing the prefill's with NCCL while the decode's ran the custom kernel made a 7-token
 * prompt's TTFT 9% slower than an 8-token one's on A100 TP 8 (NCCL's channel count steps at 32 KiB multiples) and
 * overstated small prompts by ~0.9 ms (QA retest 2).
 * Sequence parallelism is not a serving layout (vLLM all-reduces): such an input keeps the planner's figure.
 */
export function servingLayerForwardSeconds(input: PlanInput): Seconds {
  // layerProfile's forward (layer-profile.ts): the layer's compute and its tensor-parallel communication, each once.
  const layer = layerComputeCost(input, kernelContext(input, resolveCalibration(input)), peak16(input.gpu));
  const groups = parallelGroups(input);
  const tp = tensorParallelLayerComm(input, groups);
  if (input.tensor <= 1 || input.sequenceParallel) return layer.forward + tp.forward;
  const bytes = (BYTES_16BIT * input.microBatchSize * input.seqLength * input.model.hiddenSize) / input.context;
  const custom = customAllReduceIfRuns(bytes, input.tensor, groups.tensor.ranksPerNode, input.fabric);
  // Two all-reduces a layer forward (Megatron's g operators): each the quicker of the planner's NCCL one and the custom kernel.
  return layer.forward + (custom === undefined ? tp.forward : 2 * Math.min(tp.forward / 2, custom));
}
