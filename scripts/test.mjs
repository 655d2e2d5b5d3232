#!/usr/bin/env node
// `npm test`: typecheck, repository lint, then every vitest suite; ends with the plain line
// "N passed, N failed" that CI reads. Exit code is non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (label, cmd, args) => {
  console.log(`\n== ${label}: ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } });
  return result.status ?? 1;
};

// Each suite is one vitest run with its own config: the main one (Node), and suites that need another
// runtime (workerd, a real browser). A suite adds a line here.
const SUITES = [
  { name: 'tests', config: 'vitest.config.ts' },
  { name: 'workerd', config: 'infra/cloudflare/vitest.config.mts' },
  { name: 'runtimes', config: 'test/runtimes/vitest.config.ts' },
  { name: 'load', config: 'test/load/vitest.config.ts' },
  { name: 'browser', config: 'test/e2e/vitest.config.ts' },
];

let failedSteps = 0;
failedSteps += run('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']) === 0 ? 0 : 1;
failedSteps += run('lint', 'node', ['scripts/lint.mjs']) === 0 ? 0 : 1;

mkdirSync(`${root}.tmp`, { recursive: true });
let passed = 0;
let failed = 0;
for (const suite of SUITES) {
  if (!existsSync(`${root}${suite.config}`)) {
    console.error(`suite ${suite.name}: config ${suite.config} is missing`);
    failed += 1;
    continue;
  }
  const report = `${root}.tmp/vitest-${suite.name}.json`;
  const status = run(suite.name, 'npx', ['vitest', 'run', '--config', suite.config, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  let suiteFailed = 0;
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed += json.numPassedTests;
    suiteFailed = json.numFailedTests + (json.numRuntimeErrorTestSuites ?? 0);
  } catch {
    suiteFailed = 1;
  }
  // A suite that exits non-zero with no failed test (a crash, a config error) still counts as a failure.
  failed += status !== 0 && suiteFailed === 0 ? 1 : suiteFailed;
}
// A failed typecheck or lint counts as a failed test, so the closing line never hides it.
failed += failedSteps;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
