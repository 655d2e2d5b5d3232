/**
 * @trainplan/widget, Node side: the esbuild bundle of `<trainplan-estimator>`, the demo page and the
 * Hono sub-app serving both. The browser module's entry is src/entry.ts (it imports none of these).
 */
export { buildWidgetBundle, widgetBundle, WIDGET_BUDGET_GZIP_BYTES } from './build.ts';
export type { WidgetBundle } from './build.ts';
export { createWidgetApp } from './app.ts';
export { demoPage, embedSnippet, servingSnippet } from './demo-page.ts';
export { MODULE_PATH } from './paths.ts';
export { HASH_KEY, scenarioFromHash, scenarioToHash } from './hash.ts';
export { pipelineTimeline } from './schedule/pipeline-timeline.ts';
export type { Timeline, TimelineOp, TimelineResult, TimelineSchedule } from './schedule/pipeline-timeline.ts';
export { scenarioFromFields, fieldsFromScenario } from './form/scenario-from-fields.ts';
export { fieldForPath, fieldsForPath, issueAt } from './form/issue-fields.ts';
export { FIELDS, DEFAULT_VALUES } from './form/fields.ts';
export { validNodeCounts, scalingNodeCounts } from './sizing/node-counts.ts';
export { nodesAnswer } from './sizing/nodes-answer.ts';
export type { NodesAnswer } from './sizing/nodes-answer.ts';
export { inferenceRequestFromFields, servingFieldForPath } from './serving/request-from-fields.ts';
export type { ServingRequest } from './serving/request-from-fields.ts';
export { SERVING_FIELDS, SERVING_DEFAULTS } from './serving/serving-fields.ts';
export { servingView, pointStats, pointMemory } from './serving/serving-view.ts';
export type { ServingView, Stat } from './serving/serving-view.ts';
