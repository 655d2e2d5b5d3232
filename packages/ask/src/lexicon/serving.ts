import { billion, days, hours, million, minutes, ms, thousand } from '@trainplan/units';
import type { AskParameters } from '../question.ts';
import { DECIMAL, SCALED_COUNT, scaledCount, TOKEN_LENGTH, tokenLength } from './numbers.ts';
import type { Scanner } from './quantities.ts';

/**
 * The words of a serving question and the figures it states: prompt and output lengths, a prompt prefix
 * every request shares (a system prompt), latency bounds (per output token, to the first token, tokens/s
 * per user) and a request rate. Read before the training
 * budget, so "generate 512 tokens" is never a token budget and "30 tokens/s per user" never a throughput.
 */

// "latency" and "per user" are serving words unless a collective is named ("all-reduce latency"); "srve" and "sreve" are "serve" mistyped.
export const SERVING_WORDS = /\b(?:s(?:er|re|r)v(?:e|es|ed|ing)|inference|qps|queries per second|requests? per (?:second|minute|hour|day)|latenc(?:y|ies)|ttft|tpot|time to first token|kv[\s-]*cache|prefill|decod(?:e|ing)|chatbot|endpoint|deploy(?:s|ed|ing|ment)?|run inference)\b|\bms\s*(?:\/|per)\s*(?:output\s+)?tok(?:en)?s?\b|\btok(?:en)?s?\s*(?:\/|per)\s*s(?:ec(?:ond)?)?\s*(?:\/|per)\s*user\b|\bper user\b/;

/**
 * Words asking how many requests a replica holds at once: "max batch", "maximum batch size", "largest batch", "max concurrent
 * sequences", "how many sequences fit", "how many concurrent requests can I serve". A serving question whose answer is the
 * largest batch that fits in memory (vLLM's max_num_seqs, bounded by the KV cache the GPUs hold), not a plan's throughput;
 * QA: "max batch for llama3-8b on a100-80gb with 4k context" was planned as training on a default 128 nodes. Not a micro
 * or global batch ("max micro batch", "max global batch"), which only training has: no word may sit between "max" and "batch".
 * Nor a rate ("how many requests per second can I serve"), which is throughput.
 */
export const ASKS_MOST_CONCURRENT = /\b(?:max(?:imum|imal)?|largest|biggest|most)[\s-]+(?:(?:inference|serving|decode|decoding)[\s-]+)?(?:batch(?:[\s-]*sizes?)?|bs|concurrency|(?:number[\s-]+of[\s-]+)?(?:(?:concurrent|simultaneous|parallel)[\s-]+)?(?:requests|sequences|seqs|users|streams|sessions)|concurrent[\s-]+(?:requests?|sequences?|users?|streams?|sessions?))\b|\bhow many (?:(?:concurrent|simultaneous|parallel)[\s-]+)?(?:requests|sequences|seqs|users|streams|sessions|conversations|prompts)\b(?!\s*(?:\/|per\b|an?\s+(?:sec|second|minute|hour|day)\b|each\s+(?:second|minute)\b))[^?]*?\b(?:fit|fits|(?:can|could) (?:i|we|it|you|one) (?:serve|run|handle|hold|batch|fit)|at once|at a time)\b/i;

/**
 * A request rate: a count (k a thousand, as rates are counted) per second, minute, hour or day, as "qps", "rpm",
 * "requests/min", "queries an hour". Groups: the count (SCALED_COUNT's two), the unit spelt ("min"), or "m" of qpm/rpm.
 */
const RATE = new RegExp(String.raw`\b${SCALED_COUNT}\s*(?:[qr]p(s|m)|(?:quer(?:y|ies)|req(?:uest)?s?)\s*(?:\/|per|an?|each)\s*(s(?:ec(?:ond)?)?|min(?:ute)?|h(?:(?:ou)?r)?|day))\b`);
const rateSeconds = (m: RegExpExecArray): number => {
  const unit = m[4] ?? m[3] ?? 's';
  return unit.startsWith('m') ? minutes(1) : unit.startsWith('h') ? hours(1) : unit.startsWith('d') ? days(1) : 1;
};

