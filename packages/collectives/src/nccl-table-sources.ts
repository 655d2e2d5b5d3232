import type { NCCL_COLLNET_TABLES } from './nccl-collnet-model.ts';
import type { NCCL_RUNTIME_TABLES } from './nccl-runtime-tables.ts';
import type { NCCL_TABLES } from './nccl-tables.ts';

/**
 * Where each constant of NCCL's tables comes from: the NVIDIA/nccl file (and symbol) it was copied from, keyed by table
 * and entry name, in the snapshot NCCL_TABLES names. Provenance for the reader and the tests (nccl-tables.test.ts checks
 * that every entry of every table has one and that none is stale). Kept apart from the tables, and imported by no
 * runtime file, because no cost, API answer or bot answer reads a source: in the tables the strings were bytes of the
 * Worker's 250 KiB gzip budget (and of the widget's 80 KB, which stripped them at build) that nothing ran.
 */

/** Every entry of a table but its plain-string labels (NCCL_TABLES' version and snapshot cite themselves). */
type EntriesOf<T> = { readonly [K in keyof T as T[K] extends string ? never : K]: string };

const COST_MODEL = 'NVIDIA/nccl src/tuning/cost_model.cc (ncclTunerConstantsDefaults)';

export const NCCL_TABLE_SOURCES = {
  NCCL_TABLES: {
    baseLatencyUs: `${COST_MODEL} .baseLatencies`,
    hwLatencyUs: `${COST_MODEL} .hwLatencies`,
    llMaxBandwidthGBps: `${COST_MODEL} .llMaxBws; row choice in src/tuning/tuning_general.cc ncclTuningGetConstantsIndexes`,
    perChannelMaxRingLL128GBps: `${COST_MODEL} .perChMaxRingLL128Bws`,
    perChannelMaxTreeLL128GBps: `${COST_MODEL} .perChMaxTreeLL128Bws`,
    perChannelMaxTreeGBps: `${COST_MODEL} .perChMaxTreeBws`,
    perChannelMaxNvlsTreeGBps: `${COST_MODEL} .perChMaxNVLSTreeBws`,
    nvlsEfficiency: 'NVIDIA/nccl src/tuning/nvls.cc nvlsEfficiency',
    treeCorrectionFactor: 'NVIDIA/nccl src/tuning/cost_model.cc treeCorrectionFactor; applied in src/tuning/tree.cc',
    treeCorrectionMaxIndex: 'NVIDIA/nccl src/tuning/tree.cc (logSize < 23)',
    factors: 'NVIDIA/nccl src/tuning/ring.cc, src/tuning/tree.cc, src/tuning/pat.cc',
    ringPlateau: 'NVIDIA/nccl src/tuning/ring.cc ncclTuningRingModelSim ("Plateau effect of ring")',
    netOverheadUs: 'NVIDIA/nccl src/tuning/ring.cc getNetOverhead',
    pat: 'NVIDIA/nccl src/tuning/pat.cc',
    nvlinkBandwidthPerLinkGBps: 'NVIDIA/nccl src/graph/topo.h SM70/SM80/SM90/SM100_NVLINK_BW',
    pciBandwidthGBps: 'NVIDIA/nccl src/graph/topo.cc ncclTopoAddPci (kvDictPciGen, width·speed/80); src/graph/topo.h PCI_BW',
    speedLadderGBps: 'NVIDIA/nccl src/graph/search.cc speedArrayIntra/Inter, sm90*, sm100*',
    searchSpeedRatio: 'NVIDIA/nccl src/graph/search.cc ncclTopoCompute',
    dupChannels: 'NVIDIA/nccl src/graph/search.cc ncclTopoDupChannels',
    maxRingChannels: 'NVIDIA/nccl src/init.cc (ringGraph->maxChannels = MAXCHANNELS/2, MAXCHANNELS 64)',
    maxNvlsArity: 'NVIDIA/nccl src/include/device.h NCCL_MAX_NVLS_ARITY',
  } satisfies EntriesOf<typeof NCCL_TABLES>,

  NCCL_RUNTIME_TABLES: {
    threadThresholdBytes: 'NVIDIA/nccl src/include/device.h NCCL_{LL,LL128,SIMPLE}_THREAD_THRESHOLD; src/enqueue.cc topoGetAlgoInfo',
    maxThreads: 'NVIDIA/nccl src/include/device.h NCCL_LL_MAX_NTHREADS, NCCL_LL128_MAX_NTHREADS, NCCL_SIMPLE_MAX_NTHREADS',
    threadHalvingMultiple: 'NVIDIA/nccl src/enqueue.cc topoGetAlgoInfo',
    nvlsChannels: 'NVIDIA/nccl src/transport/nvls.cc NVLS_NCHANNELS_SM90, NVLS_NCHANNELS_SM100',
    nvlsChunking: 'NVIDIA/nccl src/transport/nvls.cc NCCL_NVLS_CHUNKSIZE; src/enqueue.cc calcCollChunking (NCCL_ALGO_NVLS)',
    nvlsAllReducePipelineStages:
      'NVIDIA/nccl src/device/all_reduce.h RunWorkColl<AllReduce, NVLS, SIMPLE> (oneNode: scatter / reduce / gather)',
    nvlsHalfPipelineStages:
      'NVIDIA/nccl src/device/reduce_scatter.h, all_gather.h RunWorkColl<ReduceScatter|AllGather, NVLS, SIMPLE> (oneNode: scatter / reduce; gather / bcast)',
    nvlsTreeAllReducePipelineStages:
      'NVIDIA/nccl src/device/all_reduce.h RunWorkColl<AllReduce, NVLS_TREE, SIMPLE> (scatterWarps, reduceWarps, bcastWarps, gatherWarps)',
    nvlsTreeNicSharesPerChannel:
      'NVIDIA/nccl src/graph/connect.cc connectNvls (channel->nvls.treeUp = treeUp[c%2]); src/graph/trees.cc ncclGetDtree',
    nvlsTreeChunking:
      'NVIDIA/nccl src/enqueue.cc calcCollChunking (NCCL_ALGO_NVLS_TREE); src/transport/nvls.cc ncclNvlsTuning (treeMaxChunkSize)',
  } satisfies EntriesOf<typeof NCCL_RUNTIME_TABLES>,

  NCCL_COLLNET_TABLES: {
    directHopperFactor: 'NVIDIA/nccl src/tuning/collnet.cc ncclTuningCollnetModelInit (`if (comm->minCompCap >= 90) busBw *= .85`)',
    busToAlg: 'NVIDIA/nccl src/tuning/collnet.cc (`generalBandwidths = busBw * 0.5` for all-reduce)',
    arityLatencyUs: 'NVIDIA/nccl src/tuning/collnet.cc ("Add 0.4 us arity serialization latency")',
    maxRanksPerNode: 'NVIDIA/nccl src/include/device.h NCCL_MAX_DIRECT_ARITY (7); src/tuning/collnet.cc ncclTuningCollnetModelSim',
    minNodes: 'NVIDIA/nccl src/init.cc NCCL_PARAM(CollNetNodeThreshold, "COLLNET_NODE_THRESHOLD", 2)',
  } satisfies EntriesOf<typeof NCCL_COLLNET_TABLES>,
} as const;
