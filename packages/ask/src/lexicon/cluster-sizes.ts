import { HW_TOKEN, type Scanner } from './quantities.ts';
import { CLUSTER_NUMBER, writtenCount } from './numbers.ts';

/**
 * Two cluster sizes where a question plans one: "512 H100 vs 1024 H100", "512 or 1024 H100", "64 and 128 nodes" compare
 * (each answered, side by side: answer/compared-sizes.ts); "512 H100, no wait, 1024 H100" corrects the first, and the last
 * is taken. QA found the first planned and the other dropped unsaid, or the comparison refused while "A100 vs H100" was
 * answered. Read before takeCounts, which reads one size: the other is taken out of the text here.
 */

/** A count as takeCounts reads one: never a number glued inside a word ("a3 nodes"). */
const COUNT = String.raw`(?<![a-z\d.])${CLUSTER_NUMBER}\s*(?:x\s*)?`;
/** What a count counts: the GPU's name (already HW_TOKEN), nodes or GPUs. */
const UNIT = String.raw`(?:(${HW_TOKEN}(?:\s*gpus?)?|nodes?|gpus?)\b)`;
/** Not GPUs per node ("64 nodes and 8 gpus per node"): takeCounts reads those. */
const NOT_PER_NODE = String.raw`(?!\s*(?:per|a|each|/)\s*(?:node|server|machine|box)\b)`;
/** Words a chat corrects itself with: "no wait", "sorry", "I mean", "actually", "make that"; one or more ("actually make that"). */
const CORRECTION_WORDS = String.raw`(?:no[\s,]*wait|wait[\s,]*no|sorry|i mean|actually|make (?:that|it)|correction|scratch that)`;
const CORRECTION = String.raw`(?<correction>${CORRECTION_WORDS}(?:[\s,;:.!-]*\b${CORRECTION_WORDS})*)`;

const CORRECTED = new RegExp(String.raw`${COUNT}${UNIT}?[\s,;.!-]*\b${CORRECTION}\b[\s,;:.!-]*(?=${COUNT}${UNIT})`);
/**
 * A correction to a bare count, the unit the first's: "512 H100 - actually make that 256" is 256 H100 (QA: the 512 was
 * planned, the correction dropped unsaid).
 */
const CORRECTED_BARE = new RegExp(String.raw`${COUNT}${UNIT}[\s,;.!-]*\b${CORRECTION}\b[\s,;:.!-]*${COUNT}(?![\w.]|\s*(?:x\s*)?(?:${HW_TOKEN}|nodes?|gpus?)\b)`);
/**
 * Sizes listed before the two compared: "256, 512 and 1024 H100" (QA: 256 was dropped unsaid), "64 vs 128 vs 256 vs 512
 * H100" (QA: 64 and 128 were dropped unsaid, and only 256 and 512 compared).
 */
const LISTED_BEFORE = new RegExp(String.raw`(?:${COUNT}${UNIT}?\s*(?:,|\b(?:or|vs\.?|versus|and)\b)\s*)+$`);
/** Sizes listed after the two compared, each with its unit: "512 H100 or 1024 H200 or 2048 B200" (QA: 2048 was dropped unsaid). */
const LISTED_AFTER = new RegExp(String.raw`^(?:\s*(?:,|\b(?:or|vs\.?|versus|and)\b)\s*${COUNT}${UNIT}${NOT_PER_NODE})+`);
const LISTED_AFTER_ONE = new RegExp(String.raw`${COUNT}${UNIT}`, 'g');
const LISTED = new RegExp(String.raw`${COUNT}${UNIT}?`, 'g');
const TWO_SIZES = new RegExp(String.raw`${COUNT}${UNIT}?\s*,?\s*\b(?:or|vs\.?|versus|and|compared (?:to|with))\s+${COUNT}${UNIT}${NOT_PER_NODE}`);

/** Words after which numbers are degrees, batch or sequence sizes, a version: never sizes listed ("pp 16 128 nodes"). */
const NOT_LISTED_AFTER = String.raw`(?<!\b(?:tp|pp|cp|dp|ep|vp|vpp|mbs|gbs|seq\w*|batch|zero|stage|llama|gpt|v)[\s=:-]*)`;
/** "64/128/256 nodes": sizes listed by slashes, the unit once, after the last. */
const SLASH_LIST = new RegExp(String.raw`${NOT_LISTED_AFTER}(?<![\w.,/])(\d+(?:\.\d+)?k?(?:\s*/\s*\d+(?:\.\d+)?k?)+)\s*(?:x\s*)?(${HW_TOKEN}(?:\s*gpus?)?|nodes?|gpus?)\b${NOT_PER_NODE}`);
/** "64 nodes, 128 nodes, 256 nodes": sizes listed by commas alone, each with the same unit (no "or" before the last). */
const UNIT_LIST = new RegExp(String.raw`(?<![\w.,])(\d+(?:\.\d+)?k?\s*(${HW_TOKEN}|nodes?|gpus?)\b(?:\s*,\s*\d+(?:\.\d+)?k?\s*\2\b)+)(?!\s*,?\s*\b(?:or|and|vs)\b)${NOT_PER_NODE}`);
/**
 * "8 16 32 64 nodes": sizes listed by spaces alone, rising, the unit once (numbers.ts' writtenNumbers left them apart).
 * Not "4 8xA100 nodes": 4 nodes of 8 GPUs, the last count glued to its "x" and the nodes named after the GPU (QA: a "4 nodes
 * vs 8 nodes" comparison was invented); takeCounts reads it.
 */