/** Throughput work with no user waiting ("offline", "batch inference"): no interactive latency bound is assumed. */
const OFFLINE = /\b(?:offline|batch[\s-]*(?:inference|processing|jobs?)|max(?:imum)?[\s-]*throughput|throughput[\s-]*(?:only|bound|oriented))\b/;

/** A token count as prompts are measured: "2k" is 2,048 (a context length, as "8k context" reads), "1M" 1,000,000. */
const TOKEN_COUNT = TOKEN_LENGTH;
const tokenCount = (m: RegExpExecArray): number => tokenLength(m[1], m[2]);

/** After a length's name and number, no unit the number is in but tokens: "outputs of 2 gigatokens" is no 2-token output. */
const NO_OTHER_UNIT = String.raw`(?![\s-]*[a-z]+tok)`;

/** "ms", "s", "sec", "seconds", "milliseconds" → seconds per unit. */
export const TIME_UNIT = String.raw`(ms|msec|milliseconds?|s|secs?|seconds?)`;
/** In seconds, as units' ms reads milliseconds: the bound the widget and the CLI send for the same figure. */
const secondsOf = (value: string | undefined, unit: string | undefined): number =>
  (unit !== undefined && /^m/.test(unit) ? ms(Number(value)) : Number(value));

/** The names of the time to first token: "ttft", "time to first token", "first token latency". */
export const FIRST_TOKEN_NAME = String.raw`(?:ttft|time[\s-]*to[\s-]*(?:the\s+)?first[\s-]*token|first[\s-]*token(?:\s+latency)?)`;
/** The names of the time per output token: "tpot", "itl", "inter-token latency", "time per output token", "per-token latency". */
export const PER_TOKEN_NAME = String.raw`(?:tpot|itl|inter[\s-]*token(?:\s+latency)?|time per (?:output )?token|per[\s-]*token latency)`;

/** Words between a latency's name and its value: "ttft under 2 s", "time to first token of 500 ms", "tpot <= 50ms". */
export const BOUND_JOIN = String.raw`(?:\s*(?:of|under|below|within|less than|at most|no more than|max(?:imum)?|<=?|≤|=|:|is|in|at|~|around|about)\s*)*\s*`;

type ServingFacts = Pick<AskParameters, 'promptTokens' | 'sharedPrefixTokens' | 'outputTokens' | 'maxTokenSeconds' | 'maxFirstTokenSeconds' | 'requestsPerSecond' | 'concurrency' | 'offline'>;

/** The names of a prefix every prompt shares: "system prompt", "shared prefix", "common prompt prefix", "cached prefix". */
const SHARED_PREFIX = String.raw`(?:system[\s-]*(?:prompts?|messages?)|(?:shared|common|cached)[\s-]*(?:prompt[\s-]*)?prefix(?:es)?|prompt[\s-]*prefix(?:es)?)`;

/** "prompt", "prompts", and as typed in haste: "promt", "promts", "prompt". */
const PROMPT = String.raw`pro?mp?ts?`;

/** What a user writes, each request's own part of the prompt (after any system prompt): "user prompt", "user messages". */
const USER_PROMPT = String.raw`(?:user|request|query)[\s-]*(?:prompts?|messages?|inputs?|quer(?:y|ies))`;

/**
 * "a 1k-token system prompt", "a 500 token shared prefix", "2k tokens of system prompt", "1024 shared prompt
 * tokens", "system prompt of 1k tokens", "shared prefix: 500 tokens". Read before the prompt, whose own patterns
 * would take "prompt of 1k tokens" out of "system prompt of 1k tokens". After the name, the count must follow
 * "of", "is", "=" or ":", so "system prompt at 100 qps" leaves the rate alone.
 */
