import { bloomConsistencySection } from './bloom-consistency-section.ts';
import { collectivesSection } from './collectives-section.ts';
import { decodeSection } from './decode-section.ts';
import { kernelsSection } from './kernels-section.ts';
import { layersSection } from './layers-section.ts';
import { longContextSection } from './long-context-section.ts';
import { mptSection } from './mpt-section.ts';
import { nvidiaPerfSection } from './nvidia-perf-section.ts';
import { optimizerSection } from './optimizer-section.ts';
import { outOfSampleSection } from './out-of-sample-section.ts';
import { prefillSection } from './prefill-section.ts';
import { renderValidationReport, trainingRunsReadme } from './render.ts';
import { scoreAll, summarise } from './score.ts';
import { searchSection } from './search-section.ts';
import { servingSection } from './serving-section.ts';
import { switchPointsSection } from './switch-points-section.ts';

/**
 * One part of docs/validation.md: `run` scores its ground truth and returns the markdown lines of its
 * section (heading included), one-line summaries for the terminal and, where README.md quotes the section,
 * its headline bullet(s) there (written between the README's `npm run validate` markers, readme-block.ts).
 * Each area of trainplan adds its own file and one line here; the training-run section comes first.
 */
export interface ValidationSectionResult {
  markdown: string[];
  summary: string[];
  readme?: string[];
}

export interface ValidationSection {
  name: string;
  run: () => ValidationSectionResult;
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
      readme: trainingRunsReadme(rows),
    };
  },
};

export const VALIDATION_SECTIONS: ValidationSection[] = [
  trainingRuns,
  bloomConsistencySection,
  outOfSampleSection,
  nvidiaPerfSection,
  mptSection,
  longContextSection,
  kernelsSection,
  layersSection,
  collectivesSection,
  switchPointsSection,
  searchSection,
  servingSection,
  decodeSection,
  prefillSection,
  optimizerSection,
];

/** Every section run once, in report order. */
export const runSections = (): { name: string; result: ValidationSectionResult }[] =>
  VALIDATION_SECTIONS.map((section) => ({ name: section.name, result: section.run() }));

/** README.md's `npm run validate` block: the sections' headline bullets, in report order. */
export const validationReadme = (results: readonly { result: ValidationSectionResult }[]): string[] =>
  results.flatMap(({ result }) => result.readme ?? []);
