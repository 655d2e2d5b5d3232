import { million, parseCount, thousand } from '@trainplan/units';
import { powersOfTen } from './powers-of-ten.ts';

/**
 * The pieces numbers are written with, shared by the count patterns (tokens, GPU-hours: quantities.ts; batches:
 * parallel-sizes.ts; cluster sizes: counts.ts), the money patterns (prices, budgets: price.ts) and model sizes (models.ts), so that
 * each reads "2.5", "1.5M" and "2 million" as the others do.
 */

/** A decimal without sign or exponent: "2", "2.5". Not a group: a pattern captures it where it needs it. */
export const DECIMAL = String.raw`\d+(?:\.\d+)?`;
/** A decimal that may start at its point, as a fraction or a price is written: ".5", "$.50". Not a group either. */
export const POINT_DECIMAL = String.raw`(?:${DECIMAL}|\.\d+)`;

/** The word for each scale letter units' parseCount reads ("2T" = "2 trillion"). */
const SCALE_WORDS = { k: 'thousand', m: 'million', b: 'billion', t: 'trillion' } as const;

/** Alternatives for the scales given, letters first then words ("k|m|thousand|million"), as parseCount reads them. */
const scales = (...letters: (keyof typeof SCALE_WORDS)[]): string => [...letters, ...letters.map((l) => SCALE_WORDS[l])].join('|');

/** A count's scales: "4k", "2T tokens", "300 billion tokens", "1.7M GPU-hours". */
export const COUNT_SCALE = scales('k', 'm', 'b', 't');
/** A sum of money's: "$500k", "2 million dollars"; no trillions, which no training budget runs to. */
export const MONEY_SCALE = scales('k', 'm', 'b');
/** A model size's: "350M", "70B", "1T" (never thousands: "4k" is a context or a count, no model). */
export const SIZE_SCALE = scales('m', 'b', 't');

/** A count as two groups, its number and its optional scale ("1.7", "m"): read with scaledCount. */
export const SCALED_COUNT = String.raw`(${DECIMAL})\s*(${COUNT_SCALE})?`;

/** A count read from its number and scale groups ("1.7" and "m": 1.7 million), by units' parseCount. */
export const scaledCount = (number: string | undefined, scale: string | undefined): number | undefined =>
  parseCount(`${number}${scale ?? ''}`);

/** A count of GPUs, nodes or prompt tokens, as two groups: its number and a "k" ("16k", "2k"), whose size the reader decides (writtenCount, tokenLength). */
export const KILO_NUMBER = String.raw`(${DECIMAL})(k?)`;

/**
 * A cluster's count of GPUs or nodes, as two groups: its number and its scale, a letter against it or a word after it
 * ("16k", "1M", "2 million", "1b", "2T"), read with writtenCount. QA: "1M H100s" was dropped unsaid and 128 nodes planned,
 * where "1,000,000 H100s" was read; "1b H100s" was a token budget (lexicon/compared-models.ts COUNTS_MACHINES). Past a
 * million, refused by the protocol's cluster caps (answer/whole-counts.ts).
 */
export const CLUSTER_NUMBER = String.raw`(${DECIMAL})(k|m|b|t|\s?thousand|\s?million|\s?billion|\s?trillion)?`;

/**
 * k in a length in tokens: 1024 ("8k context" = 8,192, as Llama 2's 4k is 4,096; context lengths are powers of two named in k).
 * Counts of GPUs, nodes, batches and parallel sizes take k as a thousand (COUNT_KILO), as rates and money do (SCALED_COUNT).
 */
export const KILO_COUNT = 1024;

/**
 * k in a count of GPUs, nodes, sequences or ranks: a thousand, as the CLI reads "--gpus 1k" (units' parseCount) and rates and
 * money read it. QA: "100k H100" was 102,400 GPUs here and 100,000 in the CLI. Meta's "16K H100s" (16,384) is the exception a
 * question gives in digits; the answer says how k was read (parse.ts).
 */
export const COUNT_KILO = 1000;

/** A KILO_NUMBER's two groups as a whole length in tokens: "8" and "k" → 8,192; "1.5" and "k" → 1,536. */
const kiloCount = (number: string | undefined, k: string | undefined): number => Math.round(Number(number) * (k === 'k' ? KILO_COUNT : 1));

