/**
 * Validation state, issue reporting, and the two formatters every message uses:
 * JSON paths (`parallelism.tensor`, `[2].cluster.gpu`) and short descriptions of what was got.
 */
import { countOf } from '@trainplan/units';
import type { Context, Limits, Path } from './types.ts';

export const defaultLimits: Limits = { maxDepth: 32, maxIssues: 100 };

export function createContext(limits: Partial<Limits> = {}): Context {
  return { limits: { ...defaultLimits, ...limits }, issues: [], dropped: 0, depth: 0 };
}

/** Records an issue; a message given as a function is only built when the issue is kept. */
export function report(ctx: Context, at: Path, message: string | (() => string)): void {
  if (ctx.issues.length >= ctx.limits.maxIssues) {
    ctx.dropped += 1;
    return;
  }
  ctx.issues.push({ path: formatPath(at), message: typeof message === 'string' ? message : message() });
}

/** The usual message: what was expected, what was got. */
export function mismatch(ctx: Context, at: Path, expected: string, got: unknown): { ok: false } {
  report(ctx, at, () => `expected ${expected}, got ${describe(got)}`);
  return { ok: false };
}

/**
 * Runs `inside` one container level deeper, or reports the depth instead. Our schemas are a few
 * levels deep and never descend into fields they do not know, so this only trips on a schema
 * that nests itself; it is the guard that keeps such a schema from overflowing the stack.
 */
export function nested<T>(ctx: Context, at: Path, inside: () => T, orElse: T): T {
  if (ctx.depth >= ctx.limits.maxDepth) {
    report(ctx, at, `nested deeper than ${ctx.limits.maxDepth} levels`);
    return orElse;
  }
  ctx.depth += 1;
  try {
    return inside();
  } finally {
    ctx.depth -= 1;
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Keys longer than this are cut in paths, so a hostile 1 MB key cannot bloat the answer. */
const MAX_KEY_IN_PATH = 64;

/** `['parallelism', 'tensor']` → `parallelism.tensor`; `[2, 'cluster']` → `[2].cluster`; root → ''. */
export function formatPath(at: Path): string {
  let out = '';
  for (const segment of at) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment) && segment.length <= MAX_KEY_IN_PATH) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(truncate(segment, MAX_KEY_IN_PATH))}]`;
  }
  return out;
}

const MAX_QUOTED = 40;

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * A number as people read it: whole numbers from 10,000 up grouped by thousands ("1,000,000"), past the safe
 * integers too (2^60: "1,152,921,504,606,847,000", QA: it read as 19 bare digits); others as they are, and from
 * 1e21, where JavaScript writes an exponent, so too ("1e+308", not 309 characters).
 */
export const numberText = (x: number): string =>
  (Number.isInteger(x) && Math.abs(x) >= 10_000 && Math.abs(x) < 1e21 ? x.toLocaleString('en-US') : String(x));

/** What was got, in a few words; never walks into a container and never echoes a long string. */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'undefined': return 'nothing';
    case 'string':
      return value.length <= MAX_QUOTED
        ? JSON.stringify(value)
        : `${JSON.stringify(value.slice(0, MAX_QUOTED))}… (a string of ${countOf(value.length, 'character')})`;
    case 'number': return Object.is(value, -0) ? '-0' : numberText(value);
    case 'boolean': return String(value);
    case 'bigint': return `a bigint (${truncate(String(value), MAX_QUOTED)})`;
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? `an array of ${countOf(value.length, 'item')}` : 'an object';
    default: return `a ${typeof value}`;
  }
}


export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Unicode code points in `text`, counting no further than `stop` (JSON Schema lengths are code points). */
export function codePointLength(text: string, stop: number): number {
  if (text.length <= stop) return [...text].length;
  let count = 0;
  for (const _ of text) if (++count > stop) break;
  return count;
}
