import type { Bytes, BytesPerSecond, Seconds } from '@trainplan/units';
import type { FabricKind, GpuGeneration, IntraNodeKind, SwitchPorts } from '@trainplan/hardware';

export type CollectiveOp =
  | 'all-reduce' | 'all-gather' | 'reduce-scatter' | 'broadcast' | 'reduce' | 'all-to-all' | 'send-recv';

/** NCCL's algorithms (CollNet split as NCCL splits it: `NCCL_ALGO_COLLNET_DIRECT`, `_CHAIN`), and ours: hierarchical, direct. */
export type Algorithm = 'ring' | 'tree' | 'nvls' | 'nvls-tree' | 'collnet-direct' | 'collnet-chain' | 'hierarchical' | 'pat' | 'direct';
export type Protocol = 'LL' | 'LL128' | 'Simple';

/**
 * What a collective sees of the machine: everything is per GPU or per node, already resolved from
 * the hardware presets (see `fabricFromSpecs`).
 */
export interface Fabric {
  readonly generation: GpuGeneration;
  readonly gpusPerNode: number;
  readonly intraNode: IntraNodeKind;
  /** NVLink links per GPU and the line rate of one, one direction. */
  readonly nvlinkCount: number;
  readonly nvlinkBandwidthPerLink: BytesPerSecond;
  /** NVSwitch with in-switch reduction (NVLink SHARP). */
  readonly nvlinkSharp: boolean;
  readonly networkKind: FabricKind;
  readonly nicsPerNode: number;
  /** Line rate of one NIC, one direction. */
  readonly nicBandwidth: BytesPerSecond;
  readonly networkLatency: Seconds;
  readonly inNetworkReduction: boolean;
  /**
   * The leaf switch each NIC's cable ends at, as the network preset states its ports (40 × 200 Gb/s on HDR's Quantum
   * QM8700, 64 × 400 Gb/s on NDR's Quantum-2 QM9700). Only the emulator's fat tree reads it (buildTopology, which
   * counts its ports at the NICs' rate and splits them between nodes and spines), so a bundle without the emulator may
   * leave it out of the presets.
   */
  readonly leafSwitch: SwitchPorts;
  /**
   * CollNet on (NCCL_COLLNET_ENABLE=1): all-reduce may run CollNetDirect, CollNetChain and NVLS across nodes, which reduce
   * in the network's switches (SHARP). Off by default, as in NCCL, even where `inNetworkReduction` says the switches
   * could; set it with `withCollnet`, which refuses a fabric without in-network reduction.
   */
  readonly collnet?: boolean;
}

/**
 * The ranks taking part in one collective and how they sit on nodes.
 * `ranks = ranksPerNode × nodes`. Several groups of the same parallel dimension often run the
 * same collective at once on one node (e.g. the 8 data-parallel groups of a TP-8 job, one per
 * GPU); they share the node's NICs, which `concurrentGroupsPerNode` says.
 */
export interface CommGroup {
  readonly ranks: number;
  readonly ranksPerNode: number;
  /** Groups running the same collective at the same time on one node (default 1). */
  readonly concurrentGroupsPerNode?: number;
}

export interface CollectiveRequest {
  readonly op: CollectiveOp;
  /** nccl-tests "size" semantics (see collectives-reference §2). */
  readonly bytes: Bytes;
  readonly group: CommGroup;
  readonly fabric: Fabric;
  /** 'auto' picks the fastest predicted (algorithm, protocol), as NCCL does. */
  readonly algorithm?: Algorithm | 'auto';
}

export interface CollectiveCost {
  readonly seconds: Seconds;
  readonly algorithm: Algorithm;
  readonly protocol: Protocol;
  /** nccl-tests algbw = size / time. */
  readonly algBandwidth: BytesPerSecond;
  /** nccl-tests busbw = algbw × the op's factor. */
  readonly busBandwidth: BytesPerSecond;
}
