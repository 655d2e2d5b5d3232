import type { InferencePointJson } from '@trainplan/protocol';
import { modelById } from '@trainplan/presets';
import { countOf, formatNumber, formatSeconds } from '@trainplan/units';
import type { AskParameters } from '../question.ts';
import type { AnswerFigure } from './answer-types.ts';

/**
 * Speculative decoding in a serving answer, in words: the protocol's `speculation` of a point (runInference with
 * `speculative`: γ, α, the tokens a step yields, the draft's TP, memory and step). The bot reckons none of it
 * itself but the step a token's time is a share of: the time per token × the tokens a step.
 */

export type Speculative = { draftModel: string; draftTokens: number; acceptanceRate: number };
type Speculation = NonNullable<InferencePointJson['speculation']>;

/** The request's `speculative`, when the question asks it and a draft was named or assumed (speculative.ts). */
export function speculativeOf(p: AskParameters): Speculative | undefined {
  if (p.speculative !== true || p.draftModel === undefined || p.draftTokens === undefined || p.acceptanceRate === undefined) return undefined;
  return { draftModel: p.draftModel, draftTokens: p.draftTokens, acceptanceRate: p.acceptanceRate };
}

/** "Llama 3.2 1B": the draft as answers name it. */
export const draftName = (s: Speculative): string => modelById(s.draftModel)?.shape.name ?? s.draftModel;

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const superscript = (n: number): string => [...String(n)].map((d) => SUPERSCRIPT[Number(d)] ?? d).join('');

/** "(1 − 0.7⁵)/(1 − 0.7) = 2.77 tokens a step", or with every draft token kept "all 4 kept: 5 tokens a step" (Leviathan et al. 2023, eq. 1). */
function tokensPerStepText(x: Speculation): string {
  const a = x.acceptanceRate;
  if (a >= 1) return `all ${x.draftTokens} kept: ${x.draftTokens + 1} tokens a step`;
  return `(1 − ${a}${superscript(x.draftTokens + 1)})/(1 − ${a}) = ${formatNumber(x.tokensPerStep)} tokens a step`;
}

/**
 * The figure of a speculating point: "Llama 3.2 1B (TP 8) drafts 4 tokens a step, each kept with probability 0.7:
 * (1 − 0.7⁵)/(1 − 0.7) = 2.77 tokens a step; a step 17.3 ms, of which the draft's 4 steps 4.48 ms".
 */
export function speculationFigure(x: InferencePointJson, s: Speculative): AnswerFigure[] {
  const spec = x.speculation;
  if (spec === undefined) return [];
  const step = x.decodeStepSeconds * spec.tokensPerStep;
  return [{
    label: 'Speculative decoding',
    value: `${draftName(s)} (TP ${spec.draftTensor}) drafts ${countOf(spec.draftTokens, 'token')} a step, each kept with probability ${spec.acceptanceRate}: ${tokensPerStepText(spec)}; `
      + `a step ${formatSeconds(step)}, of which the draft's ${countOf(spec.draftTokens, 'step')} ${formatSeconds(spec.draftTokens * spec.draftStepSeconds)}`,
  }];
}

/** " · speculative: Llama 3.2 1B draft, γ 4, α 0.7": the configuration's part, empty without speculation. */
export const speculationConfiguration = (s: Speculative | undefined): string =>
  (s === undefined ? '' : ` · speculative: ${draftName(s)} draft, γ ${s.draftTokens}, α ${s.acceptanceRate}`);

/** How speculation is served, said among the assumptions when the question asks it. */
export const speculationAssumption = (s: Speculative | undefined): string[] => (s === undefined ? [] : [
  `speculative decoding (Leviathan et al. 2023): ${draftName(s)} proposes ${countOf(s.draftTokens, 'token')}, one decode step each, and the model checks them all in one pass, `
    + 'keeping the draft\'s tokens up to the first it rejects and one of its own; the draft\'s weights and KV cache share the GPUs, on the model\'s TP where its heads split so, '
    + 'and a replica is one pipeline stage, as vLLM runs it',
]);

/** Why speculation wins or loses, said beside the plan without it. */
export const SPECULATION_TRADE = 'speculation pays while decoding is memory-bound (a small batch reads the weights and KV cache once for γ + 1 tokens) '
  + 'and loses once a large batch makes it compute-bound (γ + 1 tokens cost γ + 1 times the FLOPs)';
