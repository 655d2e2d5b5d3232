import { parseCount, parseDecimal, parseTokenLength } from '@trainplan/units';
import type { FlagSpec, FlagValues } from './flags.ts';
import type { CliIo } from './io.ts';
import { readJsonInput } from './read-input.ts';

/** Flags the search, nodes, scale and inference commands share. */
export const MACHINE_FLAGS: Record<string, FlagSpec> = {
  input: { type: 'string', short: 'i', valueName: 'FILE, or - for stdin' },
  model: { type: 'string', short: 'm', valueName: 'a model preset id', preset: 'model' },
  gpu: { type: 'string', short: 'g', valueName: 'a GPU or system preset id', preset: 'gpu' },
  'gpus-per-node': { type: 'string', valueName: 'a count' },
  network: { type: 'string', valueName: 'a network preset id', preset: 'network' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export const TRAINING_FLAGS: Record<string, FlagSpec> = {
  'global-batch': { type: 'string', short: 'b', valueName: 'a count' },
  'seq-length': { type: 'string', valueName: 'a count of tokens, e.g. 2048 or 8k' },
  precision: { type: 'string', valueName: 'fp16, bf16 or fp8' },
  'grad-accumulation': { type: 'string', valueName: 'fused, fused-16-bit, 16-bit or fp32' },
  'fp8-params': { type: 'boolean' },
  'max-tensor': { type: 'string', valueName: 'a count' },
  'tensor-within-node': { type: 'boolean' },
  'memory-fraction': { type: 'string', valueName: 'a number in (0, 1]' },
};

/**
 * The search space's own dimensions, for search and nodes: each a comma-separated list of exactly the
 * values tried (constraints.tensorSizes, pipelineSizes, contextSizes, virtualStageCounts,
 * microBatchSizes, recompute, pipelineSlots), so a plan that must run TP 8 with full recompute is searched as such.
 */
export const SPACE_FLAGS: Record<string, FlagSpec> = {
  tensor: { type: 'string', valueName: 'a comma-separated list of tensor-parallel degrees', list: true },
  pipeline: { type: 'string', valueName: 'a comma-separated list of pipeline depths', list: true },
  context: { type: 'string', valueName: 'a comma-separated list of context-parallel degrees', list: true },
  'virtual-stages': { type: 'string', valueName: 'a comma-separated list of model chunks per stage', list: true },
  'micro-batch': { type: 'string', valueName: 'a comma-separated list of micro-batch sizes', list: true },
  recompute: { type: 'string', valueName: 'a comma-separated list of none, selective, full, full-partial', list: true },
  'pipeline-split': { type: 'string', valueName: 'a comma-separated list of layers, embedding, loss, embedding-and-loss', list: true },
};

/**
 * --overlap LIST: the communication Megatron-Core can hide, held on for every candidate (the request's `settings`,
 * each false by default as in the scenario): grad-reduce (--overlap-grad-reduce, with --overlap-param-gather under the
 * distributed optimizer), tp-comm (--tp-comm-overlap), p2p (interleaved pipeline sends: Megatron's default with v > 1).
 */
export const OVERLAP_FLAGS: Record<string, FlagSpec> = {
  overlap: { type: 'string', valueName: 'a comma-separated list of grad-reduce, tp-comm, p2p, or all, or none', list: true },
};

const OVERLAP_SETTINGS = { 'grad-reduce': 'overlapGradReduce', 'tp-comm': 'overlapTensorParallelComm', p2p: 'overlapPipelineComm' } as const;
type OverlapName = keyof typeof OVERLAP_SETTINGS;
const OVERLAP_NAMES = Object.keys(OVERLAP_SETTINGS) as OverlapName[];

/** --overlap's items as the request's settings, or undefined when it is not given. */
export function overlapSettings(v: FlagValues): Record<string, boolean> | undefined {
  const items = overlapItems(v);
  if (items === undefined) return undefined;
  // "none" is the default said aloud: every setting off.
  const on = items.includes('all') ? OVERLAP_NAMES : (items.filter((x) => x !== 'none') as OverlapName[]);
  return Object.fromEntries(OVERLAP_NAMES.map((name) => [OVERLAP_SETTINGS[name], on.includes(name)]));
}

const overlapItems = (v: FlagValues): string[] | undefined => (typeof v.overlap === 'string' ? v.overlap.split(',').map((x) => x.trim()) : undefined);

/** A usage problem with --overlap: an item that is none of its names. */
export function overlapProblem(v: FlagValues): string | undefined {
  const items = overlapItems(v);
  const bad = items?.filter((x) => x !== 'all' && x !== 'none' && !(OVERLAP_NAMES as string[]).includes(x));
  if (bad !== undefined && bad.length > 0) return `--overlap takes ${OVERLAP_NAMES.join(', ')}, all or none, got '${bad.join(',')}'`;
  return items !== undefined && items.includes('none') && items.length > 1 ? `--overlap none goes alone, got '${items.join(',')}'` : undefined;
}

/** The help lines of SPACE_FLAGS, the same in every command that takes them, descriptions from `column` on (the command's own layout). */
export function spaceFlagsHelp(column: number): string {
  // A flag as wide as the column gets its own line, and its text the next: never run together ("LISTonly").
  const line = (flag: string, text: string) => {
    const name = `      ${flag}`;
    return name.length < column ? name.padEnd(column) + text : `${name}\n${' '.repeat(column)}${text}`;
  };
  return [
    line('--tensor LIST', 'only these tensor-parallel degrees, e.g. 4,8 (likewise --pipeline LIST,'),
    line('', '--context LIST, --virtual-stages LIST, --micro-batch LIST); by default'),
    line('', 'context parallelism 1-8, or up to chunks of 8,192 tokens on longer'),
    line('', 'sequences (CP 16 at 128k); virtual stages: every count Megatron'),
    line('', 'accepts, i.e. dividing some pipeline depth\'s layers per stage, up to'),
    line('', 'one layer per virtual stage (96 layers on PP 8: v 1, 2, 3, 4, 6, 12);'),
    line('', 'micro-batches 1, 2, 4, 8, 16 (--micro-batch 1,2,3,4,6,8,12,16 also tries'),
    line('', 'the 3·2^k ones a batch like GPT-3\'s 1,536 divides into)'),
    line('--recompute LIST', 'only these recompute modes: none, selective, full, full-partial (full on'),
    line('', 'some layers per stage)'),
    line('--pipeline-split LIST', 'only these pipeline layouts: layers (the layers alone), embedding, loss,'),
    line('', 'embedding-and-loss (each takes a layer\'s place: Megatron-Core\'s'),
    line('', '--account-for-embedding/loss-in-pipeline-split); default all four'),
    line('--overlap LIST', 'hide this communication in every plan that can: grad-reduce,'),
    line('', 'tp-comm (SP within a node), p2p (interleaved sends, Megatron-Core\'s'),
    line('', 'default); all, or none (the default)'),
  ].join('\n');
}

export type Built = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/**
 * A count as a flag gives it ("300B", "2e12", "1536", "1,536": units' parseCount reads thousands
 * separators), passed through as text when it does not parse so the schema names it. A negative count
 * ("-4", "-2k") goes as the number it is, so the schema's range is said against it ("≥ 1, got -4"),
 * not against a text "-4".
 */
function countOrText(raw: string): number | string {
  const negative = /^\s*-/.exec(raw);
  const n = parseCount(negative ? raw.slice(negative[0].length) : raw);
  if (n === undefined) return raw;
  return negative ? -n : n;
}

/** A count flag (countOrText), undefined when not given. */
export function count(v: FlagValues, name: string): number | string | undefined {
  const raw = v[name];
  return typeof raw === 'string' ? countOrText(raw) : undefined;
}

/** The currency sign a money flag's value may open with ("$2.50", "€2.5"). */
export const CURRENCY_SIGN = /^\s*[$€£¥]\s*/u;

/** A money flag (--price, --budget): "$2.50" or "€2.5" as 2.5, the sign dropped: the answer is in the same currency. */
export function money(v: FlagValues, name: string, read: (v: FlagValues, name: string) => number | string | undefined = number): number | string | undefined {
  const raw = v[name];
  if (typeof raw !== 'string') return undefined;
  const n = read({ [name]: raw.replace(CURRENCY_SIGN, '') }, name);
  return typeof n === 'number' ? n : raw;
}

/**
 * A length in tokens of a sequence or a part of one (--seq-length, inference's --prompt and --output): "8k" is 8192,
 * "128k" 131,072 and "1M" 1,048,576 (units' parseTokenLength), not the 8000 and 1,000,000 count() makes of them;
 * anything else as count() reads it.
 */
export function tokenLength(v: FlagValues, name: string): number | string | undefined {
  const raw = v[name];
  return (typeof raw === 'string' ? parseTokenLength(raw) : undefined) ?? count(v, name);
}

/** --seq-length, read as tokenLength reads it. */
export const seqLength = (v: FlagValues): number | string | undefined => tokenLength(v, 'seq-length');

export function number(v: FlagValues, name: string): number | string | undefined {
  const raw = v[name];
  if (typeof raw !== 'string') return undefined;
  const n = parseDecimal(raw);
  return n !== undefined && Number.isFinite(n) ? n : raw;
}

/**
 * A number flag that may carry its own unit after it ("30d" or "30 days" for --days, "50ms" for --max-token-ms, "2s" for
 * --max-ttft-s): the unit, where `unit` matches it right after the number, is dropped and the rest read as number() reads
 * it; anything else (another unit: "2ms" to a flag in seconds) goes on as given, for the command's check or the schema
 * to name.
 */
export function numberIn(v: FlagValues, name: string, unit: RegExp): number | string | undefined {
  const raw = v[name];
  if (typeof raw !== 'string') return undefined;
  const n = number({ [name]: raw.replace(unit, '') }, name);
  return typeof n === 'number' ? n : raw;
}

/** The units numberIn drops from a flag in days, milliseconds and seconds: each only right after a digit ("2ms" is not "2m" seconds). */
export const UNIT = {
  days: /(?<=\d)\s*(?:d|days?)\s*$/i,
  milliseconds: /(?<=\d)\s*(?:ms|msecs?|milliseconds?)\s*$/i,
  seconds: /(?<=\d)\s*(?:s|secs?|seconds?)\s*$/i,
} as const;

/** The object without its undefined entries (a flag not given is no field). */
export const defined = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined));

