import type { AskParameters } from '../question.ts';
import { TOKEN_LENGTH, tokenLength } from './numbers.ts';
import { SERVING_WORDS } from './serving.ts';
import type { Scanner } from './quantities.ts';

/**
 * The KV cache's own number format in a serving question (the protocol's kvCachePrecision, vLLM's kv_cache_dtype):
 * "fp8 kv cache", "kv cache in fp8", "kv_cache_dtype=fp8", "8-bit kv cache", "quantized kv cache (fp8)". Read before
 * the precision, so "fp8" of the cache is never the weights' ("serve 70b in fp8" still is). A format the planner does
 * not model ("0-bit", "3-bit", "int4", "fp4", "fp32") is refused, naming those it does, never dropped for the default.
 */

type KvCachePrecision = NonNullable<AskParameters['kvCachePrecision']>;

interface KvCacheFacts {
  kvCachePrecision?: KvCachePrecision;
  /** How a format the protocol has no name for was read ("8-bit", "int8", "quantized": FP8, one byte a value; "16-bit"). */
  reading?: string;
  /** A format that cannot be planned (a 4-bit cache). */
  problem?: string;
}

const KV = String.raw`kv[\s-]*cache`;
/**
 * A format as written: a float's (FP8 with its variant, FP16, BF16, FP4, NVFP4, MXFP4, FP32), an integer's (INT8, INT4)
 * or a width in bits ("8-bit", "3 bit", "0 bits"); those not modelled are read to be refused.
 */
const FORMAT = String.raw`((?:nv|mx)?fp\d+(?:[\s-]*e[45]m[23])?|bf16|u?int\d+|\d+(?:\.\d+)?[\s-]*bits?)`;

/** "fp8 kv cache", "8-bit quantized kv-cache", "quantized kv cache (fp8)", "a quantized kv cache in fp8". */
const BEFORE = new RegExp(String.raw`\b(?:${FORMAT}(?:[\s-]*quanti[sz]ed)?|(quanti[sz]ed))[\s-]*${KV}\b(?:\s*(?:\(\s*|(?:in|to|as)\s+)${FORMAT}\b\s*\)?)?`);
/** "kv cache in fp8", "kv-cache fp8", "kv cache dtype=fp8", "kv cache quantized to fp8", "kv cache (fp8)", "kv cache quantized". */
const AFTER = new RegExp(String.raw`\b${KV}(?:[\s-]*(?:dtype|data[\s-]*type|precision|format|type|quanti[sz](?:ed|ation)))?\s*(?:\(\s*|(?:in|to|as|at|of|=|:|is|with)\s*)?${FORMAT}\b\s*\)?|\b${KV}[\s-]*(quanti[sz]ed)\b`);

/** The formats the planner keeps a KV cache in, and the readings onto them, said in a refusal. */
const MODELLED = 'the KV cache is planned in FP16, BF16 or FP8, an INT8 or 8-bit cache read as FP8 (say "fp8 kv cache")';

/** A width in bits as written ("3 bit", "0-bits"), as its number; undefined for a named format ("int4"). */
const bitsOf = (written: string): string | undefined => /^(\d+(?:\.\d+)?)[\s-]*bits?$/.exec(written)?.[1];

/** "a 3-bit", "an 8-bit", "an INT4", "an FP4", "a UINT8": the format named with its article, as a person reads it aloud. */
function named(written: string): string {
  const bits = bitsOf(written);
  const name = bits === undefined ? written.replace(/[\s-]+/g, '-').toUpperCase() : `${bits}-bit`;
  // Said aloud: "an eight", "an eleven", "an eighteen", "an eighty…"; "an ef-pee", "an int", "an en-vee", "an em-ex"; "a you-int".
  const vowelSound = bits === undefined ? !/^U/.test(name) : /^(?:8|11|18)(?!\d)|^8\d(?!\d)/.test(bits);
  return `${vowelSound ? 'an' : 'a'} ${name}`;
}

function factsOf(written: string, sixteenBit: KvCachePrecision): KvCacheFacts {
  if (/^fp8/.test(written)) return { kvCachePrecision: 'fp8' };
  if (written === 'fp16' || written === 'bf16') return { kvCachePrecision: written };
  if (written === 'int8') return { kvCachePrecision: 'fp8', reading: 'an INT8 KV cache planned as FP8: one byte a value either way (TensorRT-LLM\'s INT8 KV cache; vLLM\'s kv_cache_dtype is FP8)' };
  if (/^quanti/.test(written)) return { kvCachePrecision: 'fp8', reading: 'a quantized KV cache taken as FP8, one byte a value (vLLM\'s kv_cache_dtype "fp8")' };
  const bits = bitsOf(written);
  if (bits === '8') return { kvCachePrecision: 'fp8', reading: 'an 8-bit KV cache taken as FP8, one byte a value (vLLM\'s kv_cache_dtype "fp8")' };
  if (bits === '16') {
    const why = sixteenBit === 'bf16' ? 'the 16-bit format the GPU computes in; say "fp16 kv cache" for the other' : 'the GPU has no BF16';
    return { kvCachePrecision: sixteenBit, reading: `a 16-bit KV cache taken as ${sixteenBit.toUpperCase()}, two bytes a value (${why})` };
  }
  return { problem: `${named(written)} KV cache is not modelled: ${MODELLED}` };
}

