import type { Command } from './command.ts';
import { commandFlags, printError, usageError } from './errors.ts';
import { flagLocator, proseInFlagTerms } from './flag-terms.ts';
import { type FlagSpec, type FlagValues } from './flags.ts';
import type { CliIo } from './io.ts';
import { requestFrom } from './search-flags.ts';

/** The io a command answers through; a request built from flags names its bad fields by flag. */
export interface RequestIo extends CliIo {
  /** The flag that sets a request path (`training.globalBatchSize` → `--global-batch`), if one does. */
  readonly flagFor?: (path: string) => string | undefined;
  /**
   * A message with each request field it names written as the flag that sets it ("give either
   * cluster.nodes or cluster.gpus" → "give either --nodes or --gpus"); flag-terms.ts says which
   * words are fields (a one-word field such as `days` only where it stands in a list of fields).
   */
  readonly inFlagTerms?: (message: string) => string;
  /** What to give for a required flag left out, in the command's own words (RequestCommandSpec.missing). */
  readonly missingHint?: (flag: string) => string | undefined;
}

/**
 * The answer the report and stderr show: its messages, reasons, whys and warnings in flag terms for
 * a request built from flags (`--input` requests keep their JSON paths); --json prints the answer itself.
 */
export function shownAnswer<T>(io: RequestIo, answer: T): T {
  return io.inFlagTerms ? proseInFlagTerms(answer, io.inFlagTerms) : answer;
}

/**
 * A command whose flags build one API request body (or `--input FILE|-` gives it whole): search,
 * nodes, scale and inference. The shared part — parse flags, `--help`, usage errors, build or read
 * the request — lives here; each command says how flags map to the request and what to do with it.
 */
export interface RequestCommandSpec {
  name: string;
  summary: string;
  synopsis: string;
  usage: string;
  flags: Record<string, FlagSpec>;
  /** Flags that belong to the request (refused next to `--input`, which carries the whole request). */
  requestFlags: readonly string[];
  fromFlags: (v: FlagValues) => Record<string, unknown>;
  /**
   * What to give for a required flag the schema finds missing, by flag name (`nodes` → 'the node
   * counts to sweep, e.g. --nodes 105,140,175'): said as `missing --nodes: give …` instead of the
   * schema's `missing required field: expected an array of 1 to 64 items`.
   */
  missing?: Readonly<Record<string, string>>;
  /** A usage problem with the flags beyond parsing (e.g. an unknown --export format), or undefined. */
  check?: (v: FlagValues) => string | undefined;
  /** Runs the request and prints the answer; resolves to the exit code. */
  answer: (request: Record<string, unknown>, v: FlagValues, io: RequestIo) => number;
}

export function requestCommand(spec: RequestCommandSpec): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    usage: spec.usage,
    flags: spec.flags,
    async run(argv, io) {
      const usage = (message: string): number => usageError(io, spec.synopsis, message);
      const flags = commandFlags(io, argv, spec);
      if (typeof flags === 'number') return flags;
      const v = flags.values;
      const problem = spec.check?.(v);
      if (problem !== undefined) return usage(problem);
      const request = await requestFrom(v, io, () => spec.fromFlags(v), spec.requestFlags);
      if (!request.ok) return usage(request.message);
      const fromFlags = typeof v.input !== 'string';
      const missingHint = (flag: string) => spec.missing?.[flag.replace(/^--/, '')];
      return spec.answer(request.value, v, fromFlags ? { ...io, ...flagLocator(spec), missingHint } : io);
    },
  };
}

/** The schema's message for a required field left out (packages/protocol/src/schema/object.ts). */
const MISSING = /^missing required field\b/;

/** The schema's message for a number flag whose text did not read as one (search-flags.ts countOrText passes it on). */
const TEXT_FOR_NUMBER = /^expected (?:a number|an integer)\b.*, got "/;

/**
 * How a flag's number may be written, after a text that is none (QA: "--tokens 300BB" named only the range), by how the
 * flag reads it (search-flags.ts): counts take k, M, B or T (countOrText); --days, --max-token-ms and --max-ttft-s their
 * own unit (numberIn); --price and --budget a currency sign (money, the budget a count too); --memory-fraction a decimal.
 */
