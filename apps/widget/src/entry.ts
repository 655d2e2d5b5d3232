/// <reference lib="dom" />
/**
 * The browser module `trainplan-widget.js`: importing it registers `<trainplan-estimator>` (training plans)
 * and `<trainplan-serving>` (serving plans). Only this file and what it imports go into the bundle
 * (build.ts); nothing here touches Node.
 */
import { defineTrainplanEstimator } from './element/trainplan-estimator.ts';
import { defineTrainplanServing } from './element/trainplan-serving.ts';

export { TrainplanEstimator, defineTrainplanEstimator } from './element/trainplan-estimator.ts';
export { TrainplanServing, defineTrainplanServing } from './element/trainplan-serving.ts';
export { scenarioFromHash, scenarioToHash } from './hash.ts';

defineTrainplanEstimator();
defineTrainplanServing();