/**
 * A KILO_NUMBER's (or CLUSTER_NUMBER's) two groups as a count written: with a scale, a whole count of thousands or millions
 * read by units' parseCount as scaledCount reads it ("1.5k" → 1,500, "1m" → 1,000,000, "2 million"); without, the number
 * itself, a fraction kept ("1.5 nodes", "dp 2.5"), so that a count that must be whole is refused as asked
 * (answer/whole-counts.ts), never rounded or cut to its digits unsaid.
 */
export function writtenCount(number: string | undefined, scale: string | undefined): number {
  const said = scale?.trim();
  return said ? Math.round(scaledCount(number, said) ?? Number.NaN) : Number(number);
}

/**
 * M in a length in tokens: KILO_COUNT × KILO_COUNT = 1,048,576 (2^20), as k is 1,024 there: context lengths are powers
 * of two named in k and M (4k, 128k, 1M), so a "1M context" doubles a 512k one. Spelt out, "million" is a million.
 */
const MEGA_LENGTH = KILO_COUNT * KILO_COUNT;

/**
 * A length in tokens (a prompt, an output, a context, a sequence) as two groups: its number and its scale, "k" read
 * as KILO_COUNT ("8k context" = 8,192) and "m" as MEGA_LENGTH ("1M context" = 1,048,576), as a context length is
 * named; "thousand" and "million" spelt out are a thousand and a million. The protocol bounds a length at 10,000,000
 * tokens, so "10M" (10,485,760) is past it and refused in words. An exponent is read ("2e6"); a number is read whole or
 * not at all ("1.2b" is no "1").
 */
export const TOKEN_LENGTH = String.raw`(${DECIMAL}(?:e\d+)?)(?![.\d])\s?(k|m|million|thousand)?`;

/** A TOKEN_LENGTH's two groups as whole tokens: "2" and "k" → 2,048; "1.5" and "m" → 1,572,864; "1.5" and "million" → 1,500,000. */
export function tokenLength(number: string | undefined, scale: string | undefined): number {
  const n = Number(number);
  if (scale === 'm') return Math.round(n * MEGA_LENGTH);
  if (scale === 'million') return Math.round(million(n));
  if (scale === 'thousand') return Math.round(thousand(n));
  return kiloCount(number, scale);
}

/** Number words a question may spell out ("two weeks", "one node", "two trillion tokens"). */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
};
export const NUMBER_WORD = Object.keys(NUMBER_WORDS).join('|');

const SCALE_WORD = Object.values(SCALE_WORDS).join('|');

