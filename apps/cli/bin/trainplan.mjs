#!/usr/bin/env node
// The Node adapter of the CLI: everything else lives in src/ and never touches process globals.
import { createReadStream } from 'node:fs';
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

/**
 * The most bytes --input reads, from stdin or a file: a request is kilobytes (the API takes 64 KiB; 1,024 scenarios fit in
 * well under 1 MiB), and without a bound `--input - < /dev/zero`, or a runaway pipe, grew the process by 240 MB a second
 * (security QA, CWE-770: 7 GB in 19 s) and `--input /dev/zero` read 628 MB before failing.
 */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** A stream's text, or an error past MAX_INPUT_BYTES (the stream then destroyed, so a pipe's writer stops). */
async function readCapped(stream) {
  const chunks = [];
  let bytes = 0;
  for await (const chunk of stream) {
    bytes += chunk.length;
    if (bytes > MAX_INPUT_BYTES) {
      stream.destroy();
      throw new Error(`more than ${MAX_INPUT_BYTES / 1024 / 1024} MiB, far past any request (a scenario is a few hundred bytes)`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readStdin() {
  if (process.stdin.isTTY) writeStderr('trainplan: reading the scenario from stdin (end with Ctrl-D)\n');
  return readCapped(process.stdin);
}

process.exitCode = await main(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: writeStderr,
  readStdin,
  readFile: (path) => readCapped(createReadStream(path)),
  stderrIsTTY: process.stderr.isTTY === true,
});
