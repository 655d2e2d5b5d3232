import { BYTES_16BIT, kvWidth, type ModelShape } from '@trainplan/model';
import type { Bytes } from '@trainplan/units';

/**
 * Bytes of an activation value: 16 bits, with FP8 weights too (an FP8 GEMM quantizes its input on the fly
 * and writes a 16-bit output; TensorRT-LLM's and vLLM's FP8 paths keep the residual stream in BF16/FP16).
 */
const ACTIVATION_BYTES = BYTES_16BIT;

/**
 * The activations one forward pass over `tokens` tokens holds at its peak on one tensor-parallel rank of
 * `model`: a prefill's working set, which the KV cache must leave room for. Serving keeps nothing for a
 * backward pass, so each tensor is freed once the next kernel has read it and the peak is one sublayer's
 * live tensors (the tensors of Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
 * Transformer Models", §4.1, held for one sublayer rather than stored for all): the residual stream and
 * the sublayer's normalized input, h values a token each (replicated over the tensor-parallel ranks),
 * beside its own intermediates, split t ways. The MLP's are the first GEMM's outputs and the activation's
 * (f values each: gate, up and their product when gated, else the GEMM's output and the GeLU's), so
 * T·(2h + (gated ? 3 : 2)·f/t); attention's are Q, K, V and its output, T·(2h + (2h + 2·n_kv·d)/t),
 * with fused attention (flash, paged or xformers kernels, which every serving engine runs) keeping no
 * score matrix. The larger of the two, in 16 bits. vLLM reserves this by profiling a dummy forward pass of
 * max_num_batched_tokens before it sizes the KV cache (gpu_worker.py, determine_available_memory);
 * TensorRT-LLM sizes its activation buffers for max_num_tokens.
 */
export function forwardActivationBytes(model: ModelShape, tensor: number, tokens: number): Bytes {
  const h = model.hiddenSize;
  const mlp = 2 * h + ((model.gatedMlp ? 3 : 2) * model.ffnHiddenSize) / tensor;
  const attention = 2 * h + (2 * h + 2 * kvWidth(model)) / tensor;
  return ACTIVATION_BYTES * tokens * Math.max(mlp, attention);
}
