import type { FlagSpec } from './flags.ts';
import type { CliIo } from './io.ts';

/** One `trainplan <name>` command: the registry in commands/index.ts lists them all. */
export interface Command {
  name: string;
  /** One line for `trainplan --help`. */
  summary: string;
  /** The full `trainplan <name> --help` text, examples included. */
  usage: string;
  /** The flags it accepts (long name → short form): its usage lists each one. */
  flags: Readonly<Record<string, Readonly<FlagSpec>>>;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run: (argv: string[], io: CliIo) => Promise<number>;
}