function takeSharedPrefix(s: Scanner): RegExpExecArray | undefined {
  return s.take(new RegExp(String.raw`\b${TOKEN_COUNT}[\s-]*(?:tok(?:en)?s?[\s-]*)?(?:(?:of|for|in)(?:\s+(?:the|a))?\s+)?${SHARED_PREFIX}\b`))
    ?? s.take(new RegExp(String.raw`\b${TOKEN_COUNT}[\s-]*(?:shared|common|cached)[\s-]*(?:prompt[\s-]*)?tok(?:en)?s\b`))
    ?? s.take(new RegExp(String.raw`\b${SHARED_PREFIX}(?:[\s-]*(?:length|len|size))?\s*(?:of|is|=|:)\s*(?:about\s+|~\s*)?${TOKEN_COUNT}(?:[\s-]*tok(?:en)?s?)?\b`));
}

/**
 * "per 1M output tokens", "per million tokens", "$/Mtok", "per 1k output tokens", "per 1B output tokens": the unit a serving
 * cost is quoted in, never a length, a budget or a model (QA: "cost per 1M output tokens" was each request's output,
 * 1,048,576 tokens, "cost per million tokens" a training run of 1M tokens' search, "per 1k output tokens" a 1,024-token
 * output and "per 1B output tokens" a 1B model). Group 1: the scale glued to "tok" ("mtok"); 2: the scale's word or letter;
 * 3: the tokens named ("output", "input"), if any.
 */
export const PER_MILLION_TOKENS = /(?:\bper|\/)\s*(?:(?:1|one|a)\s*)?(?:([kmb])toks?\b|(k|thousand|m|million|b|billion)\s+(?:(output|generated|completion|input|prompt)\s+)?tok(?:en)?s?\b)/;

/**
 * "what does a million output tokens cost", "the cost of 1M output tokens": the same unit asked with the tokens first (QA:
 * read as a 1,000,000-token output per request, $55.1 for the $1.2 a million tokens cost). Group 1: the scale; 2: the
 * tokens named. Only with "cost" or "price" asked around it, so "generate 1M output tokens" stays a length.
 */
const UNIT_FIRST = String.raw`(?:1|one|a)\s*(k|thousand|m|million|b|billion)\s+(?:(output|generated|completion|input|prompt)\s+)?tok(?:en)?s?\b`;
const COST_OF_TOKENS = [
  new RegExp(String.raw`(?<=\b(?:cost|price|pricing)\s+(?:of|for)\s+)${UNIT_FIRST}`),
  new RegExp(String.raw`(?<=\b(?:what\s+(?:does|do|would|will)|how\s+much\s+(?:does|do|would|will|is|are))\s+)${UNIT_FIRST}(?=.*\b(?:cost|price)s?\b)`),
];

/** Tokens in a cost's unit, by its scale: a thousand, a million or a billion. */
const UNIT_TOKENS: Readonly<Record<string, number>> = {
  k: thousand(1), thousand: thousand(1), m: million(1), million: million(1), b: billion(1), billion: billion(1),
};

/** A cost unit's tokens in words: "thousand", "million", "billion". */
export const unitWord = (tokens: number): string => (tokens === thousand(1) ? 'thousand' : tokens === billion(1) ? 'billion' : 'million');

/** A serving cost's unit: the phrase as written, its tokens (1,000, 1,000,000 or 1,000,000,000) and the tokens it names ("output", "input"). */
interface CostUnit { written: string; tokens: number; of?: string }

const costUnitOf = (m: RegExpExecArray, perSign: boolean): CostUnit => {
  const scale = perSign ? m[1] ?? m[2] : m[1];
  const of = perSign ? m[3] : m[2];
  return { written: m[0].trim(), tokens: UNIT_TOKENS[scale ?? 'm'] ?? million(1), ...(of !== undefined && { of }) };
};

/** The serving cost's unit a (normalised) text asks, without taking it; undefined when it asks none. */
export function costUnit(text: string): CostUnit | undefined {
  const per = PER_MILLION_TOKENS.exec(text);
  if (per !== null) return costUnitOf(per, true);
  const first = COST_OF_TOKENS.map((p) => p.exec(text)).find((m): m is RegExpExecArray => m !== null);
  return first === undefined ? undefined : costUnitOf(first, false);
}

