import { countOf } from '@trainplan/units';
import { statedMoney } from '../format.ts';
import { MONEY_SCALE, POINT_DECIMAL, scaledCount } from './numbers.ts';
import { HW_TOKEN, type Scanner } from './quantities.ts';
import type { NotRead } from '../question.ts';

/**
 * A price the question states: "at $2/GPU-hour", "$2.50 per GPU hour", "2.5 USD per gpu-hour",
 * "3 dollars an hour per GPU", "€1.8/GPU-h", "$2/H100-hour"; "$98 per node-hour" is a node's price, over its
 * GPUs. Never a budget ("$2M budget": no "per … hour" follows) nor a GPU-hour budget ("1.7M GPU-hours").
 */
export interface PriceReading {
  value: number;
  /** "$", "€" or "£"; undefined when the question gave a number alone ("2 per GPU-hour"). */
  currency?: string;
  per: 'gpu-hour' | 'node-hour' | 'hour';
  /** The node an hour's price was said of ("p4d.24xlarge" in "128 p4d nodes at $32.77/hr"), read as its node-hour. */
  of?: string;
  /** Other prices the question gave, as normalised ("$20 an hour"), each with what it priced: taken out of the text, said not read. */
  others?: { phrase: string; per: PriceReading['per'] }[];
  /**
   * Every price the question gave, in the order written, where it gave more than one: GPUs compared take one each, in
   * the order they are named ("A100 at $1.5/hr or H100 at $2.5/hr"), as each takes the size written beside it (parse.ts).
   */
  each?: (Omit<PriceReading, 'others' | 'each'> & { phrase: string })[];
}

/** A price per GPU-hour, with how it was read when the question priced something else (a node, an hour). */
export type StatedPrice = { ok: true; perGpuHour: number; currency?: string; assumed?: string } | { ok: false; problem: string };

/**
 * The most a GPU-hour may cost: cloud list prices are a few dollars (an H100 about $2 to $10), so a thousand
 * is two orders of magnitude above any, and a larger number is a typo or a price per something else.
 */
const MAX_PRICE_PER_GPU_HOUR = 1000;
/**
 * Above this, an hourly price said of no unit ("128 H100 nodes at $98/hr") is a node's, not a GPU's: the dearest
 * on-demand GPU-hour listed is about $12 (AWS p5.48xlarge, 8 × H100, $98.32 an hour on demand in 2024,
 * https://aws.amazon.com/ec2/instance-types/p5/), so $20 an hour leaves room for any GPU's and is under any 8-GPU node's.
 */
const MOST_PER_GPU_HOUR_WRITTEN = 20;

const SIGNS: Readonly<Record<string, string>> = {
  '$': '$', 'us$': '$', usd: '$', dollar: '$', dollars: '$', buck: '$', bucks: '$', cent: '$', cents: '$',
  '€': '€', eur: '€', euro: '€', euros: '€', '£': '£', gbp: '£', pound: '£', pounds: '£',
};
/** A currency written before the amount: "$2", "US$2", "€1.80", "usd 2". */
const SIGN = String.raw`(us\$|[$€£]|usd|eur|gbp)`;
/**
 * A minus sign before a price, before its currency or its digits ("at -$2/GPU-hour", "$-2/GPU-hour"): kept, so that the price is
 * refused as below 0 as the CLI and the API refuse it, never read as $2 (QA). Not a hyphen after a word or a number ("$2-$3",
 * a range, prices its second end as before).
 */
