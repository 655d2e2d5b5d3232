#!/usr/bin/env node
// `npm run fresh-machine`: proves the README's setup is complete. Clones this repository (its
// committed HEAD, as a fresh machine would get it) into a temporary folder, then runs the README's
// commands exactly as written there: `npm install`, `npm test`, and `npm start`, checking that the
// server answers /healthz on its port. Prints each step with its duration; exits non-zero on the
// first failure. Takes minutes (a full install and test run); no standard input is read.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const keep = process.argv.includes('--keep');
const skipTests = process.argv.includes('--skip-tests');

// The README is the source of truth: the commands it lists must be the ones this script runs.
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
for (const command of ['npm install', 'npm start', 'npm test']) {
  if (!readme.includes(command)) fail(`README.md no longer mentions \`${command}\`; update this script with the README`);
}

const work = mkdtempSync(join(tmpdir(), 'trainplan-fresh-'));
const clone = join(work, 'trainplan');
// The ground truth and docs live beside the repository (../shared): a fresh machine has them there too.
const shared = join(dirname(repo), 'shared');
if (existsSync(shared)) symlinkSync(shared, join(work, 'shared'));

function fail(message) {
  console.error(`fresh-machine: FAILED: ${message}`);
  if (!keep && typeof work === 'string') rmSync(work, { recursive: true, force: true });
  process.exit(1);
}

function step(label, cmd, args, options = {}) {
  const started = performance.now();
  console.log(`\n== ${label}: ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { cwd: clone, stdio: ['ignore', 'inherit', 'inherit'], ...options });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) fail(`${label} exited with ${result.status ?? result.signal} after ${seconds} s`);
  console.log(`== ${label}: ok in ${seconds} s`);
}

async function startAnswers() {
  const port = 18_000 + Math.floor(Math.random() * 2_000);
  console.log(`\n== npm start (PORT=${port})`);
  const server = spawn('npm', ['start'], { cwd: clone, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  server.stdout.on('data', (chunk) => process.stdout.write(chunk));
  const deadline = Date.now() + 60_000;
  try {
    while (Date.now() < deadline) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (response.ok) {
          const page = await fetch(`http://127.0.0.1:${port}/`);
          console.log(`== npm start: /healthz ${response.status}, / ${page.status}`);
          if (!page.ok) fail(`GET / answered ${page.status}`);
          return;
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    fail('npm start did not answer /healthz within 60 s');
  } finally {
    process.kill(-server.pid, 'SIGTERM');
  }
}

const total = performance.now();
step('clone', 'git', ['clone', '--quiet', repo, clone], { cwd: work });
step('npm install', 'npm', ['install']);
if (!skipTests) step('npm test', 'npm', ['test']);
await startAnswers();
console.log(`\nfresh-machine: ok in ${((performance.now() - total) / 1000).toFixed(0)} s (${clone})`);
if (!keep) rmSync(work, { recursive: true, force: true });
