import { modelById } from '@trainplan/presets';
import { MAX_DRAFT_TOKENS } from '@trainplan/protocol';
import type { Match } from './match.ts';
import { matchModel, type ModelMatch } from './models.ts';
import { DECIMAL, POINT_DECIMAL } from './numbers.ts';
import type { Scanner } from './quantities.ts';

/**
 * The words of speculative decoding (Leviathan et al., ICML 2023) in a serving question: that it is asked
 * ("with speculative decoding", "spec decode", "a draft model"), the draft as written ("llama 3.2 1b as the
 * draft", "a 1B draft model", "draft model llama3.2-1b"), γ ("4 draft tokens", "num_speculative_tokens 5") and
 * α ("acceptance rate 0.8", "80% acceptance"). Read before the model: a draft's name taken out here is never
 * the model to serve, and "4 draft tokens" never a token count. The draft is resolved against the model to
 * serve once that is known (speculative.ts).
 */

interface SpeculativeFacts {
  /** Speculative decoding is asked, in words or by a draft, γ or α. */
  speculative?: true;
  /** The draft as the question writes it ("llama 3.2 1b", "a 1b"), where the word "draft" tags it. */
  draftWritten?: string;
  /** γ: tokens the draft proposes a step. */
  draftTokens?: number;
  /** α: the chance the target accepts each draft token, a fraction in (0, 1]. */
  acceptanceRate?: number;
  /** What was stated but cannot be used (γ not a whole number from 1 to 16, α out of range). */
  problems: string[];
}


/** Words that ask for speculative decoding, its draft or its figures without naming them ("speculative decoding", "assisted generation"). */
const ASKS = /\bspeculat(?:ive|ion|ing|e)\b|\bspec[\s-]*decod(?:e|ing)\b|\bassisted[\s-]*(?:generation|decoding)\b|\bdraft(?:er|s|ing)?(?:[\s-]*models?)?\b/;

/** A model size: "1b", "1.3b", "350m", "8 billion" (never "8 h100": the scale letter ends a word). */
export const DRAFT_SIZE = String.raw`${DECIMAL}\s?(?:[mb]|million|billion)\b`;
/** A family before a size: "llama 3.2 1b", "llama3.2-1b", "llama-3-8b", "gpt-3 1.3b"; or the size alone. */
const NAME = String.raw`(?<![\w.])(?:(?:a|an|the)\s)?((?:(?:llama|gpt|nemotron|bloom|megatron|mt[\s-]?nlg)[\s-]?(?:${DECIMAL}[\s-]?)?)?${DRAFT_SIZE})`;
const DRAFT = String.raw`draft(?:er)?(?:[\s-]?models?)?`;

/**
 * A draft named with the word "draft" beside it: "llama 3.2 1b as the draft", "a 1B draft model", "draft model
 * llama3.2-1b", "draft: llama 3.2 1b", "drafting with llama 3.2 1b". The first that matches is taken.
 */
const DRAFT_NAMES: readonly RegExp[] = [
  new RegExp(String.raw`${NAME}\s(?:as|for)\s(?:(?:the|a|an|its|our)\s)?(?:${DRAFT}|drafting)\b`),
  new RegExp(String.raw`\b${DRAFT}\s?(?:(?:is|=|:|of|being)\s?)?${NAME}`),
  new RegExp(String.raw`${NAME}[\s-](?:${DRAFT}|drafting|to draft)\b`),
  new RegExp(String.raw`\bdraft(?:ed|ing|s)?\s(?:with|by|using)\s${NAME}`),
];

/** A number as written, with an optional percent sign. */
const NUMBER = String.raw`(${POINT_DECIMAL})`;

/** γ: "4 draft tokens", "5 speculative tokens", "4 tokens drafted", "drafting 4 tokens", "γ = 4", "num_speculative_tokens 5". */
const DRAFT_TOKENS: readonly RegExp[] = [
  new RegExp(String.raw`(?<![\w.])${NUMBER}\s?(?:draft(?:ed)?|speculative|speculated|proposed|lookahead)\s?tok(?:en)?s?\b`),
  new RegExp(String.raw`(?<![\w.])${NUMBER}\s?tok(?:en)?s?\s(?:drafted|speculated|proposed)\b`),
  new RegExp(String.raw`\b(?:draft(?:s|ing)?|speculat(?:e|es|ing)|propos(?:e|es|ing))\s${NUMBER}\s?tok(?:en)?s?\b`),
  new RegExp(String.raw`(?:\bnum(?:ber of)?\s(?:speculative|draft)\stokens|\b(?:draft|speculative)\stokens|\bgamma|γ|\blookahead)(?:\s(?:of|is)|\s?[=:])?\s?${NUMBER}(?![\w.])`),
];

