import { EXIT } from './exit-codes.ts';
import { parseFlags, type FlagSpec, type FlagValues } from './flags.ts';
import type { CliIo } from './io.ts';

/** Collapses any text to one line, so an error never spills over several. */
export const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();

/** `trainplan: <message>` on stderr: every error the CLI reports has this one-line form. */
export function printError(io: CliIo, message: string): void {
  io.stderr(`trainplan: ${oneLine(message)}\n`);
}

/** The message of anything thrown, without its stack. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A usage mistake: the message and the command's synopsis on one line, and the usage exit code. */
export function usageError(io: CliIo, synopsis: string, message: string): number {
  printError(io, `${message} (usage: ${synopsis})`);
  return EXIT.usage;
}

/**
 * Every command's first steps: its flags read (flags.ts), a usage error said, `--help` printed. The flags and the
 * positionals, or the exit code to return at once.
 */
export function commandFlags(
  io: CliIo, argv: string[], command: { flags: Readonly<Record<string, FlagSpec>>; usage: string; synopsis: string },
  options: { positionals?: boolean } = {},
): { values: FlagValues; positionals: string[] } | number {
  const parsed = parseFlags(argv, command.flags, options);
  if (!parsed.ok) return usageError(io, command.synopsis, parsed.message);
  if (parsed.values.help === true) {
    io.stdout(command.usage);
    return EXIT.ok;
  }
  return parsed;
}
