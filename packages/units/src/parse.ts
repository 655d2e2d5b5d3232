import { billion, million, thousand, trillion, type Bytes, type Count } from './quantities.ts';

const SIZE_FACTORS: Record<string, number> = {
  b: 1, k: 1e3, kb: 1e3, m: 1e6, mb: 1e6, g: 1e9, gb: 1e9, t: 1e12, tb: 1e12, p: 1e15, pb: 1e15,
  kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40, pib: 2 ** 50,
};

/** Parses "64MB", "1 GiB", "8", "2.5e9" into bytes; undefined when the text is not a size. */
export function parseBytes(text: string): Bytes | undefined {
  const m = /^\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!m) return undefined;
  // An upper-case prefix with a lower-case b ("1Gb", "400Mb", "1Gib") is bits, as link speeds are written: not a size.
  if (/^[KMGTP]i?b$/.test(m[2] ?? '')) return undefined;
  const unit = (m[2] ?? '').toLowerCase();
  const factor = unit === '' ? 1 : SIZE_FACTORS[unit];
  return factor === undefined ? undefined : Number(m[1]) * factor;
}

const COUNT_FACTORS: Record<string, number> = { '': 1, k: 1e3, m: 1e6, b: 1e9, g: 1e9, t: 1e12 };

/** Decimal notation only: Number() also reads "0x10", "0b101" and "0o10", which a reader means as no number. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
/** Thousands grouped by commas ("1,536", "6,400,000.5"), as a count is often written; "1,5" is no such number. */
const GROUPED = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

/** The text without its thousands separators when they group it correctly; as it is otherwise. */
const ungrouped = (t: string): string => (GROUPED.test(t) ? t.replaceAll(',', '') : t);

/**
 * Parses a decimal number ("2.5", "-5", "1e-3", "1,536"; surrounding space allowed); undefined for
 * anything else, hex, "" and a misplaced comma ("1,5") included.
 */
export function parseDecimal(text: string): number | undefined {
  const t = ungrouped(text.trim());
  return DECIMAL.test(t) ? Number(t) : undefined;
}

/** k in a length in tokens: 1,024, as a context window is counted (Llama 2's "4k context" is 4,096 tokens); M is 1,024 k. */
const TOKENS_PER_K = 1024;

/**
 * A length in tokens with a k or M after it, as context lengths are named in powers of two: "8k" is 8,192, "128k"
 * 131,072 and "1M" 1,048,576 (the chat bot reads "8k context" so, packages/ask lexicon/numbers.ts), not the 8,000 and
 * 1,000,000 a count's k and M make (parseCount). Undefined for anything else, a plain number included: the caller
 * reads that as it reads numbers (the CLI's --seq-length and --prompt, the widget's length fields).
 */
export function parseTokenLength(text: string): number | undefined {
  const scaled = /^\s*(-?\d+(?:\.\d+)?)\s*([km])\s*$/i.exec(text);
  return scaled ? Number(scaled[1]) * TOKENS_PER_K ** (scaled[2]!.toLowerCase() === 'k' ? 1 : 2) : undefined;
}

/** Parses "300B", "2T", "1.5e12", "15 trillion", "6,400,000" into a plain count; undefined otherwise. */
export function parseCount(text: string): Count | undefined {
  const words: Record<string, string> = { thousand: 'k', million: 'm', billion: 'b', trillion: 't' };
  const m = /^\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|[0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!m) return undefined;
  let unit = (m[2] ?? '').toLowerCase();
  unit = words[unit] ?? unit;
  const factor = COUNT_FACTORS[unit];
  return factor === undefined ? undefined : Number(ungrouped(m[1]!)) * factor;
}

const EXACT_SUFFIXES: readonly (readonly [string, number])[] = [['T', trillion(1)], ['B', billion(1)], ['M', million(1)], ['k', thousand(1)]];

/**
 * A count as a reader writes it (2T, 1.5T, 300B, 7M), exactly: parseCount reads it back to the same
 * number; a plain number where no suffix says it in under 1000 with three decimals or fewer.
 */
export function formatCountExact(n: Count): string {
  for (const [suffix, factor] of EXACT_SUFFIXES) {
    const q = n / factor;
    if (q < 1 || (q >= 1000 && suffix !== 'T')) continue;
    const text = `${q}${suffix}`;
    if (/^\d+(\.\d{1,3})?[A-Za-z]$/.test(text) && parseCount(text) === n) return text;
  }
  return String(n);
}