const MINUS = String.raw`(?:(?<![\w.$€£])-\s*)`;
const BEFORE = String.raw`${MINUS}?${SIGN}?\s*`;
/** An amount of money may start at its point: "$.50". */
const NUMBER = String.raw`(${POINT_DECIMAL})`;
const SIGNED_NUMBER = String.raw`((?:(?<=[$€£]\s*)-\s*)?${POINT_DECIMAL})`;
/** A currency written after the amount: "2.5 USD", "3 dollars", "2.5 $", "2.5$" (as much of Europe writes "2,50 €"). */
const AFTER = String.raw`(?:\s*((?:usd|eur|gbp|dollars?|bucks?|euros?|pounds?|cents?)\b|[$€£]))?`;
const PER = String.raw`\s*(?:\/|per|an?|each|every)\s*`;
const HOUR = String.raw`(?:hours?|hrs?|h)\b`;
const GPU = String.raw`(?:gpus?|${HW_TOKEN}(?:[\s-]*gpus?)?)`;
const NODE = String.raw`(?:nodes?|servers?|machines?|boxes|instances?|vms?)`;
// One GPU's hour ("GPU-hour", "GPU per hour", "hour per GPU"), one node's, or an hour of no named unit.
const of = (unit: string): string => String.raw`${unit}[\s-]*${HOUR}|${unit}\s*(?:\/|per|an?|each)\s*${HOUR}|${HOUR}\s*(?:\/|per|for\s+(?:each|one|a)|each|a)\s*${unit}\b`;
const PRICE = new RegExp(String.raw`${BEFORE}${SIGNED_NUMBER}${AFTER}${PER}(?:(${of(GPU)})|(${of(NODE)})|(${HOUR}))`, 'g');

/** Formats a price as asked: "$2", "$2.50", "€1.80", "2.5" (no currency given). */
export const priceText = (value: number, currency: string | undefined): string =>
  `${value < 0 ? '-' : ''}${currency ?? ''}${Number.isInteger(value) ? Math.abs(value) : Math.abs(value).toFixed(2)}`;

/**
 * The stated price, taken out of the text (resolvePrice makes it per GPU-hour once the node is known). A
 * bare number needs a named GPU or node hour ("2 per GPU-hour"); "per hour" of no unit needs a currency
 * ("$2 an hour").
 */
export function takePrice(s: Scanner): PriceReading | undefined {
  const found = [...s.text.matchAll(PRICE)].map(priceOf).filter((p) => p !== undefined);
  // A price that names its unit wins over an hour of no unit: "for $20 an hour at $2/GPU-hour" is $2 a GPU-hour (QA: the
  // first, "$20 an hour", was planned as a GPU's and "$2/GPU-hour" dropped unsaid). Of two alike, the first.
  const taken = found.find((p) => p.reading.per !== 'hour') ?? found[0];
  if (taken === undefined) return undefined;
  // Every price is taken out of the text ("for $20" is never then a budget), and those not planned said not read.
  for (const p of found) s.blank(p.at);
  const others = found.filter((p) => p !== taken).map((p) => ({ phrase: p.phrase, per: p.reading.per }));
  return { ...taken.reading, ...(others.length > 0 && { others, each: found.map((p) => ({ ...p.reading, phrase: p.phrase })) }) };
}

/** A price match read: its reading, where it stands and its words; undefined for an hour of no unit and no currency ("2 per hour"). */
function priceOf(m: RegExpMatchArray): { reading: PriceReading; at: { index: number; length: number }; phrase: string } | undefined {
  const sign = m[1] ?? m[3];
  const per = m[4] !== undefined ? 'gpu-hour' : m[5] !== undefined ? 'node-hour' : 'hour';
  if (sign === undefined && per === 'hour') return undefined;
  const currency = sign === undefined ? undefined : SIGNS[sign];
  const digits = (m[2] ?? '').replace(/[\s-]+/g, '');
  const negative = m[0].trimStart().startsWith('-') || (m[2] ?? '').startsWith('-');
  const value = (negative ? -1 : 1) * Number(digits) / (sign?.startsWith('cent') === true ? 100 : 1);
  return { reading: { value, per, ...(currency !== undefined && { currency }) }, at: { index: m.index ?? 0, length: m[0].length }, phrase: m[0].trim() };
}

/**
 * A price per GPU-hour: a node's over its GPUs, an hour of no named unit read as one GPU's (said so);
 * zero, or more than MAX_PRICE_PER_GPU_HOUR, is a problem naming the price.
 */
