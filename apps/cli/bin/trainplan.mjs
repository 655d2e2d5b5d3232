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
const { main } = await import('../src/main.ts');

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
