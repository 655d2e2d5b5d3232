#!/usr/bin/env node
// The Node adapter of the CLI: everything else lives in src/ and never touches process globals.
import { readFile } from 'node:fs/promises';
import { register } from 'tsx/esm/api';

register();
// `trainplan … | head` closes the pipe early: that is the reader's choice, not an error to print.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
/** The CLI, or undefined when it cannot load (a broken install, a package mid-edit): said in main's one-line form, never as a stack. */
async function loadMain() {
  try {
    return (await import('../src/main.ts')).main;
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s*[\r\n]+\s*/g, ' ');
    process.stderr.write(`trainplan: internal error: cannot load the CLI: ${message}\n`);
    return undefined;
  }
}
const main = await loadMain();
// 70 is EX_SOFTWARE, main's EXIT.internal (src/exit-codes.ts, which cannot load either).
if (main === undefined) process.exit(70);

async function readStdin() {
  if (process.stdin.isTTY) process.stderr.write('trainplan: reading the scenario from stdin (end with Ctrl-D)\n');
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

process.exitCode = await main(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  readStdin,
  readFile: (path) => readFile(path, 'utf8'),
  stderrIsTTY: process.stderr.isTTY === true,
});