export function resolvePrice(stated: PriceReading, gpusPerNode: number): StatedPrice {
  // An hour of no unit priced above any GPU-hour, on nodes of several GPUs: a node's hour (said so below).
  const nodeByValue = stated.per === 'hour' && gpusPerNode > 1 && stated.value > MOST_PER_GPU_HOUR_WRITTEN;
  const r: PriceReading = nodeByValue ? { ...stated, per: 'node-hour' } : stated;
  const written = priceText(r.value, r.currency);
  const perGpuHour = r.per === 'node-hour' ? r.value / gpusPerNode : r.value;
  const unit = r.per === 'node-hour' ? 'node-hour' : 'GPU-hour';
  if (!(perGpuHour > 0)) return { ok: false, problem: `a price of ${written} per ${unit} is out of range: give a price above 0 ("at $2/GPU-hour")` };
  if (perGpuHour > MAX_PRICE_PER_GPU_HOUR) {
    return { ok: false, problem: `a price of ${written} per ${unit} is out of range: at most ${MAX_PRICE_PER_GPU_HOUR.toLocaleString('en-US')} per GPU-hour (cloud prices are a few dollars)` };
  }
  const currency = r.currency === undefined ? {} : { currency: r.currency };
  if (r.per === 'gpu-hour') return { ok: true, perGpuHour, ...currency };
  const reading = r.of !== undefined
    ? `${written} an hour read as the price of one ${r.of}, a node-hour: ${priceText(perGpuHour, r.currency)} per GPU-hour over its ${countOf(gpusPerNode, 'GPU')} (say "per GPU-hour" for a GPU's price)`
    : nodeByValue
    ? `${written} an hour read as a node's (more than any GPU-hour lists at: about $12 for an on-demand H100): ${priceText(perGpuHour, r.currency)} per GPU-hour over its ${countOf(gpusPerNode, 'GPU')} (say "per GPU-hour" for a GPU's price)`
    : r.per === 'node-hour'
    ? `${written} per node-hour read as ${priceText(perGpuHour, r.currency)} per GPU-hour (over the node's ${countOf(gpusPerNode, 'GPU')})`
    : `${written} an hour read as per GPU-hour (say "per node-hour" for a node's price)`;
  return { ok: true, perGpuHour, ...currency, assumed: reading };
}

/** A phrase as normalised with the GPU's name marked ("$3/ HW -hour"), said with "GPU" for the name: "$3/GPU-hour". */
const unmarked = (phrase: string): string =>
  phrase.replace(new RegExp(String.raw`\s*\b${HW_TOKEN}\b\s*`, 'g'), ' GPU ').replace(/\/\s+/g, '/').replace(/\s+-/g, '-').replace(/\s+/g, ' ').trim();

/**
 * Prices given beside the one planned, each said not read (the answer's "Not read"), as the question typed it
 * (`asTyped`): "$20 an hour" beside "$2/GPU-hour" is perhaps the whole cluster's hourly spend, which nothing plans
 * against (a budget is a total: "a $2M budget").
 */
export function otherPricesNotRead(
  reading: PriceReading, perGpuHour: number, asTyped: (phrase: string) => string,
): NotRead[] {
  const planned = `${priceText(perGpuHour, reading.currency)} per GPU-hour is planned`;
  return (reading.others ?? []).map((o) => ({
    phrase: `"${asTyped(unmarked(o.phrase))}"`,
    why: `one price a question, and ${planned}${o.per === 'hour' ? ' (if an hourly spend for the whole cluster is meant, none is planned against: give a total budget, e.g. "a $2M budget")' : ''}`,
  }));
}

