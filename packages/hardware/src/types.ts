import type { Bytes, BytesPerSecond, FlopPerSecond, Seconds } from '@trainplan/units';

/**
 * Where a published figure comes from: a datasheet, a paper, a source file. A spec does not carry its
 * citation, which nothing that computes reads: each catalogue exports a record of them keyed by preset id
 * next to its specs (GPU_SOURCES, NETWORK_SOURCES, SYSTEM_SOURCES, NVLINK_SOURCES; @trainplan/presets'
 * MODEL_SOURCES), which a bundle that only computes (the widget) leaves out.
 */
export interface Citation {
  /** Human title, e.g. "NVIDIA A100 Tensor Core GPU datasheet (2021)". */
  readonly title: string;
  readonly url?: string;
  /** Which figure of the source is used, or how a value was derived from it. */
  readonly note?: string;
}

/** GPU architecture generation: calibration constants are keyed on this, never on a model or a row. */
export type GpuGeneration = 'volta' | 'ampere' | 'hopper' | 'blackwell';

export type Precision = 'fp32' | 'tf32' | 'fp16' | 'bf16' | 'fp8';

export interface GpuSpec {
  readonly id: string;
  readonly name: string;
  readonly generation: GpuGeneration;
  /** Dense (no structured sparsity) tensor-core peak per precision; absent when unsupported. */
  readonly peakFlops: Readonly<Partial<Record<Precision, FlopPerSecond>>>;
  readonly hbmBytes: Bytes;
  readonly hbmBandwidth: BytesPerSecond;
  readonly smCount: number;
  /** Last-level cache, used by the memory-bound kernel model. */
  readonly l2Bytes: Bytes;
  /** Intra-node link generation (id into NVLINKS) and how many links each GPU has. */
  readonly nvlink: NvlinkGenerationId;
  readonly nvlinkCount: number;
  /** Thermal design power, for cost and energy estimates. */
  readonly tdpWatts: number;
}

export type NvlinkGenerationId = 'nvlink2' | 'nvlink3' | 'nvlink4' | 'nvlink5';

export interface NvlinkGeneration {
  readonly id: NvlinkGenerationId;
  readonly name: string;
  /** Signalling rate of one link, one direction. */
  readonly bandwidthPerLinkPerDirection: BytesPerSecond;
}

/**
 * How the GPUs of one node (or one NVLink domain) are connected: through NVSwitch, by their own NVLinks pair by
 * pair (DGX-1's hybrid cube-mesh; 'nvlink-full-mesh': every pair joined directly, each GPU's links split evenly over
 * its peers, no NVSwitch — a quad GH200 node, 18 links = 6 to each of the other three), or by PCIe alone ('pcie':
 * PCIe cards in a server, each GPU's x16 link up to a PCIe switch or the CPU's root complex, every GPU-to-GPU path
 * through them; a 2-GPU NVLink bridge is not modelled).
 */
export type IntraNodeKind = 'nvswitch' | 'nvlink-hybrid-cube-mesh' | 'nvlink-full-mesh' | 'pcie';

export type FabricKind = 'infiniband' | 'omnipath' | 'roce' | 'ethernet' | 'nvlink';

/**
 * A switch's ports as its datasheet states them: how many, at what line rate (one direction). A port faster than the
 * NICs cabled to it is split into several of theirs (a 400 Gb/s NDR port into two NDR200 links, by splitter cable).
 */
export interface SwitchPorts {
  readonly ports: number;
  readonly portBandwidth: BytesPerSecond;
}

/** An inter-node fabric as a node sees it: how many NICs, at what line rate, with what latency. */
export interface NetworkSpec {
  readonly id: string;
  readonly name: string;
  readonly kind: FabricKind;
  /** Compute NICs (rails) per node; storage NICs are not counted. */
  readonly nicsPerNode: number;
  /** Line rate of one NIC, one direction. */
  readonly nicBandwidth: BytesPerSecond;
  /** One-way small-message latency through the fabric (NIC to NIC, switches included). */
  readonly latency: Seconds;
  /** InfiniBand SHARP in-network reduction available (enables NCCL CollNet). */
  readonly inNetworkReduction: boolean;
  /**
   * The leaf (first-tier) switch every NIC's cable ends at: its radix sets how many nodes a leaf holds, so where a
   * collective's traffic first crosses to the spine. The model is named in the fabric's citation (NETWORK_SOURCES).
   */
  readonly leafSwitch: SwitchPorts;
  /**
   * For NVLink domains spanning many GPUs (GB200 NVL72): the number of GPUs that share one
   * NVSwitch fabric. Absent for ordinary NIC fabrics.
   */
  readonly nvlinkDomainGpus?: number;
}

export interface SystemSpec {
  readonly id: string;
  readonly name: string;
  readonly gpu: string;
  readonly gpusPerNode: number;
  readonly intraNode: IntraNodeKind;
  /** NVSwitch generation 3+ with in-switch reduction (NVLink SHARP, "NVLS"). */
  readonly nvlinkSharp: boolean;
  /** The inter-node fabric id (into NETWORKS) the system ships with. */
  readonly network: string;
}