/** The request's model and cluster (without the size) from flags. */
export function machineFields(v: FlagValues): Record<string, unknown> {
  return defined({
    model: v.model,
    cluster: defined({ gpu: v.gpu, gpusPerNode: count(v, 'gpus-per-node'), network: v.network }),
  });
}

export function trainingFields(v: FlagValues, tokens?: number | string): Record<string, unknown> {
  return defined({
    globalBatchSize: count(v, 'global-batch'), seqLength: seqLength(v), precision: v.precision, tokens,
    gradientAccumulation: v['grad-accumulation'],
    // Passed through as given (true), not mapped: the flag locator finds a boolean flag's field so.
    fp8Params: v['fp8-params'] !== undefined && v['fp8-params'] !== false ? v['fp8-params'] : undefined,
  });
}

export function constraintFields(v: FlagValues): Record<string, unknown> | undefined {
  const c = defined({
    // Passed through, not mapped to true: the flag locator (flag-terms.ts) finds a boolean flag's field only so,
    // and messages name tensorWithinNode (a contradicting --tensor list).
    maxTensor: count(v, 'max-tensor'), tensorWithinNode: v['tensor-within-node'] !== undefined && v['tensor-within-node'] !== false ? v['tensor-within-node'] : undefined,
    memoryFraction: number(v, 'memory-fraction'),
  });
  return Object.keys(c).length > 0 ? c : undefined;
}