/** A sum as two groups, its number and its optional scale ("2", "m"): read with scaledCount. */
const SUM = String.raw`${NUMBER}\s*(${MONEY_SCALE})?`;
// A sign before ("$2M", "€500k") or a currency after ("2 million dollars", "500k eur", "500k €").
const AMOUNT = String.raw`(?:${SIGN}\s*${SUM}\b${AFTER}|${SUM}\s*((?:usd|eur|gbp|dollars|euros|pounds)\b|[$€£]))`;
// "a $2M budget", "budget of $2M", "with 2 million dollars", "spend at most €500k", "is $1M enough": money, never a token count.
// "I have $10M", "we've got $10M", "given $10M", "$10M to spend": the money a question owns is its budget too (QA: "I have $10M
// and H100s at $2/hour" left the $10M not read, and a 30-day deadline planned in its place).
const BUDGET = new RegExp(String.raw`\bbudget\s*(?:of|is|=|:)?\s*${AMOUNT}|\b(?:with|spend(?:ing)?|under|within|for|at most|up to|have|has|got|given)\s+(?:an?\s+)?${AMOUNT}(?:\s+budget\b)?|\b(?:an?\s+)?${AMOUNT}\s+budget\b|${AMOUNT}\s+(?:is\s+|be\s+)?enough\b|${AMOUNT}\s+to\s+spend\b`);

/** A budget in money ("$2M budget"), its currency sign when given; a price per GPU-hour turns it into GPU-hours. */
interface MoneyBudget {
  amount: number;
  currency?: string;
  /** The words it was read from, as the normalised text holds them ("budget 3m dollars"). */
  written: string;
}

/** The amount a match of AMOUNT holds, from its groups at `first` on; undefined where none of its places matched. */
function amountOf(m: RegExpExecArray, first: number): Omit<MoneyBudget, 'written'> | undefined {
  // Each place AMOUNT sits, with its seven groups: sign, number, scale, word after; number, scale, word.
  for (let at = first; at < m.length; at += 7) {
    const [sign, number, scale, after, bareNumber, bareScale, word] = m.slice(at, at + 7);
    const value = number ?? bareNumber;
    if (value === undefined) continue;
    const currency = SIGNS[sign ?? after ?? word ?? ''];
    const amount = scaledCount(value, scale ?? bareScale);
    if (amount === undefined) continue;
    return { amount, ...(currency !== undefined && { currency }) };
  }
  return undefined;
}

/** The money budget the question states, taken out of the text (after takePrice, whose "$2/GPU-hour" is no budget). */
export function takeMoneyBudget(s: Scanner): MoneyBudget | undefined {
  const m = BUDGET.exec(s.text);
  if (!m) return undefined;
  s.blank({ index: m.index, length: m[0].length });
  const amount = amountOf(m, 1);
  return amount === undefined ? undefined : { ...amount, written: m[0].trim() };
}

/**
 * Money joined by "and" (or "plus", "&") to the words of a budget read before it, which end at `from` in the scanned text:
 * "what can I train with 1e24 FLOPs and $2M", whose "with" makes the $2M a budget as it makes "with $2M" one (QA: the $2M
 * was said to be "neither a price nor a budget"). Read only right after that budget, never elsewhere; after takePrice, so
 * "and $2/GPU-hour" is the price. Group 1 is the money's words, AMOUNT's seven groups after it.
 */
export function takeJoinedMoneyBudget(s: Scanner, from: number): MoneyBudget | undefined {
  const joined = new RegExp(String.raw`\s*,?\s*(?:and|plus|&)\s+(?:an?\s+)?(${AMOUNT}(?:\s+budget\b)?)`, 'y');
  joined.lastIndex = from;
  const m = joined.exec(s.text);
  const amount = m === null ? undefined : amountOf(m, 2);
  if (m === null || amount === undefined) return undefined;
  s.blank({ index: m.index, length: m[0].length });
  return { ...amount, written: (m[1] ?? m[0]).trim() };
}

/**
 * Why a money budget with no price is not weighed where the question has another goal, a deadline or GPU-hours, which is
 * answered without it (parse.ts): a budget in money is GPU-hours only at a price.
 */
export const UNPRICED_BUDGET = 'not weighed: a budget in money needs a price per GPU-hour to become GPU-hours; add one ("at $2/GPU-hour"), '
  + 'or give the budget in GPU-hours ("1.7M GPU-hours")';

/**
 * A money budget is GPU-hours only at a price (runNodes takes `budget` with `pricePerGpuHour`): without one,
 * or priced in another currency, or not above zero, a problem saying what to give.
 */
