import type { FlagValues } from '../flags.ts';
import { DEFAULT_ACCEPTANCE_RATE, DEFAULT_DRAFT_TOKENS } from '@trainplan/ask';
import { count, defined, number } from '../search-flags.ts';

/**
 * Speculative decoding from flags (the inference request's `speculative`): --draft-model names the draft, and what it
 * leaves out takes the defaults `trainplan ask` takes (@trainplan/ask's DEFAULT_DRAFT_TOKENS, γ = 4, and
 * DEFAULT_ACCEPTANCE_RATE, α = 0.7; the widget's SERVING_DEFAULTS states the same numbers, its bundle not importing the
 * bot) (QA: `inference … --draft-model llama3.2-1b` was refused for a missing --draft-tokens and --acceptance the other
 * two surfaces assume).
 */

const speculating = (v: FlagValues): boolean =>
  v['draft-model'] !== undefined || v['draft-tokens'] !== undefined || v.acceptance !== undefined;

/**
 * The request's speculative object, or undefined without any of the three flags. Any one of them asks for speculation,
 * so γ and α take their defaults whenever one is given; only the draft itself is never assumed (a wrong guess would price
 * a draft that cannot verify the model's tokens), so --draft-tokens or --acceptance alone is refused as missing --draft-model.
 */
export function speculativeFields(v: FlagValues): Record<string, unknown> | undefined {
  if (!speculating(v)) return undefined;
  return defined({
    draftModel: v['draft-model'],
    draftTokens: count(v, 'draft-tokens') ?? DEFAULT_DRAFT_TOKENS,
    acceptanceRate: number(v, 'acceptance') ?? DEFAULT_ACCEPTANCE_RATE,
  });
}

/**
 * "assumed (no --draft-tokens, --acceptance): 4 draft tokens a step (γ), each accepted with probability 0.7 (α), …" where
 * a request from flags names a draft and leaves either out; undefined otherwise (as search's assumed batch line).
 */
export function assumedSpeculationLine(v: FlagValues): string | undefined {
  if (v.input !== undefined || v['draft-model'] === undefined) return undefined;
  const assumed = [
    ...(v['draft-tokens'] === undefined ? [{ flag: '--draft-tokens', text: `${DEFAULT_DRAFT_TOKENS} draft tokens a step (γ)` }] : []),
    ...(v.acceptance === undefined
      ? [{ flag: '--acceptance', text: `each draft token accepted with probability ${DEFAULT_ACCEPTANCE_RATE} (α; it depends on the workload and the draft, 0.5 to 0.9 in Leviathan et al. 2023: measure yours)` }]
      : []),
  ];
  if (assumed.length === 0) return undefined;
  return `assumed (no ${assumed.map((a) => a.flag).join(', ')}): ${assumed.map((a) => a.text).join(', ')}, as trainplan ask and the widget assume`;
}
