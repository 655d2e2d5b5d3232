import type { GpuSpec, NetworkSpec, NvlinkGeneration, SwitchPorts, SystemSpec } from '@trainplan/hardware';
import { GB, GBps, Gbps, MB, TFLOPS, TBps, us } from '@trainplan/units';
import { fabricFromSpecs } from '../src/fabric-from-specs.ts';
import type { Fabric } from '../src/types.ts';

/**
 * Literal specs for the fixtures (the hardware presets are written elsewhere, concurrently):
 * A100 SXM: 12 NVLink3 links × 25 GB/s/dir on NVSwitch, no NVLS, 8 × HDR 200 Gb/s NICs;
 * H100 SXM: 18 NVLink4 links × 25 GB/s/dir on NVSwitch gen3 with NVLS, 8 × NDR 400 Gb/s NICs
 * (shared/ground-truth/collectives.json: spec-a100-nvlink3, spec-h100-nvlink4, spec-dgx-*-ib).
 */
const NVLINK3: NvlinkGeneration = { id: 'nvlink3', name: 'NVLink 3', bandwidthPerLinkPerDirection: GBps(25) };
const NVLINK4: NvlinkGeneration = { id: 'nvlink4', name: 'NVLink 4', bandwidthPerLinkPerDirection: GBps(25) };
const NVLINK2: NvlinkGeneration = { id: 'nvlink2', name: 'NVLink 2', bandwidthPerLinkPerDirection: GBps(25) };

const gpu = (over: Partial<GpuSpec> & Pick<GpuSpec, 'id' | 'generation' | 'nvlink' | 'nvlinkCount'>): GpuSpec => ({
  name: over.id, peakFlops: { bf16: TFLOPS(312) }, hbmBytes: GB(80), hbmBandwidth: TBps(2), smCount: 108,
  l2Bytes: MB(40), tdpWatts: 400, ...over,
});
const A100 = gpu({ id: 'a100', generation: 'ampere', nvlink: 'nvlink3', nvlinkCount: 12 });
const H100 = gpu({ id: 'h100', generation: 'hopper', nvlink: 'nvlink4', nvlinkCount: 18 });
const V100 = gpu({ id: 'v100', generation: 'volta', nvlink: 'nvlink2', nvlinkCount: 6 });

const system = (id: string, gpuId: string, nvlinkSharp: boolean, network: string,
  intraNode: SystemSpec['intraNode'] = 'nvswitch'): SystemSpec =>
  ({ id, name: id, gpu: gpuId, gpusPerNode: 8, intraNode, nvlinkSharp, network });

/**
 * Each generation's leaf switch, as its datasheet states the ports: EDR Switch-IB 2 SB7800, 36 × 100 Gb/s; HDR Quantum
 * QM8700, 40 × 200 Gb/s; NDR Quantum-2 QM9700, 64 × 400 Gb/s (whose NDR200 fixture splits each port in two).
 */
const LEAF_BY_GBPS: Readonly<Record<number, SwitchPorts>> = {
  100: { ports: 36, portBandwidth: Gbps(100) },
  200: { ports: 40, portBandwidth: Gbps(200) },
  400: { ports: 64, portBandwidth: Gbps(400) },
};
const ib = (id: string, gbps: number, nics: number, leafSwitch = LEAF_BY_GBPS[gbps]!): NetworkSpec => ({
  id, name: id, kind: 'infiniband', nicsPerNode: nics, nicBandwidth: Gbps(gbps), latency: us(2),
  inNetworkReduction: false, leafSwitch,
});

export const HDR8 = ib('hdr-8', 200, 8);
export const NDR8 = ib('ndr-8', 400, 8);

export const A100_FABRIC: Fabric = fabricFromSpecs({ gpu: A100, system: system('dgx-a100', 'a100', false, 'hdr-8'), network: HDR8, nvlink: NVLINK3 });
export const H100_FABRIC: Fabric = fabricFromSpecs({ gpu: H100, system: system('dgx-h100', 'h100', true, 'ndr-8'), network: NDR8, nvlink: NVLINK4 });
/** The same H100 node with NVLink SHARP off: NCCL's ring-only behaviour (NCCL_ALGO=RING). */
export const H100_RING_ONLY_FABRIC: Fabric = { ...H100_FABRIC, nvlinkSharp: false };
/** DGX-1 V100: hybrid cube-mesh, 4 × EDR 100 Gb/s. */
export const V100_FABRIC: Fabric = fabricFromSpecs({
  gpu: V100, system: system('dgx-1v', 'v100', false, 'edr-4', 'nvlink-hybrid-cube-mesh'), network: ib('edr-4', 100, 4), nvlink: NVLINK2,
});
/**
 * 8-GPU PCIe servers: no NVSwitch and no NVLink between the cards (nvlinkCount 0; the 2-GPU bridge is not modelled),
 * one InfiniBand NIC per two GPUs. A100 80GB PCIe on PCIe Gen4 with 4 × HDR 200 Gb/s; H100 PCIe on Gen5 with 4 × NDR.
 */
const A100_PCIE = gpu({ id: 'a100-pcie', generation: 'ampere', nvlink: 'nvlink3', nvlinkCount: 0, tdpWatts: 300 });
const H100_PCIE = gpu({ id: 'h100-pcie', generation: 'hopper', nvlink: 'nvlink4', nvlinkCount: 0, tdpWatts: 350 });
export const A100_PCIE_FABRIC: Fabric = fabricFromSpecs({
  gpu: A100_PCIE, system: system('pcie-a100', 'a100-pcie', false, 'hdr-4', 'pcie'), network: ib('hdr-4', 200, 4), nvlink: NVLINK3,
});
export const H100_PCIE_FABRIC: Fabric = fabricFromSpecs({
  gpu: H100_PCIE, system: system('pcie-h100', 'h100-pcie', false, 'ndr-4', 'pcie'), network: ib('ndr-4', 400, 4), nvlink: NVLINK4,
});
/**
 * A quad GH200 node (JUPITER Booster): 4 GPUs with 18 NVLink4 links each, joined pair by pair — 6 links to each of the
 * other three, no NVSwitch, so no NVLS — and 4 × NDR200 (200 Gb/s) NICs, one per GPU.
 */
const GH200 = gpu({ id: 'gh200', generation: 'hopper', nvlink: 'nvlink4', nvlinkCount: 18, tdpWatts: 680 });
export const GH200_QUAD_FABRIC: Fabric = fabricFromSpecs({
  gpu: GH200,
  system: { ...system('gh200-quad', 'gh200', false, 'ndr200-4', 'nvlink-full-mesh'), gpusPerNode: 4 },
  network: ib('ndr200-4', 200, 4, LEAF_BY_GBPS[400]),
  nvlink: NVLINK4,
});
/** GB200 NVL72: one 72-GPU NVLink domain (NVLink5: 18 links × 50 GB/s/dir). */
export const GB200_NVL72_FABRIC: Fabric = {
  generation: 'blackwell', gpusPerNode: 72, intraNode: 'nvswitch', nvlinkCount: 18, nvlinkBandwidthPerLink: GBps(50),
  nvlinkSharp: true, networkKind: 'nvlink', nicsPerNode: 72, nicBandwidth: Gbps(400), networkLatency: us(2),
  // Beyond the rack, Quantum-2 QM9700 leaves: 64 NDR 400 Gb/s ports, one per NIC.
  inNetworkReduction: false, leafSwitch: LEAF_BY_GBPS[400]!,
};
