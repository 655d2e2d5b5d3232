/**
 * Numbers written with a power of ten ("1.5e12", "1e-9", "3x10^11", "10^12"), as the plain digits the count, length and
 * deadline patterns read, and the numbers no double holds, which no pattern may read as another.
 */

/** "3x10^11", "3 × 10^11", "3*10**11", "10^12": a mantissa (group 1, "1" when none) and an exponent (group 2). */
const TIMES_TEN_TO = /(?<![\w.])(?:(\d+(?:\.\d+)?)\s*[x*\u00d7]\s*)?10\s*(?:\^|\*\*)\s*([+-]?\d+)(?![\d.])/g;
/** "1.5e+12", "1e-9", "1e308": a mantissa (group 1) and an exponent (group 2) of any length, signed or not. */
const E_NOTATION = /(?<![\w.])(\d+(?:\.\d+)?)e([+-]?\d+)(?![\d.])/g;

/**
 * The digits of `mantissa` × 10^`exponent`, the point moved in the digits written, never through a double (whose 1e308 is
 * 1000…01097… in full and whose 1e-30 toLocaleString cuts to "0"): ("1.5", 3) → "1500", ("1", -9) → "0.000000001".
 */
export function shiftedPoint(mantissa: string, exponent: number): string {
  const [whole = '', fraction = ''] = mantissa.split('.');
  const digits = `${whole}${fraction}`;
  const point = whole.length + exponent;
  const placed = point <= 0 ? `0.${'0'.repeat(-point)}${digits}`
    : point >= digits.length ? `${digits}${'0'.repeat(point - digits.length)}`
    : `${digits.slice(0, point)}.${digits.slice(point)}`;
  // No zeros before the whole part ("0015") or after the fraction ("0.0250"), nor a point left alone.
  return placed.replace(/^0+(?=\d)/, '').replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** Whether a number written, digits or a power of ten, reads as no double: past 1.8e308 (Infinity), or so near 0 that it reads 0. */
export const pastDouble = (written: string): boolean => {
  const value = Number(written);
  return !Number.isFinite(value) || (value === 0 && /[1-9]/.test(written.split('e')[0] ?? ''));
};

/** A power of ten in digits, where a double holds its value (pastDouble); else as written, for unreadableNumbers to say. */
const inDigits = (written: string, mantissa: string, exponent: string): string =>
  (pastDouble(`${mantissa}e${exponent}`) ? written : shiftedPoint(mantissa, Number(exponent)));

/**
 * Powers of ten as plain digits (lower-case text): "3x10^11" and "1.5e+12" alike, a negative exponent too ("in 1e-9 days"
 * is 0.000000001 days; QA: read as 9 days, and "1e-3 days" as 3, the exponent's sign and its digits past two left to be
 * read apart). One past a double ("1e400", "1e-400") is left as written: unreadableNumbers says it.
 */
export const powersOfTen = (text: string): string => text
  .replace(TIMES_TEN_TO, (m, mantissa: string | undefined, exponent: string) => inDigits(m, mantissa ?? '1', exponent))
  .replace(E_NOTATION, (m, mantissa: string, exponent: string) => inDigits(m, mantissa, exponent));

/**
 * A number alone in the normalised text, in digits or a power of ten that powersOfTen left (group 1 as written), and any
 * letters glued on (group 2: a scale, "…999b" a model's size, "…999k" a count).
 */
const WRITTEN_NUMBER = /(?<![\w.])((?:\d+(?:\.\d+)?\s*[x*]\s*)?10\s*(?:\^|\*\*)\s*[+-]?\d+|\d+(?:\.\d+)?(?:e[+-]?\d+)?)([a-z]*)(?![\w.])/g;
/** "3x10^400" and "10^400" as "3e400" and "1e400", for Number to read. */
const asENotation = (written: string): string => written.replace(/^(?:(\d+(?:\.\d+)?)\s*[x*]\s*)?10\s*(?:\^|\*\*)\s*/, (_m, mantissa: string | undefined) => `${mantissa ?? '1'}e`);
/**
 * What a cluster's count stands before: a GPU's name, GPUs, nodes, a scale's word or an "x" between ("400 nines H100s"). Those
 * digits are left for takeCounts, whose count past the cluster caps is refused with the caps (answer/whole-counts.ts). Not
 * GPU-hours or node-hours ("… h100 hours", "… gpu-hours"): a budget, refused here as any other number.
 */
const BEFORE_CLUSTER_NOUN = /^(?:\s?thousand|\s?million)?\s*(?:x\s*)?(?:[a-z]{1,3}\d{2,4}[a-z]*(?:-[a-z\d]+)*|gpus?|nodes?|machines?|servers?|hosts?|dgx\w*)(?![\w-])(?!\s*(?:gpu[\s-]*)?(?:hours?|hrs?|h)\b)/;
/** "NaN" and "Infinity" where a number stands: before a cluster's noun, a unit of time or tokens. */
const NOT_A_NUMBER = /(?<![\w.-])(?:nan|infinity)(?=\s*(?:x\s*)?(?:[a-z]{1,3}\d{2,4}[a-z]*|gpus?|nodes?|machines?|servers?|tokens?|steps?|sequences?|minutes?|hours?|days?|weeks?|months?|years?)\b)/g;

/** A number no reader may take: `index` and `length` where it stands in the text, and why. */
export interface UnreadableNumber {
  index: number;
  length: number;
  written: string;
  /** Past a double's largest (about 1.8e308), nearer 0 than its smallest (about 5e-324), or a word that names no number. */
  why: 'too large' | 'too small' | 'not a number';
}

/**
 * Numbers no double holds ("1e400", "1e-400", 400 nines: past 1.8e308, or so near 0 they read 0) and "NaN" or "Infinity" where
 * a number stands, in the normalised text: each is said, never read as another number ("1e-400 days" as 400 days, 400 nines
 * as Infinity days). A count before a cluster's noun in digits is takeCounts' (BEFORE_CLUSTER_NOUN).
 */
export function unreadableNumbers(text: string): UnreadableNumber[] {
  const past = [...text.matchAll(WRITTEN_NUMBER)].filter((m) => {
    const [, written = '', glued = ''] = m;
    const count = /^[\d.]+$/.test(written) && /^[km]?$/.test(glued) && BEFORE_CLUSTER_NOUN.test(text.slice(m.index + m[0].length));
    return pastDouble(asENotation(written)) && !count;
  }).map((m): UnreadableNumber => ({ index: m.index, length: m[0].length, written: m[0], why: Number(asENotation(m[1] ?? '')) === 0 ? 'too small' : 'too large' }));
  const words = [...text.matchAll(NOT_A_NUMBER)].map((m): UnreadableNumber => ({ index: m.index, length: m[0].length, written: m[0], why: 'not a number' }));
  return [...past, ...words];
}