/** Takes a cost's "per million tokens" (or per thousand, per billion) out of the text; undefined when there is none. */
export function takeCostPerMillion(s: Scanner): CostUnit | undefined {
  const per = s.take(PER_MILLION_TOKENS);
  if (per !== undefined) return costUnitOf(per, true);
  for (const pattern of COST_OF_TOKENS) {
    const first = s.take(pattern);
    if (first !== undefined) return costUnitOf(first, false);
  }
  return undefined;
}

/** Reads (and blanks) the serving figures; fields the question does not give stay unset. */
export function takeServing(s: Scanner): ServingFacts {
  const out: ServingFacts = {};
  // "1000 qps", "50 requests/s", "20 req/s", "1k requests per second", "200 requests per minute", "600 rpm", "1M requests a day".
  // First: "system prompt at 100 qps" was a 100-token prompt.
  const rate = s.take(RATE);
  const count = rate === undefined ? undefined : scaledCount(rate[1], rate[2]);
  if (rate && count !== undefined) out.requestsPerSecond = count / rateSeconds(rate);
  const prefix = takeSharedPrefix(s);
  if (prefix) out.sharedPrefixTokens = tokenCount(prefix);
  // "2k prompt", "2048-token prompts", "prompt of 2048 tokens", "prompt length 2048", "2048 input tokens", "ISL 2048";
  // a user's own: "200 token user prompt", "100-token user messages", "user prompt of 1.5k tokens".
  // "2048 tokens in and 256 out", "1k in / 128 out": both lengths at once.
  const inOut = s.take(new RegExp(String.raw`\b${TOKEN_COUNT}[\s-]*(?:tok(?:en)?s?[\s-]*)?in\s*(?:,|and|\/|\+)?\s*${TOKEN_COUNT}[\s-]*(?:tok(?:en)?s?[\s-]*)?out\b`));
  if (inOut) out.outputTokens = tokenLength(inOut[3], inOut[4]);
  const prompt = inOut
    ?? s.take(new RegExp(String.raw`\b${TOKEN_COUNT}[\s-]*(?:tokens?[\s-]*)?(?:${USER_PROMPT}|${PROMPT}|inputs?(?:[\s-]*tokens?)?|isl)\b`))
    ?? s.take(new RegExp(String.raw`\b(?:${USER_PROMPT}|${PROMPT}|inputs?|isl)(?:[\s-]*(?:length|len|size|tokens))?${BOUND_JOIN}${TOKEN_COUNT}(?:[\s-]*tokens?)?\b${NO_OTHER_UNIT}`));
  // A user's prompt follows the system prompt, whatever its length: the whole prompt is both.
  const own = prompt !== undefined && out.sharedPrefixTokens !== undefined && new RegExp(String.raw`\b${USER_PROMPT}`).test(prompt[0]);
  if (prompt) out.promptTokens = tokenCount(prompt) + (own ? out.sharedPrefixTokens ?? 0 : 0);
  // "512 output tokens", "512 generated tokens", "output of 512 tokens", "generate 512 tokens", "OSL 512"; "4k prompt 1k out"
  // (QA: "1k out" was not read, and 512 tokens taken), never "out of" ("2T tokens out of 15T").
  const output = inOut !== undefined ? undefined : s.take(new RegExp(String.raw`\b${TOKEN_COUNT}[\s-]*(?:tokens?[\s-]*)?(?:outputs?|out\b(?![\s-]*of\b)|generated|new|completion|osl)(?:[\s-]*tokens?)?\b`))
    ?? s.take(new RegExp(String.raw`\b(?:outputs?|completions?|generations?|osl)(?:[\s-]*(?:length|len|size|tokens))?${BOUND_JOIN}${TOKEN_COUNT}(?:[\s-]*tokens?)?\b${NO_OTHER_UNIT}`))
    ?? s.take(new RegExp(String.raw`\b(?:generat\w*|produc\w*|writ\w*|output\w*)\s+${TOKEN_COUNT}[\s-]*tok(?:en)?s?\b`));
  if (output && out.outputTokens === undefined) out.outputTokens = tokenCount(output);
  // "30 tokens/s per user": a sequence's decode rate, so each token within 1/30 s.
  const perUser = s.take(new RegExp(String.raw`\b(${DECIMAL})\s*tok(?:en)?s?\s*(?:\/|per)\s*s(?:ec(?:ond)?)?\s*(?:\/|per)\s*(?:user|sequence|stream|request)\b`));
  // "50 ms/token", "50 ms per output token", "TPOT 50 ms", "inter-token latency under 40 ms", "40ms tpot".
  const perToken = perUser ? undefined
    : s.take(new RegExp(String.raw`\b(${DECIMAL})\s*${TIME_UNIT}\s*(?:\/|per|a|each)\s*(?:output\s+|generated\s+)?tok(?:en)?\b`))
      ?? s.take(new RegExp(String.raw`\b${PER_TOKEN_NAME}${BOUND_JOIN}(${DECIMAL})\s*${TIME_UNIT}\b`))
      // "40ms tpot", "40 ms itl": the value before the name, as "500 ms TTFT" is read.
      ?? s.take(new RegExp(String.raw`\b(${DECIMAL})\s*${TIME_UNIT}\s*${PER_TOKEN_NAME}\b`));
  if (perUser) out.maxTokenSeconds = 1 / Number(perUser[1]);
  else if (perToken) out.maxTokenSeconds = secondsOf(perToken[1], perToken[2]);
  // "TTFT under 2 s", "time to first token of 500 ms", "first token within 1 s", "500 ms TTFT".
  const firstToken = s.take(new RegExp(String.raw`\b${FIRST_TOKEN_NAME}${BOUND_JOIN}(${DECIMAL})\s*${TIME_UNIT}\b`))
    ?? s.take(new RegExp(String.raw`\b(${DECIMAL})\s*${TIME_UNIT}\s*${FIRST_TOKEN_NAME}\b`));
  if (firstToken) out.maxFirstTokenSeconds = secondsOf(firstToken[1], firstToken[2]);
  // "32 concurrent requests", "concurrency of 64", "64 concurrent users": the sequences decoded at once (the service's in
  // all, spread over its replicas, unless said per replica: answer/serving-users.ts).
  // A fraction is read as written ("1.5 concurrent requests"), for answer/whole-counts.ts to refuse: never its digits after the point.
  const concurrent = s.take(/(?<![\d.])(\d+(?:\.\d+)?)\s*(?:concurrent|simultaneous|parallel)\s*(?:requests?|users?|sequences?|streams?|sessions?)\b/)
    ?? s.take(/\bconcurrency(?:\s*(?:of|=|:|is))?\s*(\d+(?:\.\d+)?)\b/);
  if (concurrent) out.concurrency = Number(concurrent[1]);
  if (OFFLINE.test(s.text)) out.offline = true;
  return out;
}

