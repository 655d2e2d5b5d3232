import type { GpuGeneration } from '@trainplan/hardware';
import type { Protocol } from './types.ts';

/**
 * NCCL's cost-model constants, copied verbatim and kept in NCCL's own units (µs, GB/s with
 * GB = 1e9) so that every number can be diffed against the source it names. The models built on
 * them (nccl-*-model.ts, nccl-candidate.ts, direct-model.ts) compute in those units too, a
 * transfer's µs written as NCCL writes it, `bytes / (1000 · GB/s)` (`ncclTopoGetAlgoTime`;
 * 1 GB/s = 1000 bytes/µs), so they read line by line against NCCL's. Bandwidths enter those units
 * from the fabric's SI through `toGBps`, and costs leave them as SI seconds through `us()`, where a
 * cost is returned: collective-cost.ts, p2p-seconds.ts, pipeline-send-seconds.ts and
 * emulator/prepare-collective.ts (which also turns a runtime back into NCCL's GB/s to spread it over
 * the channels).
 *
 * Snapshot: NVIDIA/nccl master 5067397 (2026-06, v2.30.x), as summarised in
 * shared/docs/collectives-reference.md §1. In that snapshot the tables live in
 * `src/tuning/cost_model.cc` (`ncclTunerConstantsDefaults`, `treeCorrectionFactor`) and the
 * per-algorithm formulas in `src/tuning/{ring,tree,nvls,pat}.cc`; older releases kept them all in
 * `src/graph/tuning.cc`. Tables change between releases (v2.12.12-1 had Tree baseLat 4.4/4.4/0),
 * so a model that uses them names the version: `NCCL_TABLES.version`. Each entry's source file is in
 * nccl-table-sources.ts (NCCL_TABLE_SOURCES), which no runtime file imports.
 */

/** NCCL's `NCCL_ALGO_*` order, with CollNet split as NCCL splits it. */
export type NcclAlgorithm = 'tree' | 'ring' | 'collnetDirect' | 'collnetChain' | 'nvls' | 'nvlsTree' | 'pat';
/** Hardware row of `hwLatencies`: `NCCL_HW_NVLINK`, `NCCL_HW_PCI`, `NCCL_HW_NET`. */
export type NcclHardware = 'nvlink' | 'pci' | 'net';
/** Per-channel caps are indexed [1 node, 2 nodes, ≥3 nodes] (`index2` in tuning_general.cc). */
export type ByNodeCount = readonly [oneNode: number, twoNodes: number, threeOrMoreNodes: number];

type PerProtocol = Readonly<Record<Protocol, number>>;
type PerAlgorithm = Readonly<Record<NcclAlgorithm, PerProtocol>>;
type ByGeneration<T> = Readonly<Record<GpuGeneration, T>>;

/**
 * A table entry's value. The NCCL file it comes from is in NCCL_TABLE_SOURCES (nccl-table-sources.ts) under the entry's
 * name, and in a comment beside it here: no cost reads a source, so the sources stay out of the bundles that run these.
 */
export interface NcclConstant<T> {
  readonly value: T;
}
const p = (LL: number, LL128: number, Simple: number): PerProtocol => ({ LL, LL128, Simple });

