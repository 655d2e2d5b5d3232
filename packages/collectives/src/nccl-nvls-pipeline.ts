import type { Bytes } from '@trainplan/units';
import { NCCL_RUNTIME_TABLES } from './nccl-runtime-tables.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import type { NcclTopology } from './nccl-topology.ts';
import type { CollectiveOp } from './types.ts';

// NCCL's one-node NVLS pipelines and their chunking: what nccl-runtime-model.ts costs one-node NVLS with, and
// nccl-collnet-model.ts the NVLink stages of NVLS across nodes (a leaf, so that neither imports the other for it).

/** NVLS chunk bytes for a message (src/enqueue.cc calcCollChunking): 128 KiB, cut for smaller messages. */
export function nvlsChunkBytes(bytes: Bytes, concurrentOps: number): number {
  const { maxChunkBytes, cuts } = NCCL_RUNTIME_TABLES.nvlsChunking.value;
  let chunk: number = maxChunkBytes;
  for (const cut of cuts) {
    if (bytes < cut.factor * concurrentOps * chunk && chunk > cut.bytes) chunk = cut.bytes;
  }
  return chunk;
}

/**
 * The one-node NVLS ops NCCL runs as a pipeline of warp groups (src/device/*.h RunWorkColl<…, NVLS, SIMPLE>, oneNode), and
 * its stages: all-reduce's three (scatter, switch reduce, gather), reduce-scatter's and all-gather's two (scatter and
 * switch reduce; switch broadcast and gather). Others have no NVLS kernel.
 */
export function nvlsPipelineStages(op: CollectiveOp): number | undefined {
  if (op === 'all-reduce') return NCCL_RUNTIME_TABLES.nvlsAllReducePipelineStages.value;
  if (op === 'reduce-scatter' || op === 'all-gather') return NCCL_RUNTIME_TABLES.nvlsHalfPipelineStages.value;
  return undefined;
}

/**
 * The part of `nvlsPipelineUs` no byte adds: its time for an empty message, base + stages · o (one loop through
 * every stage, each its handshake). It is the run's latency, where the tuner's lumped NVLS latency (25 µs on H100) is
 * not: the pipeline replaces it (8 × H100, 8 B: an all-reduce's 18.6 µs in all; QA: reduce-scatter and all-gather kept
 * the tuner's 25 µs and took longer than the all-reduce that does both). The emulator streams the rest as bandwidth.
 */
export function nvlsPipelineLatencyUs(stages: number = NCCL_RUNTIME_TABLES.nvlsAllReducePipelineStages.value): number {
  return NCCL_TABLES.baseLatencyUs.value.ring.Simple + stages * NCCL_TABLES.hwLatencyUs.value.nvlink.ring.Simple;
}

/**
 * Single-node NVLS all-reduce as the pipeline NCCL runs (src/device/all_reduce.h), and with `stages` 2 reduce-scatter
 * and all-gather (nvlsPipelineStages; the same chunking, at their own rate): every channel
 * works loops of nHeads chunks; a loop passes scatter → switch reduce → gather, so k loops take
 * (k + stages − 1) loop times — the fill is what makes mid sizes slow, and it grows with the chunk
 * NCCL picks (16 KiB below 2·ops·32 KiB, up to 128 KiB from 64·ops·128 KiB). A loop costs one
 * Simple-protocol step handshake over NVLink (NCCL's own per-step latency, hwLat NVLink Ring
 * Simple) plus its bytes at the raw rate `b`; `b` is set so that at the largest chunk the
 * asymptote is NCCL's NVLS bandwidth (nvlsEfficiency included): 1/B = 1/b + o/L_max. The fixed
 * part is NCCL's Simple base latency. So the tuner's lumped 25 µs becomes launch + fill:
 *   t = base + (max(1, S/L) + stages − 1) · (o + min(S, L)/b),  L = nvlsChannels·nHeads·chunk.
 */
export function nvlsPipelineUs(
  topology: NcclTopology, bytes: Bytes, algBandwidthGBps: number, stages: number = NCCL_RUNTIME_TABLES.nvlsAllReducePipelineStages.value,
): number {
  const R = NCCL_RUNTIME_TABLES;
  const nHeads = topology.nvls?.nChannels ?? 1;
  const concurrentOps = R.nvlsChannels.value[topology.fabric.generation] * nHeads;
  const loopOverheadUs = NCCL_TABLES.hwLatencyUs.value.nvlink.ring.Simple;
  const baseUs = NCCL_TABLES.baseLatencyUs.value.ring.Simple;
  const maxLoopBytes = concurrentOps * R.nvlsChunking.value.maxChunkBytes;
  const usPerByteAsymptote = 1 / (1000 * algBandwidthGBps);
  // Raw µs per byte; never below zero (a loop overhead larger than the asymptote allows falls back to it).
  const usPerByte = Math.max(usPerByteAsymptote - loopOverheadUs / maxLoopBytes, 0);
  const loopBytes = concurrentOps * nvlsChunkBytes(bytes, concurrentOps);
  const loops = Math.max(1, bytes / loopBytes);
  return baseUs + (loops + stages - 1) * (loopOverheadUs + Math.min(bytes, loopBytes) * usPerByte);
}