/**
 * Reads (and blanks) the KV cache's format; undefined when the question names none. `sixteenBit`: the format a
 * "16-bit" cache is taken as, the GPU's own (BF16, or FP16 where it has no BF16).
 */
export function takeKvCachePrecision(s: Scanner, sixteenBit: KvCachePrecision): KvCacheFacts | undefined {
  const m = s.take(BEFORE) ?? s.take(AFTER);
  if (m === undefined) return undefined;
  // A format named after "quantized" is the one meant ("quantized kv cache (fp8)"); else the one before or after the cache.
  const written = [m[3], m[1], m[2]].find((x) => x !== undefined);
  return written === undefined ? undefined : factsOf(written, sixteenBit);
}

/** A question that names the KV cache: "kv cache", "kv-cache", "key-value cache". */
const NAMES_KV_CACHE = /\b(?:kv|key[\s-]*value)[\s-]*cache\b/;

/** What a KV cache is held for, as a question gives it: the sequences held at once and the tokens each holds. */
type KvCacheLoad = Pick<AskParameters, 'concurrency' | 'seqLength'>;

/** Sequences as a KV cache question counts them: requests, sequences, users, prompts, conversations, streams, sessions. */
const SEQUENCES = String.raw`(?:requests?|sequences?|seqs|users?|prompts?|conversations?|streams?|sessions?)`;
/** A count of tokens: "8k tokens", "2048 tokens", "128k-token". */
const TOKENS = String.raw`${TOKEN_LENGTH}[\s-]*tok(?:en)?s?`;
/** "32 requests of 8k tokens", "32 sequences at 8k tokens each", "32 users": group 1 the count, 2 and 3 the tokens each. */
const COUNTED = new RegExp(String.raw`(?<![\w.])(\d+)\s*${SEQUENCES}\b(?:\s+(?:of|at|with)\s+(?:about\s+|~\s*)?${TOKENS}\b(?:\s+each)?)?`);
/** "32 8k-token requests", "32 x 2048-token sequences": group 1 the count, 2 and 3 the tokens each. */
const COUNTED_BEFORE = new RegExp(String.raw`(?<![\w.])(\d+)\s*(?:x\s*)?${TOKENS}\s+${SEQUENCES}\b`);
/** "at 2048 tokens", "for 8k tokens", "with 128k tokens": the tokens a sequence holds, not a count of tokens generated or trained on. */
const HELD = new RegExp(String.raw`\b(?:at|for|of|with|over|holding)\s+(?:a\s+|about\s+|~\s*)?${TOKENS}\b(?![\s-]*(?:per\b|\/|an?\s+(?:sec|second)))`);

/**
 * Reads (and blanks) what a KV cache is held for, in a question that names the cache (`text`, the normalised question): "for 32
 * requests of 8k tokens" is 32 sequences at once (the protocol's batch, a replica's concurrency) of an 8,192-token context
 * (k is 1,024 in a length, as "8k context" reads); "kv cache of gpt-3 175b at 2048 tokens" a 2,048-token context. Read after
 * the serving lengths and rates ("2k prompt", "32 requests per second" are theirs) and before the training budget, whose
 * "8k tokens" it otherwise is. QA: "32 requests" was said not read and "8k tokens" taken as tokens to generate, the cache
 * given for a default 2,560-token sequence; "at 2048 tokens" was read as 2,048 generated tokens.
 */
export function takeKvCacheLoad(s: Scanner, text: string): KvCacheLoad {
  if (!NAMES_KV_CACHE.test(text)) return SERVING_WORDS.test(text) ? takeServedLoad(s) : {};
  const out: KvCacheLoad = {};
  const counted = s.take(COUNTED_BEFORE) ?? s.take(COUNTED);
  if (counted !== undefined) out.concurrency = Number(counted[1]);
  if (counted?.[2] !== undefined) out.seqLength = tokenLength(counted[2], counted[3]);
  const held = out.seqLength === undefined ? s.take(HELD) : undefined;
  if (held !== undefined) out.seqLength = tokenLength(held[1], held[2]);
  return out;
}

/** COUNTED with its tokens: "32 requests of 8k tokens" (a bare "32 users" is no count held at once unless the cache is named). */
const COUNTED_WITH_TOKENS = new RegExp(String.raw`(?<![\w.])(\d+)\s*${SEQUENCES}\s+(?:of|at|with)\s+(?:about\s+|~\s*)?${TOKENS}\b(?:\s+each)?`);

/**
 * A serving question that names no KV cache but gives its load as one does: "serve 70b to 32 requests of 8k tokens",
 * "serve 32 8k-token requests" are 32 sequences at once of an 8,192-token context each, as "32 concurrent requests with
 * 8k context" reads (QA: both numbers were left unread, and a default 2,048 + 512-token request planned at the largest
 * batch). Only the count written with its tokens: "serve 32 users" alone says nothing of how many are served at once.
 */
function takeServedLoad(s: Scanner): KvCacheLoad {
  const counted = s.take(COUNTED_BEFORE) ?? s.take(COUNTED_WITH_TOKENS);
  return counted === undefined ? {} : { concurrency: Number(counted[1]), seqLength: tokenLength(counted[2], counted[3]) };
}