export const NCCL_TABLES = {
  version: 'v2.30.x',
  snapshot: 'NVIDIA/nccl master 5067397 (2026-06)',

  baseLatencyUs: { // src/tuning/cost_model.cc ncclTunerConstantsDefaults.baseLatencies
    value: {
      tree: p(6.8, 14, 8.4), ring: p(6.6, 14, 8.4), collnetDirect: p(0, 0, 0), collnetChain: p(0, 0, 0),
      nvls: p(0, 0, 0), nvlsTree: p(0, 0, 0), pat: p(8, 8, 8),
    },
  } satisfies NcclConstant<PerAlgorithm>,

  hwLatencyUs: { // src/tuning/cost_model.cc ncclTunerConstantsDefaults.hwLatencies
    value: {
      nvlink: {
        tree: p(0.6, 1.25, 4.0), ring: p(0.6, 1.9, 3.4), collnetDirect: p(0, 0, 3.7), collnetChain: p(0, 0, 2.8),
        nvls: p(0, 0, 25), nvlsTree: p(0, 0, 25), pat: p(0, 0, 4.0),
      },
      pci: {
        tree: p(1.0, 1.9, 4.0), ring: p(1.0, 2.5, 5.7), collnetDirect: p(0, 0, 3.7), collnetChain: p(0, 0, 2.8),
        nvls: p(0, 0, 0), nvlsTree: p(0, 0, 0), pat: p(0, 0, 4.0),
      },
      net: {
        tree: p(5.0, 8.5, 14), ring: p(2.7, 4.0, 14.0), collnetDirect: p(0, 0, 31), collnetChain: p(0, 0, 30),
        nvls: p(0, 0, 18), nvlsTree: p(0, 0, 20.9), pat: p(0, 0, 14),
      },
    },
  } satisfies NcclConstant<Readonly<Record<NcclHardware, PerAlgorithm>>>,

  /**
   * LL bandwidth cap. On one node the row is picked by GPU generation; across nodes NCCL picks by
   * CPU vendor instead: row 0 (the Volta row) for Intel, row 1 (the Ampere row) for AMD.
   */
  llMaxBandwidthGBps: { // src/tuning/cost_model.cc ncclTunerConstantsDefaults.llMaxBws; row choice in src/tuning/tuning_general.cc ncclTuningGetConstantsIndexes
    value: {
      volta: [39.0, 39.0, 20.4], ampere: [87.7, 22.5, 19.0], hopper: [141.0, 45.0, 35.0],
      blackwell: [282.0, 90.0, 70.0],
    },
  } satisfies NcclConstant<ByGeneration<ByNodeCount>>,

  perChannelMaxRingLL128GBps: { // src/tuning/cost_model.cc ncclTunerConstantsDefaults.perChMaxRingLL128Bws
    value: { volta: [20, 20, 20], ampere: [20, 20, 20], hopper: [36.7, 36.7, 36.7], blackwell: [40, 40, 40] },
  } satisfies NcclConstant<ByGeneration<ByNodeCount>>,

  perChannelMaxTreeLL128GBps: { // src/tuning/cost_model.cc ncclTunerConstantsDefaults.perChMaxTreeLL128Bws
    value: { volta: [20, 20, 20], ampere: [20, 20, 20], hopper: [36.7, 36.7, 29.0], blackwell: [55.6, 31.67, 20.0] },
  } satisfies NcclConstant<ByGeneration<ByNodeCount>>,

  perChannelMaxTreeGBps: { // src/tuning/cost_model.cc ncclTunerConstantsDefaults.perChMaxTreeBws
    value: {
      volta: [26.5, 18.5, 10.0], ampere: [24.0, 23.6, 17.8], hopper: [38.7, 41.4, 36.0], blackwell: [70.0, 42.8, 24.0],
    },
  } satisfies NcclConstant<ByGeneration<ByNodeCount>>,

  /** NVLSTree exists only on several nodes, so the 1-node entry is unused (0 in the source). */
  perChannelMaxNvlsTreeGBps: { // src/tuning/cost_model.cc ncclTunerConstantsDefaults.perChMaxNVLSTreeBws
    value: { volta: [26.5, 18.5, 10.0], ampere: [24.0, 23.6, 17.8], hopper: [0, 57.7, 45.5], blackwell: [0, 96.0, 80.0] },
  } satisfies NcclConstant<ByGeneration<ByNodeCount>>,

  nvlsEfficiency: { // src/tuning/nvls.cc nvlsEfficiency
    value: { volta: 0, ampere: 0, hopper: 0.85, blackwell: 0.74 },
  } satisfies NcclConstant<ByGeneration<number>>,

  /**
   * Tree all-reduce bandwidth multiplier indexed by log2(bytes/64). The table has 24 entries but
   * `src/tuning/tree.cc` applies it only for indices < 23 (64 B … 256 MB).
   */
  treeCorrectionFactor: { // src/tuning/cost_model.cc treeCorrectionFactor; applied in src/tuning/tree.cc
    value: {
      LL: [1, 1, 1, 1, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1, 1, 1, 1],
      LL128: [1, 1, 1, 1, 1, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9, 0.9, 0.9, 0.9, 1, 1, 1],
      Simple: [0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.7, 0.7, 0.8,
        0.9, 0.9, 0.9],
    },
  } satisfies NcclConstant<Readonly<Record<Protocol, readonly number[]>>>,
  treeCorrectionMaxIndex: { value: 22 }, // src/tuning/tree.cc (logSize < 23)

  /** Protocol and pattern factors on bus bandwidth (ring.cc, tree.cc, pat.cc). */
  factors: { // src/tuning/ring.cc, src/tuning/tree.cc, src/tuning/pat.cc
    value: {
      ringLL: 0.5, ringLL128: 0.92, treeCap: 0.92, treeLL: 1 / 3.8, treeLL128OneNode: 7 / 9,
      treeLL128MultiNode: 120 / 128, treePatternTree: 0.85, pat: 0.75, treeBusToAlg: 0.5,
    },
  },

  /** Multi-node Ring/Simple all-reduce: latency × 1.4 (× 1.9 before Ampere) once bytes/(nCh·nRanks) ≥ 64. */
  ringPlateau: { // src/tuning/ring.cc ncclTuningRingModelSim ("Plateau effect of ring")
    value: { factor: 1.4, factorBeforeAmpere: 1.9, minBytesPerChannelPerRank: 64 },
  },

  /** Per-step network post overhead of inter-node rings, ×3 for Simple; Intel CPUs assumed (1 µs). */
  netOverheadUs: { // src/tuning/ring.cc getNetOverhead
    value: { intel: 1, amd: 2, simpleMultiplier: 3 },
  },

  /** PAT latency: base + log2(nNodes)·interLat/3.5 + 2.8·nRanks. */
  pat: { value: { interLatencyDivisor: 3.5, perRankUs: 2.8 } }, // src/tuning/pat.cc

  /** Per-link NVLink bandwidth NCCL assumes, by SM generation (not the line rate). */
  nvlinkBandwidthPerLinkGBps: { // src/graph/topo.h SM70/SM80/SM90/SM100_NVLINK_BW
    value: { volta: 20.0, ampere: 20.0, hopper: 20.6, blackwell: 40.1 },
  } satisfies NcclConstant<ByGeneration<number>>,
  /**
   * A GPU's PCIe x16 link as NCCL's topology sees it, by the host PCIe generation of the GPU generation (pcie-bandwidth.ts:
   * V100 Gen3, A100 Gen4, H100 and B200 Gen5): NCCL reads the link's speed and width from sysfs and sets its bandwidth to
   * width × per-lane rate / 80 GB/s, the per-lane rate in 100 Mb/s units with the line encoding folded in (Gen3 60, Gen4
   * 120, Gen5 240), so x16 is 12, 24 and 48 GB/s — 76% of the 15.75 / 31.5 / 63 GB/s line rate, what PCIe's packet
   * overheads leave. Gen3's 12 is also topo.h's PCI_BW, the figure NCCL uses where sysfs says nothing.
   */
  pciBandwidthGBps: { // src/graph/topo.cc ncclTopoAddPci (kvDictPciGen, width·speed/80); src/graph/topo.h PCI_BW
    value: { volta: 12, ampere: 24, hopper: 48, blackwell: 48 },
  } satisfies NcclConstant<ByGeneration<number>>,

  /** The discrete per-channel speeds the graph search tries, fastest first. */
  speedLadderGBps: { // src/graph/search.cc speedArrayIntra/Inter, sm90*, sm100*
    value: {
      intra: {
        volta: [40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3],
        ampere: [40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3],
        hopper: [60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3],
        blackwell: [90, 80, 70, 60, 50, 45, 40, 30, 24, 20, 19, 18],
      },
      inter: {
        volta: [48, 30, 28, 24, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2, 0.24, 0.12],
        ampere: [48, 30, 28, 24, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2, 0.24, 0.12],
        hopper: [48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12],
        blackwell: [96, 86, 80, 48, 45.1, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12],
      },
    },
  } satisfies NcclConstant<Readonly<Record<'intra' | 'inter', ByGeneration<readonly number[]>>>>,

  /** The search only steps down to a slower speed while it is > 0.49 of the best found so far. */
  searchSpeedRatio: { value: 0.49 }, // src/graph/search.cc ncclTopoCompute

  /** ncclTopoDupChannels: double channels, halve bw when bwIntra ≥ 25 — not on Hopper+ with bwIntra < 50 and > 4 channels. */
  dupChannels: { // src/graph/search.cc ncclTopoDupChannels
    value: { minBwIntraGBps: 25, hopperMinBwIntraGBps: 50, hopperMaxChannelsWithoutDup: 4 },
  },

  /** Ring graphs search at most MAXCHANNELS/2 channels; tree graphs use the ring's count. */
  maxRingChannels: { value: 32 }, // src/init.cc (ringGraph->maxChannels = MAXCHANNELS/2, MAXCHANNELS 64)
  /** NVLS graphs have one channel per local GPU, at most this many (heads). */
  maxNvlsArity: { value: 32 }, // src/include/device.h NCCL_MAX_NVLS_ARITY
} as const;
