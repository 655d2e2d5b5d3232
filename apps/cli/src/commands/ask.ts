import { answer, DEFAULT_PUBLIC_URL, parse, renderText } from '@trainplan/ask';
import type { Command } from '../command.ts';
import { commandFlags, usageError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import { type FlagSpec } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { usageLine } from '../format/usage-line.ts';

const SYNOPSIS = 'trainplan ask "QUESTION" [--json] [--public-url URL]';

const USAGE = `${usageLine(SYNOPSIS)}

Answer a planning question in plain words, as the Slack and Discord bot does: the headline number,
the configuration behind it, step time, MFU, memory per GPU, the defaults assumed for what the
question left out, and a link that opens the same scenario in the widget. A deadline given as a
date ("by 31 December", "by end of quarter") is counted in whole days from today's UTC date.

Options:
      --json            print the parsed question and the answer as JSON
      --public-url URL  where the widget is served, for the link (default ${DEFAULT_PUBLIC_URL})
  -h, --help            show this help

Exit status:
  0  answered
  1  not answered: help was shown, or the plan does not fit (the answer still says why)
  2  usage error

Examples:
  trainplan ask "how many nodes for 175B"
  trainplan ask "how many H100 nodes to train llama3-70b on 2T tokens in 30 days"
  trainplan ask "how many H100 nodes to train llama3-70b on 15T tokens by 31 December"
  trainplan ask "memory for 70B with tp 8 pp 4 on A100 80GB"
  trainplan ask "best config for 530B on 280 DGX A100"
  trainplan ask "how long to train gpt3-175b on 128 nodes"
  trainplan ask 'cheapest way to train llama3-70b on 2T tokens at $2/GPU-hour'
  trainplan ask "all-reduce 1 GB on 64 H100" --json
`;

const FLAGS: Record<string, FlagSpec> = {
  json: { type: 'boolean' },
  'public-url': { type: 'string', valueName: 'an http(s) URL' },
  help: { type: 'boolean', short: 'h' },
};

const usageFailure = (io: CliIo, message: string): number => usageError(io, SYNOPSIS, message);

export const askCommand: Command = {
  name: 'ask',
  summary: 'answer a planning question in plain words ("how many nodes for 175B")',
  usage: USAGE,
  flags: FLAGS,
  async run(argv, io) {
    // The flags are read as every command reads them (flags.ts), so a slip is said the same way ("unknown flag --jsn: did you mean --json?").
    const parsed = commandFlags(io, argv, { flags: FLAGS, usage: USAGE, synopsis: SYNOPSIS }, { positionals: true });
    if (typeof parsed === 'number') return parsed;
    // The question may be quoted or not: `trainplan ask how many nodes for 175B` reads the same.
    const question = parsed.positionals.join(' ').trim();
    if (question === '') return usageFailure(io, 'missing the question');
    const url = parsed.values['public-url'];
    const publicUrl = typeof url === 'string' ? url : DEFAULT_PUBLIC_URL;
    if (!/^https?:\/\/\S+$/.test(publicUrl)) return usageFailure(io, `--public-url needs an http(s) URL, got '${publicUrl}'`);
    // Today's UTC calendar day, for a deadline given as a date ("by 31 december"): @trainplan/ask keeps no clock, the CLI does.
    const today = new Date().toISOString().slice(0, 10);
    const q = parse(question, { today });
    const a = answer(q, { publicUrl, today });
    io.stdout(parsed.values.json === true ? `${JSON.stringify({ parsed: q, answer: a }, null, 2)}\n` : renderText(a));
    return a.ok ? EXIT.ok : EXIT.infeasible;
  },
};