// A number after the name that counts something else is no rate: "acceptance rate at 100 qps".
const NOT_A_COUNT = String.raw`(?![\w.])(?!\s?(?:x\b|gpus?\b|nodes?\b|tok|req|qps|rps|ms\b|s\b))`;
const PERCENT = String.raw`\s?(%|percent)?`;
const ACCEPTANCE = String.raw`(?:acceptance|accept(?:ed)?)(?:[\s-](?:rate|ratio|probability|prob))?`;

/** α: "acceptance rate 0.8", "acceptance rate of 80%", "α = 0.7", "80% acceptance", "0.8 acceptance rate", "70% of draft tokens accepted". */
const ACCEPTANCE_RATES: readonly RegExp[] = [
  new RegExp(String.raw`\b${ACCEPTANCE}(?:\s(?:of|is|at|around|about|~)|\s?[=:~])?\s?${NUMBER}${PERCENT}${NOT_A_COUNT}`),
  new RegExp(String.raw`(?:\balpha|α)(?:\s(?:of|is)|\s?[=:])?\s?${NUMBER}${PERCENT}${NOT_A_COUNT}`),
  new RegExp(String.raw`(?<![\w.])${NUMBER}${PERCENT}\s(?:of\s(?:the\s)?(?:draft(?:ed)?\s)?tokens?\s)?${ACCEPTANCE}\b`),
];

const first = (s: Scanner, patterns: readonly RegExp[]): RegExpExecArray | undefined => {
  for (const pattern of patterns) {
    const m = s.take(pattern);
    if (m) return m;
  }
  return undefined;
};

/** Reads (and blanks) the speculative decoding a question asks; nothing when it asks none. */
export function takeSpeculative(s: Scanner): SpeculativeFacts {
  const asked = ASKS.test(s.text);
  const out: SpeculativeFacts = { problems: [] };
  const draft = first(s, DRAFT_NAMES);
  if (draft?.[1] !== undefined) out.draftWritten = draft[1].trim();
  const gamma = first(s, DRAFT_TOKENS);
  if (gamma?.[1] !== undefined) {
    const value = Number(gamma[1]);
    if (Number.isInteger(value) && value >= 1 && value <= MAX_DRAFT_TOKENS) out.draftTokens = value;
    else out.problems.push(`γ, the tokens a draft proposes a step, is a whole number from 1 to ${MAX_DRAFT_TOKENS}, got ${gamma[1]}`);
  }
  const alpha = first(s, ACCEPTANCE_RATES);
  if (alpha?.[1] !== undefined) {
    const percent = alpha[2] !== undefined;
    const value = Number(alpha[1]) / (percent ? 100 : 1);
    if (value > 0 && value <= 1) out.acceptanceRate = value;
    else {
      out.problems.push(percent
        ? `an acceptance rate of ${alpha[1]}% is out of range: it is the share of draft tokens the model accepts, above 0% and at most 100%`
        : `an acceptance rate of ${alpha[1]} is out of range: give a fraction above 0 and at most 1 (0.8) or a percentage (80%)`);
    }
  }
  if (asked || out.draftWritten !== undefined || gamma !== undefined || alpha !== undefined) out.speculative = true;
  return out;
}

const parametersOf = (id: string): number => modelById(id)?.publishedParameters ?? 0;

/**
 * The model to serve (taken out of the text), found once a draft's name is: "llama 3 70b with llama 3.2 1b as the
 * draft" serves Llama 3 70B. A speculative question naming two presets and tagging neither as the draft
 * ("speculative decoding with llama 3.2 1b for llama 3 70b") serves the larger, whichever comes first: the
 * smaller is the draft, as `draftWritten`.
 */
export function takeServedModel(s: Scanner, facts: SpeculativeFacts): { model?: ModelMatch; modelWritten?: string; draftWritten?: string } {
  const written = (m: Match): string => s.text.slice(m.index, m.index + m.length).trim();
  const model = matchModel(s.text);
  if (model === undefined) return {};
  const modelWritten = written(model);
  s.blank(model);
  if (facts.speculative !== true || facts.draftWritten !== undefined || model.model === undefined) return { model, modelWritten };
  const other = matchModel(s.text);
  if (other?.model === undefined || other.model === model.model) return { model, modelWritten };
  const otherWritten = written(other);
  s.blank(other);
  return parametersOf(other.model) < parametersOf(model.model) ? { model, draftWritten: otherWritten } : { model: other, draftWritten: modelWritten };
}
