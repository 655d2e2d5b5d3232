/// <reference lib="dom" />
/**
 * The browser module `trainplan-widget.js`: importing it registers `<trainplan-estimator>`.
 * Only this file and what it imports go into the bundle (build.ts); nothing here touches Node.
 */
import { defineTrainplanEstimator } from './element/trainplan-estimator.ts';

export { TrainplanEstimator, defineTrainplanEstimator } from './element/trainplan-estimator.ts';
export { scenarioFromHash, scenarioToHash } from './hash.ts';

defineTrainplanEstimator();
