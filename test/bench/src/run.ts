import { cpus } from 'node:os';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BENCH_SECTIONS } from './sections.ts';

// `npm run bench`: one process, one core (the planner is single-threaded), written to docs/benchmarks.md.
// BENCH_SECTIONS=estimate,search runs only the named sections (the file then holds only those).
const budget = Number(process.env.BENCH_SECONDS ?? 2);
const only = process.env.BENCH_SECTIONS?.split(',').map((s) => s.trim());
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const lines = [
  '# Benchmarks',
  '',
  `Regenerate with \`npm run bench\` (BENCH_SECONDS=${budget} per measurement; Node ${process.versions.node}, ${cpu}).`,
  'Timings on shared machines are noisy: compare rows of one run as ratios.',
  '',
];
for (const section of BENCH_SECTIONS) {
  if (only !== undefined && !only.includes(section.name)) continue;
  console.log(`bench: ${section.name} …`);
  const { markdown, summary } = await section.run(budget);
  // Every section says how to rerun just it, under its heading.
  const [heading, ...rest] = markdown;
  lines.push(heading ?? `## ${section.name}`, '', `Rerun: \`BENCH_SECTIONS=${section.name} npm run bench\`.`, ...rest);
  for (const s of summary) console.log(`  ${s}`);
}
const target = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));
writeFileSync(target, lines.join('\n'));
console.log(`wrote ${target}`);