const NUMBER_FORMS: Readonly<Record<string, string>> = {
  '--days': '30, 30d or 30 days',
  '--max-token-ms': '50 or 50ms',
  '--max-ttft-s': '2 or 2s',
  '--price': '2.5 or $2.50',
  '--budget': '5000000, 5M or $5M',
  '--memory-fraction': '0.9',
};
const COUNT_FORMS = '1536, 1,536, 2e12, or with k, M, B or T: 300B';
const numberForms = (flag: string): string => ` (write ${NUMBER_FORMS[flag] ?? COUNT_FORMS}; see trainplan --help)`;

/**
 * One stderr line per invalid field of a request: named by the flag that sets it when the request
 * was built from flags (`--global-batch: missing required field`), else by its JSON path. A path no
 * flag sets (`training`, for a rule between fields) means nothing to a user of flags: where the
 * message names the flags itself ("--objective time-to-train needs --tokens"), it stands alone, as
 * does a choice that names the path's own flag among others ("give either --nodes or --gpus").
 */
export function printIssues(io: RequestIo, issues: readonly { path: string; message: string }[] | undefined, remedy?: Remedy): void {
  for (const issue of issues ?? []) {
    const flag = io.flagFor?.(issue.path);
    const hint = flag === undefined || !MISSING.test(issue.message) ? undefined : io.missingHint?.(flag);
    if (hint !== undefined) {
      printError(io, `missing ${flag}: give ${hint}`);
      continue;
    }
    const said = (io.inFlagTerms?.(issue.message) ?? issue.message) + (flag !== undefined && TEXT_FOR_NUMBER.test(issue.message) ? numberForms(flag) : '');
    const fix = remedy?.(issue);
    const message = fix === undefined ? said : `${said}: ${fix}`;
    // A message that names the flags itself stands alone: at a path no flag sets (`training`, for a rule
    // between fields), or offering a choice that names the path's own flag among others ("give a deadline
    // (--days), …, --nodes, or --frontier", "give either --nodes or --gpus"), where a prefix "--days:" would
    // pin the choice on one flag, often one the request did not give.
    const choice = flag !== undefined && message.startsWith('give ') && new RegExp(`(?<![\\w-])${flag}(?![\\w-])`).test(message);
    const alone = io.flagFor !== undefined && said !== issue.message && (flag === undefined || choice);
    printError(io, alone ? message : `${flag ?? (issue.path || '(request)')}: ${message}`);
  }
}

/**
 * What to do instead about one invalid field, said after its message on the same stderr line (the
 * request's own words for its fields: flags, or JSON paths for `--input`), or undefined for none.
 */
export type Remedy = (issue: { readonly path: string; readonly message: string }) => string | undefined;

/**
 * Prints an answer whose only failure is an invalid request: the JSON under `--json`, else the
 * report; for an invalid request, one line per offending field, with its remedy where one is given.
 * The answer as shown (in flag terms, shownAnswer) when it is ok, for the caller's stderr lines;
 * undefined when the request was invalid.
 */
export function printAnswer<Ok extends { ok: true }>(
  io: RequestIo, v: FlagValues, answer: Ok | { ok: false; issues: readonly { path: string; message: string }[] }, report: (a: Ok) => string,
  remedy?: Remedy,
): Ok | undefined {
  if (v.json === true) io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
  if (!answer.ok) {
    printIssues(io, answer.issues, remedy);
    return undefined;
  }
  const shown = shownAnswer(io, answer);
  if (v.json !== true) io.stdout(report(shown));
  return shown;
}

/** `--export` takes megatron or nemo, and replaces the report as --json does: one of them, not both. */
export function exportProblem(v: FlagValues): string | undefined {
  if (v.export === undefined) return undefined;
  if (v.export !== 'megatron' && v.export !== 'nemo') return `--export must be megatron or nemo, got '${String(v.export)}'`;
  return v.json === true ? 'give --json or --export, not both' : undefined;
}
