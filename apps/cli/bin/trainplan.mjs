#!/usr/bin/env node
// The Node adapter of the CLI: everything else lives in src/ and never touches process globals.
import { readFile } from 'node:fs/promises';
import { cliCache } from './cli-cache.mjs';

// `trainplan … | head` closes the pipe early: that is the reader's choice, not an error to print.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
// So can `trainplan … 2>&1 | head` (or a closed stderr): what is left for stderr (the assumed line, a warning) is
// dropped, and the answer on stdout, if its reader is still there, and the exit status stand.
let stderrOpen = true;
process.stderr.on('error', (error) => {
  if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') {
    stderrOpen = false;
    return;
  }
  throw error;
});
const writeStderr = (s) => {
  if (stderrOpen) process.stderr.write(s);
};
const cache = cliCache({ env: process.env, execArgv: process.execArgv, stderr: writeStderr });
/**
 * The CLI, or undefined when it cannot load (a broken install, a package mid-edit): said in main's one-line form, never as
 * a stack. From the bundle of these very sources when there is one (cli-cache.mjs); else through tsx, while esbuild
 * bundles them beside it for the next run (this process waits for that before it exits; its output is not held back).
 */
async function loadMain() {
  const bundled = await cache.importMain();
  if (bundled !== undefined) return bundled;
  const { register } = await import('tsx/esm/api');
  register();
  let loaded;
  cache.bundleWhen(new Promise((resolve) => { loaded = resolve; }));
  try {
    const { main } = await import('../src/main.ts');
    loaded(true);
    return main;
  } catch (error) {
    loaded(false);
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s*[\r\n]+\s*/g, ' ');
    writeStderr(`trainplan: internal error: cannot load the CLI: ${message}\n`);
    return undefined;
  }
}
const main = await loadMain();
// 70 is EX_SOFTWARE, main's EXIT.internal (src/exit-codes.ts, which cannot load either).
if (main === undefined) process.exit(70);

async function readStdin() {
  if (process.stdin.isTTY) writeStderr('trainplan: reading the scenario from stdin (end with Ctrl-D)\n');
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

process.exitCode = await main(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: writeStderr,
  readStdin,
  readFile: (path) => readFile(path, 'utf8'),
  stderrIsTTY: process.stderr.isTTY === true,
});
