#!/usr/bin/env node
// `npm test`: typecheck, repository lint, then every vitest suite in one run; ends with the plain
// line "N passed, N failed" that CI reads. Exit code is non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (label, cmd, args) => {
  console.log(`\n== ${label}: ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } });
  return result.status ?? 1;
};

let failedSteps = 0;
failedSteps += run('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']) === 0 ? 0 : 1;
failedSteps += run('lint', 'node', ['scripts/lint.mjs']) === 0 ? 0 : 1;

mkdirSync(`${root}.tmp`, { recursive: true });
const report = `${root}.tmp/vitest-report.json`;
const vitestStatus = run('tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);

let passed = 0;
let failed = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests;
  failed = json.numFailedTests + (json.numRuntimeErrorTestSuites ?? 0);
} catch {
  failed += 1;
}
// A failed typecheck or lint counts as a failed test, so the closing line never hides it.
failed += failedSteps;
if (vitestStatus !== 0 && failed === 0) failed = 1;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
