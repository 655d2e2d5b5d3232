import type { Match } from './match.ts';
import type { OtherModel } from './compared-models.ts';
import { SERVING_WORDS } from './serving.ts';
import { scaledCount } from './numbers.ts';
import type { Scanner } from './quantities.ts';

/**
 * A second size after the model, with no "tokens" word: "train a 7b on 300b", "8B … to get through 15T". In a training
 * question the model is the first size and the second is what it trains on, its token count (QA: "300b" was said not read
 * as a model, and the default 2T tokens planned; "15T" said not read beside a plan that took the preset's own 15T).
 */

/** A size alone, as the model lexicon reads one ("300b", "15t", "1.5 trillion"): no family named. */
const BARE_SIZE = /^(\d+(?:\.\d+)?)\s*(b|t|billion|trillion)$/;
/** The word before it says what it is trained on or through ("on 300b", "through 15t", "for 1t"), never "vs" or "or". */
const TRAINED_ON = /\b(?:on|for|through|over|with|using|of|past|across)\s+(?:(?:about|around|roughly|~)\s*)?$/;

/** The bare size read as training tokens, as written, and the mention it came from (to leave out of the models not read). */
interface BareTokens {
  tokens: number;
  written: string;
  mention: OtherModel;
}

/**
 * Takes out of the text the first bare size written after `first` (the model) and after a word of what it trains on, among
 * the mentions no comparing word joins to it (`unjoined`); undefined when there is none, or the question is a serving one.
 */
export function takeBareTokens(s: Scanner, normal: string, first: Match, unjoined: readonly OtherModel[]): BareTokens | undefined {
  if (SERVING_WORDS.test(normal)) return undefined;
  for (const mention of unjoined) {
    const size = BARE_SIZE.exec(mention.written);
    const { index, length } = mention.match;
    if (size === null || index < first.index + first.length || !TRAINED_ON.test(s.text.slice(0, index))) continue;
    const tokens = scaledCount(size[1], size[2]?.[0]);
    if (tokens === undefined) continue;
    s.blank({ index, length });
    return { tokens, written: mention.written, mention };
  }
  return undefined;
}