/** Units and teens of a compound number ("sixty-four", "one hundred sixteen"): one to nineteen. */
const BELOW_TWENTY: Readonly<Record<string, number>> = {
  ...NUMBER_WORDS, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
/** Tens of a compound number: "twenty" to "ninety", a unit after them optional ("sixty", "sixty-four", "sixty four"). */
const TENS: Readonly<Record<string, number>> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const COMPOUND_WORD = String.raw`(?:${[...Object.keys(BELOW_TWENTY), ...Object.keys(TENS), 'hundred', 'thousand'].join('|')})`;
/**
 * A run of number words, joined by spaces or hyphens, "and" only after "hundred" or "thousand" ("one hundred and
 * twenty-eight"; "sixteen and thirty-two" is two numbers), led by "a" before a scale ("a hundred", "a thousand"; never
 * "half a thousand", which spelledScales reads). Whole words only: "sixteen-bit" is "16-bit", "thousands" no number.
 */
const NUMBER_RUN = new RegExp(
  String.raw`(?<![\w-])(?:(?<!half\s)a\s+(?=(?:hundred|thousand)\b))?${COMPOUND_WORD}(?:(?:\s*-\s*|\s+|(?<=hundred|thousand)\s+and\s+)${COMPOUND_WORD})*(?![\w])`,
  'g',
);

/** A number below 100 from `words` at `at`: a unit or teen ("sixteen"), or tens and an optional unit ("sixty", "sixty four"). */
function belowHundred(words: readonly string[], at: number): { value: number; next: number } | undefined {
  const word = words[at] ?? '';
  if (BELOW_TWENTY[word] !== undefined) return { value: BELOW_TWENTY[word], next: at + 1 };
  const tens = TENS[word];
  if (tens === undefined) return undefined;
  const unit = NUMBER_WORDS[words[at + 1] ?? ''];
  return unit !== undefined && unit < 10 ? { value: tens + unit, next: at + 2 } : { value: tens, next: at + 1 };
}

/** A number below 1,000 from `words` at `at`: [below-100 "hundred" ["and"]] [below-100] ("one hundred twenty-eight", "fifteen hundred", "forty"). */
function belowThousand(words: readonly string[], at: number): { value: number; next: number } | undefined {
  const first = words[at] === 'a' ? { value: 1, next: at + 1 } : belowHundred(words, at);
  if (first === undefined) return undefined;
  // "a" is one only before a scale: "a hundred", "a thousand".
  if (words[first.next] !== 'hundred') return words[at] === 'a' && words[first.next] !== 'thousand' ? undefined : first;
  let next = first.next + 1;
  if (words[next] === 'and') next += 1;
  const rest = belowHundred(words, next);
  // "and" must lead to a number: "one hundred and" is no number ("and" is joined only before one, NUMBER_RUN).
  if (rest === undefined) return words[next - 1] === 'and' ? undefined : { value: first.value * 100, next };
  return { value: first.value * 100 + rest.value, next: rest.next };
}

/**
 * A run of number words as one whole number, or undefined when the run is not one ("two four", "one eighty", "hundred"
 * alone): [below-1,000 "thousand" ["and"]] [below-1,000], every word used. English's grammar of cardinals (Quirk et al.
 * 1985, §6.63): "two thousand forty-eight" = 2 × 1,000 + 48; "twenty-five hundred" = 25 × 100.
 */
function compoundNumber(run: string): number | undefined {
  const words = run.split(/\s*-\s*|\s+/);
  const head = belowThousand(words, 0);
  if (head === undefined) return undefined;
  let { value, next } = head;
  if (words[next] === 'thousand') {
    value *= 1000;
    next += 1;
    if (words[next] === 'and') next += 1;
    const tail = next < words.length ? belowThousand(words, next) : undefined;
    if (tail !== undefined) ({ value, next } = { value: value + tail.value, next: tail.next });
  }
  return next === words.length ? value : undefined;
}

/**
 * Compound numbers spelt out, in digits (normalised, lower-case text): "sixty-four" and "sixty four" (64), "sixteen", "one
 * hundred twenty-eight" (128), "two thousand forty-eight" (2,048), "a thousand" (1,000). QA: "on sixty-four h100" planned 4
 * GPUs, its last word read alone; "two thousand h100" was not read. A run that is no one number is left as written, whole,
 * so it is said not read, never read in part; a lone one to twelve too, which the count and duration patterns read as words.
 */
export const spelledNumbers = (text: string): string => text.replace(NUMBER_RUN, (run: string) => {
  if (NUMBER_WORDS[run] !== undefined) return run;
  const value = compoundNumber(run.replace(/^a\s+/, 'a '));
  return value === undefined ? run : String(value);
});

/**
 * Number-word runs spelledNumbers left as written for being no one number ("one eighty four", "hundred"), with a word
 * past one to twelve in them: each is said not read (unread-numbers.ts), as a number in digits no pattern takes is.
 */
export const unreadNumberWords = (text: string): string[] =>
  [...text.matchAll(NUMBER_RUN)].map((m) => m[0]).filter((run) => run.split(/\s*-\s*|\s+/).some((w) => w !== 'and' && NUMBER_WORDS[w] === undefined));

/**
 * One to twelve spelt out as a word of its own (NUMBER_WORD), never the end or the start of a run of number words that is
 * no one number: "four" in "one eighty four h100" is no 4 GPUs (spelledNumbers left that run whole, to be said not read).
 */
export const LONE_NUMBER_WORD = String.raw`(?<!(?:${COMPOUND_WORD}|(?:hundred|thousand)\s+and)[\s-]+)(?:${NUMBER_WORD})(?![\s-]+${COMPOUND_WORD}\b)`;

/**
 * Counts spelt as people write them, in digits the count patterns read (normalised, lower-case text): compound numbers
 * (spelledNumbers: "sixty-four", "two thousand"), "two trillion" and "a trillion" ("2 trillion", "1 trillion"), "half a
 * trillion" ("0.5 trillion"), "300bn" and "15tn" ("300b", "15t").
 */
export const spelledScales = (text: string): string => spelledNumbers(text)
  .replace(new RegExp(String.raw`\bhalf\s+an?\s+(${SCALE_WORD})\b`, 'g'), '0.5 $1')
  .replace(new RegExp(String.raw`\b(${LONE_NUMBER_WORD}|an?)\s+(${SCALE_WORD})\b`, 'g'), (_m, word: string, scale: string) => `${NUMBER_WORDS[word] ?? 1} ${scale}`)
  .replace(/(\d)\s*bn\b/g, '$1b')
  .replace(/(\d)\s*tn\b/g, '$1t');

/** A space, no-break space, narrow no-break space or thin space between digit groups ("1 000", "1 000" as SI and French write them). */
const SPACE_GROUP = String.raw`[ \u00a0\u202f\u2009]`;
/** Words whose number is a version or a stage, never a count's first digits: "llama 3 405 on 16 nodes", "zero 3 512 GPUs". */
const NAME_WORDS = String.raw`zero|stage|llama|qwen|gemma|mistral|mixtral|phi|gpt|falcon|bloom|opt|deepseek|v|x`;
/** Parallel and batch sizes' words: "tp 8 512 GPUs" is TP 8 on 512 GPUs, but "gbs 1 536, tp 8" a global batch of 1,536. */
const DEGREE_WORDS = String.raw`tp|pp|cp|dp|ep|vp|vpp|mbs|gbs`;
/** Words after which a number is a size or a version, never a decimal comma's ("tp 2,4", "llama 3,70b"). */
const SIZE_WORDS = `${DEGREE_WORDS}|${NAME_WORDS}`;
const AFTER_NAME_WORD = new RegExp(String.raw`(?:^|[^\w])(?:${NAME_WORDS})[\s-]?$`);
const AFTER_DEGREE_WORD = new RegExp(String.raw`(?:^|[^\w])(?:${DEGREE_WORDS})\s?$`);
/** A cluster's count next: GPUs, nodes or a GPU's name ("512 GPUs", "128 nodes", "2 048 h100", "16 dgx"). */
const CLUSTER_NEXT = /^\s*(?:gpus?|nodes?|machines?|servers?|hosts?|[a-z]{1,3}\d{2,4}|dgx)/;
/** Another count next: tokens, sequences, steps, a scale's word ("2 048 tokens", "1 536 sequences"). */
const OTHER_COUNT_NEXT = /^\s*(?:tokens?|toks?|sequences?|seqs?|steps?|(?:thousand|million|billion|trillion)\b)/;
/** A number ending as a word does: before a space, a sentence's punctuation or the end; not "405b", "128-gpu" or "100gb". */
const WORD_END_NEXT = /^(?:\s|[,;.?!)]|$)/;
/** A group of 1 to 3 digits, a space, then exactly 3 digits, alone: no letter, digit, decimal or further group beside it. */
const LONE_SPACED_GROUP = new RegExp(String.raw`(?<![\w.,]|[\d.,]${SPACE_GROUP})(\d{1,3})${SPACE_GROUP}(\d{3})(?!\d|[.,]\d|${SPACE_GROUP}\d)`, 'g');

