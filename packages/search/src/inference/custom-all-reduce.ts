import type { Fabric } from '@trainplan/collectives';
import { GBps, MiB, us, type Bytes, type BytesPerSecond, type Seconds } from '@trainplan/units';

/**
 * The tensor-parallel all-reduce a serving engine runs on a decode step's small messages: vLLM's custom all-reduce
 * (vllm-project/vllm#2192; csrc/custom_all_reduce.cuh), which TensorRT-LLM and SGLang also ship in their own forms.
 * Each GPU reads its peers' buffers directly over NVLink (CUDA IPC) in one kernel, with no ring and no NCCL
 * protocol switch. vLLM takes it for 2, 4, 6 or 8 GPUs that NVLink joins all to all, on messages up to its 8 MiB
 * buffer (custom_all_reduce.py, max_size), and otherwise NCCL's. Its two kernels:
 * - one stage, each GPU reading every peer's whole message and reducing it: (t − 1)·S bytes in;
 * - two stages, a reduce-scatter and an all-gather through the peers' buffers: 2·(t − 1)/t·S bytes in, and a second
 *   barrier among the peers.
 * vLLM switches between them at fixed sizes (custom_all_reduce.cuh: one stage for t = 2, for t ≤ 4 under 512 KiB and
 * for t ≤ 8 under 256 KiB); here the quicker of the two is taken, which the fitted constants make the same choice on
 * every size measured, and which keeps the cost rising with the message. Without it NCCL's small-message costs (its
 * channel and protocol choice) made a decode step of 4 sequences faster than one of 3 on TP 8 (QA 2026-11-29), which
 * the engines never pay.
 *
 * Its constants, fitted to vLLM's kernel timed on an H100 node (SGLang PR #2904, sgl-project/sglang, 2025-01-15,
 * "unit test performance in H100 (without cuda graph)", the "vllm" table: TP 2, 4 and 8 at 512 B to 1 MiB) for the
 * least worst error: a latency for each kernel and the rate a GPU pulls its peers' bytes in at, which the kernel's
 * few thread blocks hold far under NVLink's 450 GB/s. They predict the table's 18 points within 12.7% (mean 6.7%;
 * test/custom-all-reduce.test.ts). Measured without CUDA graphs, the latencies include the launch an engine's
 * captured decode step saves: an upper bound there. Only Hopper was timed: other generations take these.
 */
const ONE_STAGE_LATENCY: Seconds = us(9);
const TWO_STAGE_LATENCY: Seconds = us(15);
const PULL_BANDWIDTH: BytesPerSecond = GBps(72);
/** vLLM's buffer: messages past it go to NCCL (custom_all_reduce.py, max_size = 8192 × 1024). */
export const CUSTOM_ALL_REDUCE_MAX_BYTES: Bytes = MiB(8);

/**
 * Whether vLLM's custom all-reduce takes `ranks` GPUs on `fabric`: 2, 4, 6 or 8 within one node, NVLink joining them
 * all to all (an NVSwitch; two GPUs need only their own link), as its full-NVLink check asks.
 */
export function customAllReduceRuns(ranks: number, ranksPerNode: number, fabric: Pick<Fabric, 'nvlinkCount' | 'intraNode'>): boolean {
  return [2, 4, 6, 8].includes(ranks) && ranksPerNode === ranks && fabric.nvlinkCount > 0 && (ranks === 2 || fabric.intraNode === 'nvswitch');
}

/**
 * The custom all-reduce's time where it runs for this group and message (customAllReduceRuns, within its buffer),
 * undefined where only NCCL does. A caller takes the quicker of it and NCCL's (tensorParallelAllReduceSeconds,
 * servingLayerForwardSeconds), the same rule for prefill and decode: vLLM's tensor_model_parallel_all_reduce serves both.
 * vLLM itself takes the custom kernel for every message within its buffer (should_custom_ar never asks NCCL's speed),
 * but the constants above are fitted to 1 MiB, and past a few hundred KiB they cost more than NCCL's model (TP 8 on
 * H100 at 8 MiB: 219 µs against 80 µs): taking it there made batch 129 of Llama 3 8B on TP 8 decode 18% faster than
 * 128 at a 1 MiB cut-off, and a 500-token prompt's TTFT on TP 2 27% slower at vLLM's 8 MiB (QA retest 2 follow-up).
 */
export function customAllReduceIfRuns(bytes: Bytes, ranks: number, ranksPerNode: number, fabric: Pick<Fabric, 'nvlinkCount' | 'intraNode'>): Seconds | undefined {
  return customAllReduceRuns(ranks, ranksPerNode, fabric) ? customAllReduceSeconds(bytes, ranks) : undefined;
}

/** One custom all-reduce of `bytes` over `ranks` GPUs (customAllReduceRuns): the quicker kernel; undefined past its buffer. */
export function customAllReduceSeconds(bytes: Bytes, ranks: number): Seconds | undefined {
  if (bytes > CUSTOM_ALL_REDUCE_MAX_BYTES) return undefined;
  const oneStage = ONE_STAGE_LATENCY + ((ranks - 1) * bytes) / PULL_BANDWIDTH;
  const twoStage = TWO_STAGE_LATENCY + ((2 * (ranks - 1)) / ranks * bytes) / PULL_BANDWIDTH;
  return Math.min(oneStage, twoStage);
}
