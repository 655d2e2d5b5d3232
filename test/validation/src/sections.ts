import { bloomConsistencySection } from './bloom-consistency-section.ts';
import { collectivesSection } from './collectives-section.ts';
import { kernelsSection } from './kernels-section.ts';
import { layersSection } from './layers-section.ts';
import { mptSection } from './mpt-section.ts';
import { outOfSampleSection } from './out-of-sample-section.ts';
import { renderValidationReport } from './render.ts';
import { scoreAll, summarise } from './score.ts';
import { searchSection } from './search-section.ts';
import { servingSection } from './serving-section.ts';
import { switchPointsSection } from './switch-points-section.ts';

/**
 * One part of docs/validation.md: `run` scores its ground truth and returns the markdown lines of its
 * section (heading included) and one-line summaries for the terminal. Each area of trainplan adds its
 * own file and one line here; the training-run section comes first.
 */
export interface ValidationSection {
  name: string;
  run: () => { markdown: string[]; summary: string[] };
}

const trainingRuns: ValidationSection = {
  name: 'training-runs',
  run() {
    const rows = scoreAll();
    const { overall, bySource } = summarise(rows);
    const line = (name: string, s: { rows: number; mape: number; worst: number }) =>
      `${name.padEnd(22)} ${String(s.rows).padStart(3)} rows  MAPE ${(s.mape * 100).toFixed(1)}%  worst ${(s.worst * 100).toFixed(1)}%`;
    return {
      markdown: renderValidationReport(rows).split('\n'),
      summary: [...bySource.map((s) => line(s.source, s)), line('all', overall)],
    };
  },
};

export const VALIDATION_SECTIONS: ValidationSection[] = [
  trainingRuns,
  bloomConsistencySection,
  outOfSampleSection,
  mptSection,
  kernelsSection,
  layersSection,
  collectivesSection,
  switchPointsSection,
  searchSection,
  servingSection,
];
