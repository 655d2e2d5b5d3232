import { cpus } from 'node:os';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { estimateBenchmarks } from './estimate-bench.ts';

// `npm run bench`: one process, one core (the planner is single-threaded), written to docs/benchmarks.md.
const budget = Number(process.env.BENCH_SECONDS ?? 2);
const results = estimateBenchmarks(budget);
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const lines = [
  '# Benchmarks',
  '',
  `Regenerate with \`npm run bench\` (each row: best batch of 2,000 calls over ${budget} s after a warm-up, one core,`,
  `Node ${process.versions.node}, ${cpu}). Timings on shared machines are noisy: compare rows of one run as ratios.`,
  '',
  '## Estimate speed',
  '',
  '| benchmark | estimates/s | µs per call | target |',
  '|---|---|---|---|',
  ...results.map((r) => `| ${r.name} | ${Math.round(r.perSecond).toLocaleString('en-US')} | ${r.microsecondsPerCall.toFixed(2)} | ≥ 100,000/s (≤ 10 µs) ${r.perSecond >= 1e5 ? 'met' : '**missed**'} |`),
  '',
  'Peer figure: Calculon (Isaev et al., SC\'23) evaluates one configuration in milliseconds of Python; '
    + 'its exhaustive search over a 1T-model space takes minutes.',
  '',
];
const target = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));
writeFileSync(target, lines.join('\n'));
for (const r of results) console.log(`${r.name}: ${Math.round(r.perSecond)} /s (${r.microsecondsPerCall.toFixed(2)} µs)`);
console.log(`wrote ${target}`);