/** A comma-separated list flag: counts read as count() reads them ("8,16"), any item that does not parse passed through as text for the schema to name. */
export function list(v: FlagValues, name: string, item: (x: string) => unknown = countOrText): unknown[] | undefined {
  const raw = v[name];
  return typeof raw === 'string' ? raw.split(',').map((x) => item(x.trim())) : undefined;
}

/** constraintFields plus the SPACE_FLAGS lists (search and nodes). */
export function spaceConstraintFields(v: FlagValues): Record<string, unknown> | undefined {
  const c = defined({
    ...constraintFields(v),
    tensorSizes: list(v, 'tensor'), pipelineSizes: list(v, 'pipeline'), contextSizes: list(v, 'context'),
    virtualStageCounts: list(v, 'virtual-stages'), microBatchSizes: list(v, 'micro-batch'), recompute: list(v, 'recompute', (x) => x),
    pipelineSlots: list(v, 'pipeline-split', (x) => x),
  });
  return Object.keys(c).length > 0 ? c : undefined;
}

/**
 * The request: the JSON of --input (the whole request, as the API takes it), or one built from flags.
 * Flags given alongside --input are a usage error, so neither silently wins.
 */
export async function requestFrom(v: FlagValues, io: CliIo, fromFlags: () => Record<string, unknown>, flagNames: readonly string[]): Promise<Built> {
  if (typeof v.input === 'string') {
    const extra = flagNames.find((n) => v[n] !== undefined);
    if (extra !== undefined) return { ok: false, message: `--input carries the whole request: drop --${extra}` };
    const input = await readJsonInput(v.input, io);
    return input.ok ? { ok: true, value: input.value as Record<string, unknown> } : input;
  }
  if (typeof v.model !== 'string') return { ok: false, message: 'missing --model: give a model preset id (or --input FILE with the whole request)' };
  if (typeof v.gpu !== 'string') return { ok: false, message: 'missing --gpu: give a GPU or system preset id' };
  return { ok: true, value: fromFlags() };
}
