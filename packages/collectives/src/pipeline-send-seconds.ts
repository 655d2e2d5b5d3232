import type { Bytes, Seconds } from '@trainplan/units';
import { us } from '@trainplan/units';
import { checkFiniteNonNegative } from './alpha-beta-options.ts';
import { gpusJoinedByNvlink } from './gpus-joined-by-nvlink.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import { intraNodeGBps, nicShareWhenAllSend, p2pSeconds } from './p2p-seconds.ts';
import type { Fabric } from './types.ts';

/**
 * One pipeline-stage boundary transfer of a `bytes` activation (b·s·h·e) between the t
 * tensor-parallel ranks of adjacent stages (Narayanan et al., SC'21 §4.1; Megatron-LM
 * p2p_communication.py; collectives-reference §5):
 *   without scatter/gather: α + bytes/B — every TP rank sends the same whole tensor;
 *   with it: α + bytes/(t·B) + (t−1)·α_NVL + (t−1)/t·bytes/B_NVL — each rank sends 1/t, then the
 *   receiver all-gathers over NVLink.
 * B is the sender's share of a NIC across nodes (all GPUs of a node send at once, so a node with
 * fewer NICs than GPUs splits them) or NVLink inside a node (PCIe on a PCIe node; on a full mesh the pair's links
 * for the send, the links to the t−1 others for the all-gather); α_NVL is NCCL's
 * per-step NVLink ring latency (3.4 µs, Simple; its PCI row, 5.7 µs, on a PCIe node). Megatron skips scatter/gather under sequence parallelism: pass
 * `scatterGather: false` then.
 */
export function pipelineSendSeconds(options: {
  readonly bytes: Bytes;
  readonly tensorParallel: number;
  readonly fabric: Fabric;
  readonly crossNode: boolean;
  readonly scatterGather: boolean;
}): Seconds {
  const { bytes, tensorParallel: t, fabric, crossNode, scatterGather } = options;
  // Checked here, before the split: p2pSeconds would see bytes / t and name a value the caller never passed.
  checkFiniteNonNegative('bytes', bytes);
  if (!Number.isInteger(t) || t < 1) throw new RangeError(`tensorParallel must be a positive integer, got ${t}`);
  const nicShare = nicShareWhenAllSend(fabric);
  if (!scatterGather || t === 1) return p2pSeconds({ bytes, fabric, crossNode, nicShare });
  const send = p2pSeconds({ bytes: bytes / t, fabric, crossNode, nicShare });
  const alphaNvlUs = NCCL_TABLES.hwLatencyUs.value[gpusJoinedByNvlink(fabric) ? 'nvlink' : 'pci'].ring.Simple;
  const allGather = us((t - 1) * alphaNvlUs + (((t - 1) / t) * bytes) / (1000 * intraNodeGBps(fabric, t - 1)));
  return send + allGather;
}
