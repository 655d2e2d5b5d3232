export { loadTrainingRows, GROUND_TRUTH_DIR } from './ground-truth.ts';
export type { TrainingRow } from './ground-truth.ts';
export { scoreAll, scoreRow, summarise, measuredStep } from './score.ts';
export type { ScoredRow, SourceSummary, CalibrationOverrides } from './score.ts';
export { SOURCES } from './sources.ts';
export type { SourceId, SourceProfile } from './sources.ts';
export { predictTable4, TABLE4 } from './korthikanti-table4.ts';
export { renderValidationReport, TARGETS } from './render.ts';
export { constantEfficiencyBaseline } from './baseline.ts';
