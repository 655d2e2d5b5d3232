/**
 * The widget's stand-in for @trainplan/search's empty-space.ts, swapped in by the bundle (build.ts): whySpaceIsEmpty
 * names the search constraints (maxTensor, tensorWithinNode, maxPipeline, maxContext, maxVirtualStages) that rule out
 * every size of a dimension, and answers undefined where no constraint caps one. The widget's requests set no
 * constraints (search-requests.ts; the protocol defaults them to {}), so the module always answers undefined here:
 * as this does, for about 340 B gzip of the 80 kB budget. It takes the module's arguments and ignores them.
 */
export const whySpaceIsEmpty = (): undefined => undefined;