export function moneyBudgetProblem(b: MoneyBudget, price: StatedPrice | undefined): string | undefined {
  const written = statedMoney(b.amount, b.currency);
  if (!(b.amount > 0)) return `a budget of ${written} is out of range: give one above 0`;
  if (price === undefined) return `a budget of ${written} needs a price per GPU-hour to plan against ("at $2/GPU-hour"), or give it in GPU-hours ("1.7M GPU-hours")`;
  if (price.ok && b.currency !== undefined && price.currency !== undefined && b.currency !== price.currency) {
    return `the budget is in ${b.currency} and the price in ${price.currency}: give both in one currency`;
  }
  return undefined;
}

/** A currency word or sign beside a number: money no reader above took ("2 bucks a gpu-month", "$1M" with no "budget"). */
const MONEY_WORD = String.raw`(?:usd|eur|gbp|dollars?|bucks?|euros?|pounds?|cents?)\b`;
const LOOSE_MONEY = String.raw`(?:us\$|[$€£]|\b(?:usd|eur|gbp)\b)\s*${POINT_DECIMAL}(?:\s*(?:${MONEY_SCALE})\b)?|\b${POINT_DECIMAL}\s*(?:(?:${MONEY_SCALE})\b\s*)?(?:[$€£]|${MONEY_WORD})`;
/** A number per hour, of a GPU, a node or of nothing named ("2 per hour", "2.5/gpu-hr" left unread: no currency and no unit). */
const LOOSE_RATE = String.raw`\b${POINT_DECIMAL}\s*(?:\/|per)\s*(?:(?:gpus?|${HW_TOKEN}|nodes?)[\s-]*)?(?:hours?|hrs?|h)\b`;
const UNREAD_PRICE = new RegExp(`${LOOSE_MONEY}|${LOOSE_RATE}`);

/**
 * Money or a rate per hour that takePrice and takeMoneyBudget left in the text ("2 per hour", "$1M" with no "budget"):
 * the phrase, to be said back as not read, never dropped without a word (a cost question would lose its cost). Undefined
 * when none is left.
 */
export function findUnreadPrice(text: string): string | undefined {
  return UNREAD_PRICE.exec(text)?.[0].trim();
}

/** Why money left beside a price read is not planned, and how to write it as a budget. */
export const UNREAD_MONEY = 'money neither a price nor a budget; write a budget as "a $2M budget" or "with $2M"';

/** Why an unread price is a problem, and how to write one: "at $2/GPU-hour", or a node's "$98 per node-hour". */
export const unreadPriceProblem = (phrase: string): string =>
  `"${phrase}" looks like a price or an amount of money, but I could not read it: write a price as "at $2/GPU-hour" (or "$98 per node-hour"), a budget as "a $2M budget"`;

/** A currency the answer is asked in ("in EUR", "in euros", "convert to GBP"), another than the price's perhaps. */
const CONVERSION = /\b(?:in|into|to)\s+((?:usd|eur|gbp|jpy|cny|rmb|inr|chf|dollars?|euros?|pounds?|yen|yuan|rupees?)\b|[$€£¥])/;

/**
 * "$2.1/gpu-h in EUR": a currency asked for that the price is not given in. Prices are taken in the currency they are given
 * in and never converted (no exchange rate is modelled, and one would be stale): said as not read (QA: "in EUR" was dropped
 * unsaid, and the dollars answered as if euros were). Undefined when no other currency is asked.
 */
export function unreadConversion(text: string, currency: string | undefined, typed: (phrase: string) => string): NotRead | undefined {
  const m = CONVERSION.exec(text);
  const asked = m?.[1];
  if (m === null || asked === undefined || (currency !== undefined && SIGNS[asked] === currency)) return undefined;
  return { phrase: `"${typed(m[0])}"`, why: `prices are taken in the currency they are given in${currency === undefined ? '' : ` (${currency})`}, never converted: give the price in that currency for a cost in it` };
}