/**
 * Whether a lone spaced group ("1 024") is one number, by the text before and after it: never after a name's word
 * ("llama 3 405 on 16 nodes"); after a parallel or batch size's word, unless a cluster's count follows ("tp 8 512 GPUs"
 * is TP 8 on 512 GPUs, "gbs 1 536, tp 8" a batch of 1,536); else wherever it ends as a word ("global batch 1 024 on 64 h100").
 */
function oneSpacedNumber(before: string, after: string, groups: readonly string[]): boolean {
  if (AFTER_NAME_WORD.test(before)) return false;
  if (listedSizes(groups, after)) return false;
  const ends = CLUSTER_NEXT.test(after) || OTHER_COUNT_NEXT.test(after) || WORD_END_NEXT.test(after);
  return AFTER_DEGREE_WORD.test(before) ? ends && !CLUSTER_NEXT.test(after) : ends;
}

/**
 * Spaced numbers before a cluster's count that are sizes listed, not one number's digit groups: "on 64 128 nodes", "8 16 32
 * … 1024 GPUs" (QA: "64 128 nodes" was read as 64,128 nodes, unsaid). Each a power-of-two multiple (2, 4 or 8) of the one
 * before, as cluster sizes are listed; "16 384 GPUs" (24×) and "2 048" (a group led by 0) stay one number.
 */
