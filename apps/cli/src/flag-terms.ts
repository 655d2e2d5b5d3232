import type { FlagSpec, FlagValues } from './flags.ts';

/** What a request built from flags knows of its flags: which flag sets a path, and a message reworded in flags. */
export interface FlagTerms {
  /** The flag that sets a request path (`training.globalBatchSize` → `--global-batch`), if one does. */
  readonly flagFor: (path: string) => string | undefined;
  /** A message with each request field it names written as the flag that sets it ("give either --nodes or --gpus"). */
  readonly inFlagTerms: (message: string) => string;
}

/** The part of a request command that says how its flags land in the request. */
export interface FlagsToRequest {
  flags: Record<string, FlagSpec>;
  requestFlags: readonly string[];
  fromFlags: (v: FlagValues) => Record<string, unknown>;
}

const MARKER = '\u0000flag';

/**
 * A field named where no English word could be: dotted (`training.tokens`) or camelCase
 * (`candidateBudget`, and the leaf `memoryFraction` of `constraints.memoryFraction`, as the search's
 * messages name it). Rewritten wherever it stands as a whole word, with a quoted value after it taken as the
 * flag's value (`kvCachePrecision "fp8"` → `--kv-cache-precision fp8`).
 */
const anywhere = (names: string[]) => `(?<![\\w.])(?<field>${names.join('|')})(?![\\w])(?: "(?<fieldValue>[\\w.-]+)")?`;

/**
 * A one-word field (`nodes`, `days`, `budget`, `model`) is also an English noun, and the planner's
 * messages use both: "give nodes (days on that many nodes) or a goal (days, gpuHours, budget)",
 * "stays within the budget", "unknown model". The field is the one standing as an item of a list of
 * fields or as the object of "give", "use" or "without": after "(", a comma, "or", "and", "either",
 * "give", "use" or "without" (or opening the message), and before ")", a comma, "or", "and", "with", "applies" or "apply"
 * (its subject: "oversubscription applies only to the emulator"), " (" (or closing it), or before a
 * quoted value, which is the flag's value ('use precision "fp16"' → `use --precision
 * fp16`). The noun has an article, a number or an adjective before it ("the budget", "128 nodes",
 * "many nodes") or a word after it ("days on").
 */
const listed = (names: string[]) => `(?<=^|[(,]\\s*|\\b(?:or|and|either|give|use|without)\\s)(?<word>${names.join('|')})`
  + `(?:(?=$|[),]|\\s(?:or|and|with|applies|apply)\\b|\\s\\()| "(?<value>[\\w.-]+)")`;

/**
 * Where each request flag lands in the request: fromFlags is run with that flag alone set to a
 * marker, and the marker's path is the flag's (a table kept by hand could drift from fromFlags).
 * An issue at the marker's path, at another item of the list it fills, or at that list, is the flag's.
 */
export function flagLocator(spec: FlagsToRequest): FlagTerms {
  const anyItem = (path: string) => path.replace(/\[\d+\]/g, '[]');
  const byPath = new Map<string, string>();
  for (const name of spec.requestFlags) {
    // A boolean flag is found only where fromFlags passes its value through (nodes' --frontier).
    if (spec.flags[name] === undefined) continue;
    for (const path of markerPaths(spec.fromFlags({ [name]: MARKER }))) byPath.set(anyItem(path), `--${name}`);
  }
  const byName = namesInMessages(byPath);
  const oneWord = (name: string) => /^[a-z]+$/.test(name);
  // Longest first, so `training.tokens` is taken whole before any shorter field inside it.
  const escaped = (names: string[]) => names.sort((a, b) => b.length - a.length).map((n) => n.replaceAll('.', '\\.'));
  const names = [...byName.keys()];
  const parts = [
    ...(names.some((n) => !oneWord(n)) ? [anywhere(escaped(names.filter((n) => !oneWord(n))))] : []),
    ...(names.some(oneWord) ? [listed(escaped(names.filter(oneWord)))] : []),
  ];
  const fields = parts.length === 0 ? undefined : new RegExp(parts.join('|'), 'g');
  return {
    flagFor: (path) => byPath.get(anyItem(path)) ?? byPath.get(`${anyItem(path)}[]`),
    inFlagTerms: (message) => (fields === undefined ? message : message.replace(fields, (...args) => {
      const { field, word, value, fieldValue } = args.at(-1) as Record<string, string | undefined>;
      const given = value ?? fieldValue;
      return `${byName.get((field ?? word)!)}${given === undefined ? '' : ` ${given}`}`;
    })),
  };
}

/**
 * The names a message may give each flag's field by: its path (`constraints.memoryFraction`, a list
 * `nodes[]` as `nodes`) and its last segment (`memoryFraction`). A last segment that two flags share
 * names neither, since the message cannot say which.
 */
function namesInMessages(byPath: ReadonlyMap<string, string>): Map<string, string> {
  const byName = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const [path, flag] of byPath) {
    const name = path.replace(/\[\]$/, '');
    if (!/^[\w.]+$/.test(name)) continue;
    byName.set(name, flag);
    const leaf = name.slice(name.lastIndexOf('.') + 1);
    if (leaf === name || byPath.has(leaf)) continue;
    if (byName.has(leaf) && byName.get(leaf) !== flag) ambiguous.add(leaf);
    byName.set(leaf, flag);
  }
  for (const leaf of ambiguous) byName.delete(leaf);
  return byName;
}

function markerPaths(value: unknown, path = ''): string[] {
  if (value === MARKER) return [path];
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((x, i) => markerPaths(x, `${path}[${i}]`));
  return Object.entries(value).flatMap(([k, x]) => markerPaths(x, path === '' ? k : `${path}.${k}`));
}

/** The keys of an answer whose text is prose for a human (the rest are ids, labels, enums and figures). */
const PROSE = new Set(['message', 'why', 'reason', 'warnings', 'note', 'description', 'example', 'contradiction']);

/**
 * An answer as the report and stderr show it: every message, why, reason, warning and note in flag
 * terms, at any depth (a scale point's reason, a plan's warnings, the closest plan's why). The JSON
 * printed under --json stays the API's answer, in the request's field names.
 */
export function proseInFlagTerms<T>(answer: T, inFlagTerms: (message: string) => string): T {
  const walk = (value: unknown, prose: boolean): unknown => {
    if (typeof value === 'string') return prose ? inFlagTerms(value) : value;
    if (Array.isArray(value)) return value.map((x) => walk(x, prose));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, walk(x, PROSE.has(k))]));
  };
  return walk(answer, false) as T;
}
