import { commands, findCommand } from './commands/index.ts';
import { errorMessage, printError } from './errors.ts';
import { EXIT } from './exit-codes.ts';
import { commandNames, generalHelp } from './help.ts';
import type { CliIo } from './io.ts';
import { nearest } from '@trainplan/protocol';
import { VERSION } from './version.ts';

function unknownCommand(io: CliIo, name: string): number {
  const meant = nearest(name, commandNames(commands));
  printError(io, `unknown command '${name}'${meant === undefined ? '' : `: did you mean '${meant}'?`} (commands: ${commandNames(commands).join(', ')})`);
  return EXIT.usage;
}

/** `trainplan help [<command>]`: a command's help, or the general one (also for `help --help`, `help help`). */
function help(args: string[], io: CliIo): number {
  const topics = args.filter((a) => a !== '--help' && a !== '-h');
  const flag = topics.find((a) => a.startsWith('-'));
  if (flag !== undefined) {
    printError(io, `unknown flag ${flag} (usage: trainplan help [<command>])`);
    return EXIT.usage;
  }
  const [topic, ...extra] = topics;
  if (extra.length > 0) {
    printError(io, `unexpected argument '${extra[0]}' (usage: trainplan help [<command>])`);
    return EXIT.usage;
  }
  if (topic === undefined || topic === 'help') {
    io.stdout(generalHelp(commands));
    return EXIT.ok;
  }
  const command = findCommand(topic);
  if (command === undefined) return unknownCommand(io, topic);
  io.stdout(command.usage);
  return EXIT.ok;
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  // No command is a usage error: the usage goes to stderr and the exit is 2, so a script that lost its command fails.
  if (first === undefined) {
    printError(io, `missing the command (commands: ${commandNames(commands).join(', ')})`);
    io.stderr("Usage: trainplan <command> [options]; run 'trainplan --help' for what each command does, with examples.\n");
    return EXIT.usage;
  }
  // `trainplan --help search` is `trainplan help search`, as `git --help commit` is `git help commit`.
  if (first === '--help' || first === '-h') return help(rest, io);
  if (first === '--version' || first === '-v') {
    if (rest.length > 0) {
      printError(io, `unexpected argument '${rest[0]}' (usage: trainplan --version)`);
      return EXIT.usage;
    }
    io.stdout(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (first === 'help') return help(rest, io);
  if (first.startsWith('-')) {
    const meant = first.startsWith('--') ? nearest(first.slice(2), ['help', 'version']) : undefined;
    printError(io, `unknown flag ${first}${meant === undefined ? '' : `: did you mean --${meant}?`} (usage: trainplan <command> [options]; see trainplan --help)`);
    return EXIT.usage;
  }
  const command = findCommand(first);
  if (command === undefined) return unknownCommand(io, first);
  return command.run(rest, io);
}

/**
 * The CLI: `argv` without node and the script, the runtime passed in as `io`; resolves to the exit
 * code. Never throws and never prints a stack: a bug surfaces as one `internal error` line.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    printError(io, `internal error: ${errorMessage(error)}`);
    return EXIT.internal;
  }
}
