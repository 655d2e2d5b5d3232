/**
 * The widget's stand-in for @trainplan/collectives' direct-all-to-all.ts, swapped in by the bundle (build.ts): the cost
 * of an all-to-all, which no training plan asks for (its collectives are all-reduce, all-gather and reduce-scatter,
 * planner comm-time.ts; its pipeline and context-parallel sends are send/recv, still costed here by direct-model.ts). An
 * all-to-all asked of it anyway is refused, as an algorithm the machine cannot run is.
 */
export const allToAllUsPerByte = (): number => {
  throw new RangeError('all-to-all is not costed in the widget');
};
