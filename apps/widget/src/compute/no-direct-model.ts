/**
 * The widget's stand-in for @trainplan/collectives' direct-model.ts, swapped in by the bundle (build.ts): the cost of
 * all-to-all and send/recv, NCCL's grouped point-to-point sends (the 'direct' algorithm, the only one of those two ops).
 * A training plan's collectives are all-reduce, all-gather and reduce-scatter (planner comm-time.ts), and its pipeline
 * sends are costed apart (p2p-seconds.ts), so the widget never asks for either op. About 0.6 kB of the 80 kB budget.
 */
export const directModel = (): [] => [];
