import { cpus } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { README_PATH, replaceBlock } from '@trainplan/validation/readme-block';
import { benchReadme } from './readme-block.ts';
import { sectionLines, updateReportFile } from './report-file.ts';
import { BENCH_SECTIONS } from './sections.ts';

// `npm run bench`: one process, one core (the planner is single-threaded), written to docs/benchmarks.md, and its
// headline figures to README.md's `npm run bench` block (read off the report just written, so the two agree).
// BENCH_SECTIONS=estimate,search runs only the named sections and replaces only theirs in the existing file.
const budget = Number(process.env.BENCH_SECONDS ?? 2);
const only = process.env.BENCH_SECTIONS?.split(',').map((s) => s.trim());
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const header = [
  '# Benchmarks',
  '',
  `Regenerate with \`npm run bench\` (BENCH_SECONDS=${budget} per measurement; Node ${process.versions.node}, ${cpu}).`,
  'Timings on shared machines are noisy: compare rows of one run as ratios.',
  '',
];
const ran = new Map<string, string[]>();
for (const section of BENCH_SECTIONS) {
  if (only !== undefined && !only.includes(section.name)) continue;
  console.log(`bench: ${section.name} …`);
  const { markdown, summary } = await section.run(budget);
  // Every section says how to rerun just it, under its heading.
  ran.set(section.name, sectionLines(section.name, markdown));
  for (const s of summary) console.log(`  ${s}`);
}
const target = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));
const report = updateReportFile(target, header, ran, BENCH_SECTIONS.map((s) => s.name));
console.log(`wrote ${target}`);
writeFileSync(README_PATH, replaceBlock(readFileSync(README_PATH, 'utf8'), 'npm run bench', benchReadme(report)));
console.log(`wrote ${README_PATH} (the npm run bench block)`);
