import { capacitySection } from './capacity-bench.ts';
import { emulatorSection } from './emulator-bench.ts';
import { estimateSection } from './estimate-bench.ts';
import { httpSection } from './http-bench.ts';
import { loadSection } from './load-bench.ts';
import { searchSection } from './search-bench.ts';

/**
 * One part of docs/benchmarks.md: `run` measures for about `budgetSeconds` and returns the markdown
 * lines of its section (heading included) and the one-line summaries printed to the terminal.
 * Each area of trainplan adds its own file and one line here.
 */
export interface BenchSection {
  name: string;
  run: (budgetSeconds: number) => Promise<{ markdown: string[]; summary: string[] }> | { markdown: string[]; summary: string[] };
}

export const BENCH_SECTIONS: BenchSection[] = [
  estimateSection,
  emulatorSection,
  httpSection,
  searchSection,
  capacitySection,
  loadSection,
];