const NODES_OF_X = String.raw`(?!x\s*${HW_TOKEN}\s*(?:gpus?\s*)?(?:nodes?|servers?|machines?|boxes|hosts?|systems?)\b)`;
const SPACE_LIST = new RegExp(String.raw`${NOT_LISTED_AFTER}(?<![\w.,])(\d+k?(?:\s+\d+k?)+)${NODES_OF_X}\s*(?:x\s*)?(${HW_TOKEN}(?:\s*gpus?)?|nodes?|gpus?)\b${NOT_PER_NODE}`);

/** Each list shape above rewritten as the joined list TWO_SIZES and LISTED_BEFORE read: "64, 128 or 256 nodes". */
function joinListedSizes(s: Scanner): void {
  const joined = (counts: readonly string[], unit: string): string => ` ${counts.slice(0, -1).join(', ')} or ${counts.at(-1) ?? ''} ${unit} `;
  const slash = SLASH_LIST.exec(s.text);
  if (slash !== null) s.replace({ index: slash.index, length: slash[0].length }, joined(slash[1]!.split(/\s*\/\s*/), slash[2]!));
  const unit = UNIT_LIST.exec(s.text);
  if (unit !== null) s.replace({ index: unit.index, length: unit[0].length }, joined(unit[1]!.split(/\s*,\s*/).map((c) => c.replace(/\s*\D+$/, '')), unit[2]!));
  const space = SPACE_LIST.exec(s.text);
  const counts = space?.[1]!.split(/\s+/) ?? [];
  // Rising, as sizes are listed: "tp 8 512 gpus" (a degree, then the size) never reaches here (NOT_LISTED_AFTER).
  const count = (c: string): number => writtenCount(c.replace('k', ''), c.endsWith('k') ? 'k' : '');
  if (space !== null && counts.every((c, i) => i === 0 || count(c) > count(counts[i - 1]!))) {
    s.replace({ index: space.index, length: space[0].length }, joined(counts, space[2]!));
  }
}

/** The second size of two: its count, and whether it counts nodes, GPUs, or what the GPU's name counts (`named`). */
export interface OtherSize {
  count: number;
  unit: 'nodes' | 'gpus' | 'named';
}

const unitOf = (written: string): OtherSize['unit'] => (written.startsWith('node') ? 'nodes' : written.startsWith('gpu') ? 'gpus' : 'named');

/**
 * Takes a corrected size out of the text ("512 HW, no wait, 1024 HW" leaves "1024 HW"): the words that corrected it ("no
 * wait"), to say the last size was taken; undefined when there is none.
 */
export function takeCorrectedSize(s: Scanner): string | undefined {
  const bare = CORRECTED_BARE.exec(s.text);
  if (bare !== null) {
    const [, , , unit, , second, secondK] = bare;
    s.replace({ index: bare.index, length: bare[0].length }, ` ${second ?? ''}${secondK ?? ''} ${unit ?? ''} `);
    return bare.groups?.correction;
  }
  return s.take(CORRECTED)?.groups?.correction;
}

/**
 * Takes the second of two sizes out of the text, leaving the first with its unit for takeCounts ("512 or 1024 HW" leaves
 * "512 HW"): the second's count and unit; undefined when the text has no two sizes.
 */
export function takeOtherSize(s: Scanner): OtherSize[] {
  joinListedSizes(s);
  const m = TWO_SIZES.exec(s.text);
  if (m === null) return [];
  const [, first, firstK, firstUnit, second, secondK, secondUnit = ''] = m;
  // A list before the two ("256, 512 and 1024"): its first size is the one planned, the rest compared with it, in order.
  const before = LISTED_BEFORE.exec(s.text.slice(0, m.index));
  const listed = before === null ? [] : [...before[0].matchAll(LISTED)].map(([, count, k, unit]) => ({ count: writtenCount(count, k), unit: unitOf(unit ?? secondUnit) }));
  const start = before === null ? m.index : before.index;
  const [lead, ...rest] = listed;
  const planned = lead === undefined ? `${first ?? ''}${firstK ?? ''}` : String(lead.count);
  const after = LISTED_AFTER.exec(s.text.slice(m.index + m[0].length));
  const following = after === null ? [] : [...after[0].matchAll(LISTED_AFTER_ONE)].map(([, count, k, unit]) => ({ count: writtenCount(count, k), unit: unitOf(unit ?? '') }));
  s.replace({ index: start, length: m.index + m[0].length + (after?.[0].length ?? 0) - start }, ` ${planned} ${firstUnit ?? secondUnit} `);
  const others = [...rest, ...(lead === undefined ? [] : [{ count: writtenCount(first, firstK), unit: unitOf(firstUnit ?? secondUnit) }])];
  return [...others, { count: writtenCount(second, secondK), unit: unitOf(secondUnit) }, ...following];
}
