import type { Fabric } from './types.ts';

export const NO_IN_NETWORK_REDUCTION = 'CollNet needs a network that reduces in its switches (InfiniBand SHARP), which this fabric\'s has not';

/** One CollNet fabric per fabric, so that the topologies and candidates memoised on it are reused (nccl-topology.ts). */
const memo = new WeakMap<Fabric, Fabric>();

/**
 * `fabric` with CollNet on, as NCCL_COLLNET_ENABLE=1 turns it on (with NCCL's SHARP plugin loaded): all-reduce may then
 * run CollNetDirect, CollNetChain and NVLS across nodes where NCCL would (nccl-collnet-model.ts, nvls-across-nodes.ts).
 * A RangeError when the fabric's network has no in-network reduction (`inNetworkReduction`), where NCCL would find no
 * collective network to set up.
 */
export function withCollnet(fabric: Fabric): Fabric {
  if (!fabric.inNetworkReduction) throw new RangeError(NO_IN_NETWORK_REDUCTION);
  if (fabric.collnet === true) return fabric;
  let on = memo.get(fabric);
  if (!on) memo.set(fabric, (on = { ...fabric, collnet: true }));
  return on;
}