/** The names of a serving length: a prompt's (its context too) or an output's. */
const LENGTH_NAME = String.raw`(?:${PROMPT}|inputs?|isl|context|outputs?|completions?|osl)`;

/** A number next to a length's name, with one word beside it ("20 gigatoken prompts", "prompts of 2e6 tokens"), as a length left unread is written. */
const UNREAD_LENGTH = new RegExp(String.raw`\b\d[\w.]*(?:\s+[a-z]+)?[\s-]*(?:tok(?:en)?s?[\s-]*)?${LENGTH_NAME}\b(?![\s-]*parallel)`
  + String.raw`|\b${LENGTH_NAME}(?:[\s-]*(?:length|len|size|window|tokens?))?\s*(?:of|=|:|is)?\s*\d[\w.]*(?:\s+[a-z]+)?`);

/**
 * A prompt or output length the question gives that no pattern read ("with 2e6-token prompts"), in its words, and
 * the field it would have set; undefined when there is none. The answer says it was not read rather than taking the
 * default length silently. Called on the text left once the lengths are read, before the training budget's
 * patterns take "2e6 token" out of it.
 */
export function findUnreadLength(text: string): { written: string; field: 'promptTokens' | 'outputTokens' } | undefined {
  const m = UNREAD_LENGTH.exec(text);
  if (m === null) return undefined;
  return { written: m[0].trim(), field: /\b(?:outputs?|completions?|osl)\b/.test(m[0]) ? 'outputTokens' : 'promptTokens' };
}
