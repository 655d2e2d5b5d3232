export type {
  CollectiveOp, Algorithm, Protocol, Fabric, CommGroup, CollectiveRequest, CollectiveCost,
} from './types.ts';

// nccl-tests conventions.
export { busBandwidthFactor } from './bus-bandwidth-factor.ts';
export { algBandwidth } from './alg-bandwidth.ts';
export { busBandwidth } from './bus-bandwidth.ts';

// Classic α-β costs (Thakur, Rabenseifner & Gropp 2005) and the Patarasuk-Yuan bound.
export type { AlphaBetaOptions } from './alpha-beta-options.ts';
export { ringAllReduce } from './ring-all-reduce.ts';
export { ringAllGather } from './ring-all-gather.ts';
export { ringReduceScatter } from './ring-reduce-scatter.ts';
export { recursiveDoublingAllReduce } from './recursive-doubling-all-reduce.ts';
export { rabenseifnerAllReduce } from './rabenseifner-all-reduce.ts';
export { binomialBroadcast } from './binomial-broadcast.ts';
export { pairwiseAllToAll } from './pairwise-all-to-all.ts';
export { hierarchicalAllReduce } from './hierarchical-all-reduce.ts';
export { lowerBoundAllReduceSeconds } from './lower-bound-all-reduce-seconds.ts';
export { assertWithinBandwidthBound, busBandwidthLimit, mayExceedWireRate } from './bandwidth-bound.ts';

// NCCL's cost model (v2.30.x), the planner's fast path.
export type { NcclConstant, ByNodeCount, NcclAlgorithm, NcclHardware } from './nccl-tables.ts';
export { NCCL_TABLES } from './nccl-tables.ts';
export type { NcclGraph } from './nccl-graph-search.ts';
export type { GroupPlacement } from './group-placement.ts';
export { largestDivisorAtMost } from './group-placement.ts';
export type { NcclTopology } from './nccl-topology.ts';
export { ncclTopology } from './nccl-topology.ts';
export { collectiveCost, ncclCandidates, ncclPredictedCost } from './collective-cost.ts';
// CollNet (SHARP), off unless a fabric opts in (NCCL_COLLNET_ENABLE=1).
export { withCollnet } from './with-collnet.ts';
export { launchedBandwidthShare, nvlsTreeChunkBytes } from './nccl-runtime-model.ts';
export { nvlsChunkBytes } from './nccl-nvls-pipeline.ts';

// Point-to-point and Megatron's pipeline scatter/gather.
export { nicShareWhenAllSend, p2pSeconds } from './p2p-seconds.ts';
export { pipelineSendSeconds } from './pipeline-send-seconds.ts';

// Specs → fabric.
export { fabricFromSpecs } from './fabric-from-specs.ts';

// Topology graph and discrete-event emulator.
export type { LinkKind, TopologyGraph } from './topology/topology-graph.ts';
export { routeInto, MAX_ROUTE_LINKS } from './topology/topology-graph.ts';
export type { TopologyOptions } from './topology/build-topology.ts';
export { buildTopology, describeTopology, summariseTopology, type TopologySummary } from './topology/build-topology.ts';
export type { EmulatedCollective, EmulatedCollectiveResult, EmulationResult, LinkUsage } from './emulator/emulate-collectives.ts';
export { emulateCollectives, DEFAULT_EVENT_BUDGET } from './emulator/emulate-collectives.ts';
export type { GroupLayout } from './emulator/concurrent-groups.ts';
export { concurrentGroupGpus } from './emulator/concurrent-groups.ts';
// The browser widget's bundle swaps this module for NCCL's closed form (apps/widget/src/compute/closed-form-emulation.ts).
export type { EmulatedCost, EmulatedCostOptions } from './emulator/emulated-collective-cost.ts';
export { emulatedCollectiveCost, emulatedStageSendCost } from './emulator/emulated-collective-cost.ts';
