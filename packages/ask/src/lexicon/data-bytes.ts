import { DECIMAL } from './numbers.ts';
import type { Scanner } from './quantities.ts';

/**
 * A training set's size in bytes: "2TB of text", "a 10 TB dataset", "500GB of clean web data", "corpus of 3 TB". Read only
 * to say it is not read: a byte is no token count, and how many tokens a byte of text makes depends on the tokenizer and on
 * the text (its language, its code), which the question does not give. QA: "train llama3 70b on 2TB of text in 30 days" was
 * planned on the preset's 15T tokens with the 2TB dropped unsaid. "On 80GB" beside a GPU is its memory (hardware.ts reads
 * it first), and a collective's message size is read by takeBytes: parse.ts asks this only where no collective is named.
 */

const BYTE_UNIT = String.raw`(?:[kmgtpe]i?b|(?:kilo|mega|giga|tera|peta|exa)[\s-]?bytes?|bytes?)`;
/** What a size in bytes of training data is said of. */
const DATA_WORD = String.raw`(?:text|data(?:[\s-]?sets?)?|corpus|corpora|documents?|code|tokens?|web\s+(?:text|data|pages?|crawl))`;
/** Words between the size and what it is of: "of clean English web text". */
const QUALIFIER = String.raw`(?:raw|clean(?:ed)?|compressed|uncompressed|deduplicated|dedup(?:ed)?|filtered|training|pre-?training|english|multilingual|web|plain|high[\s-]quality)`;

const SIZE_BEFORE = new RegExp(String.raw`(?<![\w.])${DECIMAL}\s*${BYTE_UNIT}(?:\s+of)?(?:\s+${QUALIFIER})*\s+${DATA_WORD}\b`);
const SIZE_AFTER = new RegExp(String.raw`\b(?:data(?:[\s-]?set)?|corpus)\s+(?:of|is|=|:)?\s*(?:about\s+|~\s*)?${DECIMAL}\s*${BYTE_UNIT}(?![\w.])`);

/** Why a data size in bytes is not planned, and what to write instead. */
export const DATA_BYTES_WHY = 'a data size in bytes is not a token count (the tokens a byte of text makes depend on the tokenizer and the text): '
  + 'say the tokens, e.g. "500B tokens"';

/** The data size written in bytes, as the normalised text holds it, blanked; undefined where there is none. */
export function takeDataBytes(s: Scanner): string | undefined {
  const m = s.take(SIZE_BEFORE) ?? s.take(SIZE_AFTER);
  return m?.[0].trim().replace(/\s+/g, ' ');
}
