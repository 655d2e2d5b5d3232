import type { GpuGeneration } from '@trainplan/hardware';
import type { NcclConstant } from './nccl-tables.ts';
import type { Protocol } from './types.ts';

/**
 * What NCCL does at run time after its tuner has chosen (algorithm, protocol): the channels and
 * threads it actually launches, and how it chunks an NVLS operation. The tuner's predicted time
 * ignores all of this (collectives-reference §1, "After selection … This changes the real runtime
 * only, not the predicted time"), so the tuner is optimistic for small and mid-size messages;
 * `nccl-runtime-model.ts` costs the choice with these. Same snapshot as `NCCL_TABLES`; sources in
 * nccl-table-sources.ts.
 */
export const NCCL_RUNTIME_TABLES = {
  /**
   * `while (nBytes < nc·nt·threadThreshold) nc--` then `nt /= 2`: bytes per thread below which a
   * channel is dropped. LL's threshold is multiplied by nRanks for Ring (reference §1).
   */
  threadThresholdBytes: { // src/include/device.h NCCL_{LL,LL128,SIMPLE}_THREAD_THRESHOLD; src/enqueue.cc topoGetAlgoInfo
    value: { LL: 8, LL128: 8, Simple: 64 },
  } satisfies NcclConstant<Readonly<Record<Protocol, number>>>,

  /** Threads per channel (CTA) the tuner starts from. */
  maxThreads: { // src/include/device.h NCCL_LL_MAX_NTHREADS, NCCL_LL128_MAX_NTHREADS, NCCL_SIMPLE_MAX_NTHREADS
    value: { LL: 512, LL128: 640, Simple: 512 },
  } satisfies NcclConstant<Readonly<Record<Protocol, number>>>,

  /** Threads are halved only while the count stays a multiple of this (`nt % 128 == 0`). */
  threadHalvingMultiple: { value: 128 }, // src/enqueue.cc topoGetAlgoInfo

  /**
   * CTAs an NVLS operation runs on (NVLS_NCHANNELS_SM90 / SM100; channels are not reduced for
   * NVLS). Pre-Hopper GPUs have no NVLS.
   */
  nvlsChannels: { // src/transport/nvls.cc NVLS_NCHANNELS_SM90, NVLS_NCHANNELS_SM100
    value: { volta: 0, ampere: 0, hopper: 16, blackwell: 32 },
  } satisfies NcclConstant<Readonly<Record<GpuGeneration, number>>>,

  /**
   * NVLS chunk size: NCCL_NVLS_CHUNKSIZE (128 KiB), cut to `bytes` when the message is smaller than
   * `factor` × concurrentOps × the current chunk, concurrentOps = nvlsChannels × nHeads.
   */
  nvlsChunking: { // src/transport/nvls.cc NCCL_NVLS_CHUNKSIZE; src/enqueue.cc calcCollChunking (NCCL_ALGO_NVLS)
    value: {
      maxChunkBytes: 131072,
      cuts: [
        { factor: 64, bytes: 65536 },
        { factor: 8, bytes: 32768 },
        { factor: 2, bytes: 16384 },
      ],
    },
  },

  /**
   * Single-node NVLS all-reduce runs three warp groups per channel — scatter into the multicast
   * buffer, reduce through the switch (multimem ld_reduce + st), gather out — each working one
   * loop of nHeads chunks behind the other: a three-stage pipeline.
   */
  nvlsAllReducePipelineStages: { // src/device/all_reduce.h RunWorkColl<AllReduce, NVLS, SIMPLE> (oneNode: scatter / reduce / gather)
    value: 3,
  },

  /**
   * Single-node NVLS reduce-scatter and all-gather run two warp groups per channel on the same loops: scatter into the
   * multicast buffer and reduce out of the switch (multimem ld_reduce), or broadcast into it (multimem st) and gather
   * out: a two-stage pipeline.
   */
  nvlsHalfPipelineStages: { // src/device/reduce_scatter.h and all_gather.h RunWorkColl<…, NVLS, SIMPLE> (oneNode: scatter / reduce; gather / bcast)
    value: 2,
  },

  /**
   * NVLSTree all-reduce runs four warp groups per channel on the same loops of nHeads chunks: scatter into the
   * multicast buffer, reduce through the switch and send up the tree, receive down the tree and broadcast, gather.
   */
  nvlsTreeAllReducePipelineStages: { // src/device/all_reduce.h RunWorkColl<AllReduce, NVLS_TREE, SIMPLE> (scatterWarps, reduceWarps, bcastWarps, gatherWarps)
    value: 4,
  },

  /**
   * Shares of a channel's data that a head's NIC sends (and receives) per channel of NVLSTree's network tree. Channel c
   * runs tree c % 2 of NCCL's double binary tree over the nodes (connectNvls: `treeUp[c%2]`, `treeDown0[c%2]`;
   * ncclGetDtree). On two nodes each node is the root of one tree and the leaf of the other, so each share crosses a
   * head's NIC once each way. Beyond two nodes, a node that is interior in one tree (up to two children) and a leaf in
   * the other is the busiest. It sends one share up and two down in the first tree and one in the second: four over two
   * channels, so two per channel.
   */
  nvlsTreeNicSharesPerChannel: { // src/graph/connect.cc connectNvls (channel->nvls.treeUp = treeUp[c%2]); src/graph/trees.cc ncclGetDtree
    value: { twoNodes: 1, moreNodes: 2 },
  },

  /**
   * NVLSTree's chunk: NCCL_NVLS_CHUNKSIZE (128 KiB; 64 KiB from 4 nodes, NCCL_NVLS_TREE_MAX_CHUNKSIZE's default),
   * cut when the message is smaller than `factor` × concurrentOps × the current chunk (its own cuts, not NVLS's).
   */
  nvlsTreeChunking: { // src/enqueue.cc calcCollChunking (NCCL_ALGO_NVLS_TREE); src/transport/nvls.cc ncclNvlsTuning (treeMaxChunkSize)
    value: {
      maxChunkBytes: 131072,
      maxChunkBytesFromFourNodes: 65536,
      cuts: [
        { factor: 32, bytes: 262144 },
        { factor: 16, bytes: 131072 },
        { factor: 4, bytes: 65536 },
        { factor: 1, bytes: 32768 },
      ],
    },
  },
} as const;
