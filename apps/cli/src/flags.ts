import { parseArgs } from 'node:util';
import { nearest, presetIdAnyCase, type PresetKind } from '@trainplan/protocol';

export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** What a string flag's value is called in messages, e.g. `FILE|-`. */
  valueName?: string;
  /** A comma-separated list (`--nodes 16,32`): an empty item (`16,,32`) is refused here, by its position. */
  list?: true;
  /** A preset id: one typed in another case ("llama3-70B") is taken as the id it spells (protocol's presetIdAnyCase). */
  preset?: PresetKind;
}

export type FlagValues = Record<string, string | boolean | undefined>;

/** "-5", "-0.5", "-1e3": a negative number is a value (for the schema to refuse with its range), not a flag. */
const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

export type ParsedFlags =
  | { ok: true; values: FlagValues; positionals: string[] }
  | { ok: false; message: string };

/**
 * node:util's parseArgs, non-strict, with its tokens checked here: its strict-mode errors are long
 * and name the option in a different shape each time, and ours must be one line naming the flag.
 * Positional arguments are refused unless `positionals` says the command takes them (ask's question,
 * where a word such as "-5B" is a word of it, not a flag).
 */
export function parseFlags(argv: string[], spec: Record<string, FlagSpec>, { positionals: takesPositionals = false } = {}): ParsedFlags {
  const options = Object.fromEntries(
    Object.entries(spec).map(([name, s]) => [name, s.short === undefined ? { type: s.type } : { type: s.type, short: s.short }]),
  );
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const values: FlagValues = {};
  const positionals: string[] = [];
  let wordAt = -1;
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (!takesPositionals) return { ok: false, message: `unexpected argument '${token.value}'` };
      positionals.push(token.value);
      continue;
    }
    if (token.kind !== 'option') continue;
    // "-5B" comes as the short options -5 and -B, both of one argument: that argument, once, is a word.
    if (takesPositionals && NEGATIVE_NUMBER.test(argv[token.index]!)) {
      if (token.index !== wordAt) positionals.push(argv[token.index]!);
      wordAt = token.index;
      continue;
    }
    const flag = spec[token.name];
    if (flag === undefined) return { ok: false, message: unknownFlag(token.rawName, spec) };
    if (flag.type === 'boolean') {
      if (token.value !== undefined) return { ok: false, message: `${token.rawName} does not take a value` };
      values[token.name] = true;
      continue;
    }
    const wanted = flag.valueName ?? 'a value';
    if (token.value === undefined) return { ok: false, message: `${token.rawName} needs ${wanted}` };
    // `--model=` (or `--model ""`): said against its own flag, before any check of what else is missing.
    if (token.value.trim() === '') return { ok: false, message: `${token.rawName}: empty value: give ${wanted}` };
    // Non-strict parseArgs takes `--input --json` as input "--json"; that is a slip, not a file name.
    if (!token.inlineValue && token.value.startsWith('-') && token.value !== '-' && !NEGATIVE_NUMBER.test(token.value)) {
      return { ok: false, message: `${token.rawName} needs ${wanted}, got the flag ${token.value}` };
    }
    const value = flag.preset === undefined ? token.value : presetIdAnyCase(flag.preset, token.value);
    // One value per flag: a second one would silently replace the first.
    const earlier = values[token.name];
    if (typeof earlier === 'string' && earlier !== value) {
      return { ok: false, message: `${token.rawName} given twice ('${earlier}' and '${token.value}'): give it once` };
    }
    const empty = flag.list ? emptyItem(token.value) : undefined;
    if (empty !== undefined) return { ok: false, message: `${token.rawName}: item ${empty} of "${token.value}" is empty` };
    values[token.name] = value;
  }
  return { ok: true, values, positionals };
}

/** `unknown flag --modle: did you mean --model?`, where one long flag is near (nearest.ts). */
function unknownFlag(rawName: string, spec: Record<string, FlagSpec>): string {
  const meant = rawName.startsWith('--') ? nearest(rawName.slice(2), Object.keys(spec)) : undefined;
  return `unknown flag ${rawName}${meant === undefined ? '' : `: did you mean --${meant}?`}`;
}

/** The 1-based position of the first empty item of a comma-separated list ("16,,32" → 2), if any. */
function emptyItem(value: string): number | undefined {
  const index = value.split(',').findIndex((item) => item.trim() === '');
  return index < 0 ? undefined : index + 1;
}