function listedSizes(groups: readonly string[], after: string): boolean {
  if (!CLUSTER_NEXT.test(after) || groups.length < 2) return false;
  return groups.every((g, i) => {
    if (i === 0) return true;
    const ratio = Number(g) / Number(groups[i - 1]);
    return !g.startsWith('0') && (ratio === 2 || ratio === 4 || ratio === 8);
  });
}

/** What a decimal comma's number may be followed by for it to be read as a decimal: a duration, a scale, tokens, a time, a size, money or a share. */
const DECIMAL_COMMA_UNIT = String.raw`(?:(?:hours?|hrs?|h|days?|d|weeks?|wks?|w|months?|mo|years?|t|b|m|k|thousand|million|billion|trillion|tokens?|toks?|ms|s|sec(?:ond)?s?|[kmgtp]i?b|bytes?|percent)\b|[$€£%])`;

/**
 * A decimal comma, as most of Europe writes a decimal, as a point: "2,5 days", "1,5T tokens", "$2,50/GPU-hour" (lower-case
 * text). Only where it cannot be anything else: one or two digits after the comma, then a unit (or a currency sign before),
 * and not after a size's word; so thousands ("1,536", "1,000,000", three digits), lists ("tp 2,4,8", "2,4 or 8") and a
 * model's version beside its size ("llama 3,70b") keep their commas.
 */
export function decimalCommas(text: string): string {
  const notAfterSize = String.raw`(?<!(?:^|[^\w])(?:${SIZE_WORDS})\s?)`;
  return text
    .replace(new RegExp(String.raw`${notAfterSize}(?<![\d.,])(\d+),(\d{1,2})(?![\d,])(?=\s*${DECIMAL_COMMA_UNIT})`, 'g'), '$1.$2')
    .replace(/([$€£]\s?\d+),(\d{1,2})(?![\d,])/g, '$1.$2');
}

/**
 * Numbers written as people write them, as plain digits the count patterns read (lower-case text):
 * - digit groups by underscore ("1_000_000", as code writes them), apostrophe ("1'024", Swiss), dots when
 *   there are two and more ("1.000.000", German; one "1.000" stays a decimal), or spaces ("1 000 000", SI):
 *   two groups and more always; one ("1 024 GPUs", "global batch 1 024 on 64 h100") where it ends as a word
 *   and no name or cluster count makes it two (oneSpacedNumber), so "llama 3 405b" and "tp 8 512 GPUs" stay two numbers;
 * - powers of ten: "1.5e+12", "3x10^11", "3*10**11", "10^12", "1e3 GPUs", "1e-9 days" (powers-of-ten.ts).
 * A comma between thousands is dropped by parse.ts' normalize.
 */
export function writtenNumbers(text: string): string {
  const grouped = text
    .replace(/(\d)_(?=\d{3}(?!\d))/g, '$1')
    .replace(/(\d)['’](?=\d{3}(?!\d))/g, '$1')
    .replace(/(?<![\d.,])\d{1,3}(?:\.\d{3}){2,}(?![\d.,])/g, (m) => m.replace(/\./g, ''))
    .replace(new RegExp(String.raw`(?<![\d.,])\d{1,3}(?:${SPACE_GROUP}\d{3}){2,}(?!\d|[.,]\d|${SPACE_GROUP}\d)`, 'g'), (m, at: number, whole: string) =>
      (listedSizes(m.split(/\D+/), whole.slice(at + m.length)) ? m : m.replace(/\D/g, '')))
    .replace(LONE_SPACED_GROUP, (m, first: string, group: string, at: number, whole: string) =>
      (oneSpacedNumber(whole.slice(0, at), whole.slice(at + m.length), [first, group]) ? `${first}${group}` : m));
  return powersOfTen(grouped);
}
