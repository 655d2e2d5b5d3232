import type { Seconds } from '@trainplan/units';
import type { TensorParallelLayerComm } from './comm-time.ts';
import type { LayerComputeCost } from './layer-time.ts';
import type { PlanInput } from './plan-input.ts';

/**
 * The backward tensor-parallel communication of one layer and micro-batch left exposed by
 * Megatron-LM's asynchronous tensor-parallel communication (`asyncTensorParallelGradComm`).
 *
 * Megatron-LM megatron/arguments.py, `--no-async-tensor-model-parallel-allreduce` (the feature is on
 * unless disabled): "asynchronous execution of tensor-model-parallel all-reduce with weight gradient
 * computation of a column-linear layer". With sequence parallelism, megatron/mpu/layers.py
 * `LinearWithGradAccumulationAndAsyncCommunication.backward` (Megatron-LM v3.0, the code of Korthikanti
 * et al. 2022) launches the all-gather of the layer input before the input-gradient (dgrad) GEMM and
 * the reduce-scatter of the input gradient before the weight-gradient (wgrad) GEMM. So in each
 * column-parallel linear (QKV, fc1) the gather hides under dgrad and the reduction under wgrad, and
 * only what outlasts its GEMM is exposed; the row-parallel linears' backward gathers are not overlapped.
 * Without the option (Megatron-LM of 2021, Megatron-DeepSpeed's synchronous `copy_to_tensor_model_parallel_region`)
 * every backward collective is exposed.
 */
export function exposedTensorParallelBackward(input: PlanInput, layer: LayerComputeCost, tp: TensorParallelLayerComm): Seconds {
  if (input.asyncTensorParallelGradComm !== true) return tp.backward;
  let exposed = tp.rowGather;
  for (const gemm of layer.columnParallelBackward) {
    exposed += Math.max(0, tp.columnGather - gemm.dgrad) + Math.max(0, tp.columnReduce - gemm.wgrad);
  }
  return exposed;
}
