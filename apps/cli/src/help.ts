import type { Command } from './command.ts';
import { VERSION } from './version.ts';

/** `help` is handled by main itself, since it needs the registry it would belong to. */
export const HELP_SUMMARY = 'show the help of a command: trainplan help <command>';

/**
 * A command's first example: the first `  trainplan …` line under its help's "Examples:" (or
 * "Example:"), so the general help quotes each command's own, tested examples.
 */
function firstExample(command: Command): string | undefined {
  const lines = command.usage.split('\n');
  const start = lines.findIndex((line) => /^Examples?:$/.test(line));
  if (start < 0) return undefined;
  return lines.slice(start + 1).find((line) => line.startsWith('  trainplan '))?.trim();
}

/** The command names an unknown-command error lists: the registry's, then `help`. */
export const commandNames = (commands: readonly Command[]): string[] => [...commands.map((c) => c.name), 'help'];

export function generalHelp(commands: readonly Command[]): string {
  const rows: [string, string][] = [...commands.map((c): [string, string] => [c.name, c.summary]), ['help', HELP_SUMMARY]];
  const width = Math.max(...rows.map(([name]) => name.length));
  const examples = [...commands.flatMap((c) => firstExample(c) ?? []), 'trainplan help search'];
  return `trainplan ${VERSION}: plan large-language-model training from first principles.

Usage: trainplan <command> [options]

Commands:
${rows.map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`).join('\n')}

Options:
  -h, --help     show this help
  -v, --version  print the version

Numbers take k, M, B and T as thousands, millions, billions and trillions (--gpus 1k = 1,000 GPUs,
--tokens 300B), except lengths in tokens (--seq-length, --prompt, --output, --prefill-chunk,
--shared-prefix), whose k is 1,024 and M is 1,024 k as context lengths are named (8k = 8,192 tokens,
1M = 1,048,576 tokens).

Examples:
${examples.map((e) => `  ${e}`).join('\n')}

Run 'trainplan <command> --help' (or 'trainplan help <command>') for its options and examples.
`;
}
