/// <reference lib="dom" />
/**
 * The browser module `trainplan-widget.js`: importing it registers `<trainplan-estimator>` (training plans)
 * and `<trainplan-serving>` (serving plans). Only this file and what it imports go into the bundle
 * (build.ts); nothing here touches Node. Loaded in a worker (compute/off-thread.ts), it answers the page's searches
 * there instead.
 */
import { answerCalls, IN_WORKER } from './compute/off-thread.ts';
import { defineTrainplanEstimator } from './element/trainplan-estimator.ts';
import { defineTrainplanServing } from './element/trainplan-serving.ts';

export { TrainplanEstimator, defineTrainplanEstimator } from './element/trainplan-estimator.ts';
export { TrainplanServing, defineTrainplanServing } from './element/trainplan-serving.ts';
export { scenarioFromHash, scenarioToHash } from './hash.ts';

if (IN_WORKER) answerCalls();
else {
  defineTrainplanEstimator();
  defineTrainplanServing();
}
