import type { GpuGeneration } from '@trainplan/hardware';

/**
 * Host PCIe per GPU, one direction, x16: Gen3 15.75, Gen4 31.5, Gen5 63 GB/s (PCI-SIG base
 * specifications 3.0/4.0/5.0: 8/16/32 GT/s × 16 lanes × 128/130). V100 DGX-1: Gen3; A100: Gen4;
 * H100, B200: Gen5.
 */
export const PCIE_X16_GBPS: Readonly<Record<GpuGeneration, number>> = { volta: 15.75, ampere: 31.5, hopper: 63, blackwell: 63 };
