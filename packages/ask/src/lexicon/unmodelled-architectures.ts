import { DECODERS_PLANNED } from '../custom-model.ts';
import type { Match } from './match.ts';
import { DECIMAL } from './numbers.ts';

/**
 * Architectures other than a decoder-only transformer language model, named back and declined, never planned as the
 * GPT- or Llama-style decoder of the size beside them: the planner's FLOPs and memory are a decoder's (packages/model),
 * and a state-space layer, an encoder stack or an image encoder has others. QA: "a 7B vision-language model", "a mamba
 * 7B", "T5-11B", "an 11B encoder-decoder", "Jamba 52B" were planned as Llama 2 7B and GPT-style decoders with nothing said.
 */

interface Architecture {
  pattern: string;
  /** The model as the refusal names it, from the words matched ("flan-t5" → "Flan-T5"). */
  name: (words: string) => string;
  /** What it is, and why a decoder's plan is not its plan. */
  why: string;
}

const VISION_LANGUAGE = 'an image encoder and a projector feed the language model image tokens that a decoder\'s plan does not count (LLaVA: Liu et al. 2023, arXiv:2304.08485)';
const STATE_SPACE = 'its layers have no attention, and their FLOPs and memory are not a transformer\'s (Mamba: Gu & Dao 2023, arXiv:2312.00752)';
const ENCODER_DECODER = 'an encoder stack and a decoder stack joined by cross-attention (T5: Raffel et al. 2020, arXiv:1910.10683)';
const ENCODER_ONLY = 'bidirectional attention trained on masked tokens, and no decoder (BERT: Devlin et al. 2019, arXiv:1810.04805)';

/** Each kind, matched on the normalised text; a size before or after it is part of the span (SIZED). */
const ARCHITECTURES: readonly Architecture[] = [
  { pattern: String.raw`llava(?:[\s-]*(?:1\.5|next))?`, name: () => 'LLaVA', why: `a vision-language model: ${VISION_LANGUAGE}` },
  { pattern: String.raw`vision[\s-]*language(?:[\s-]*models?)?|vlms?`, name: () => 'a vision-language model', why: VISION_LANGUAGE },
  { pattern: String.raw`multi[\s-]*modal(?:[\s-]*(?:llms?|models?))?`, name: () => 'a multimodal model', why: VISION_LANGUAGE },
  {
    pattern: String.raw`vision[\s-]*transformers?|vit`, name: () => 'a vision transformer',
    why: 'an image encoder over patches, with no language-model head or token budget (ViT: Dosovitskiy et al. 2021, arXiv:2010.11929)',
  },
  // Before Mamba: Jamba holds Mamba layers, and its name ends in "amba".
  {
    pattern: String.raw`jamba(?:[\s-]*(?:1\.5|mini|large))*`, name: () => 'Jamba',
    why: 'a hybrid of Transformer and Mamba layers with mixture-of-experts, 52B total and 12B active parameters (Lieber et al. 2024, arXiv:2403.19887)',
  },
  { pattern: String.raw`mamba(?:[\s-]*2(?![\d.]*\s*[bmt]\b))?`, name: () => 'Mamba', why: `a state-space model: ${STATE_SPACE}` },
  { pattern: String.raw`state[\s-]*space(?:[\s-]*models?)?|ssms?`, name: () => 'a state-space model', why: STATE_SPACE },
  { pattern: String.raw`rwkv(?:[\s-]*v?\d+(?![\d.]*\s*[bmt]\b))?`, name: () => 'RWKV', why: 'a recurrent model with no attention (Peng et al. 2023, arXiv:2305.13048)' },
  {
    pattern: String.raw`(?:flan[\s-]*|m|byt)?t5(?:[\s-]*v1\.1)?(?:[\s-]*(?:small|base|large|xxl|xl))?|ul2`,
    name: (w) => (/^flan/.test(w) ? 'Flan-T5' : /^byt/.test(w) ? 'ByT5' : /^mt/.test(w) ? 'mT5' : /^ul2/.test(w) ? 'UL2' : 'T5'),
    why: `an encoder-decoder: ${ENCODER_DECODER}`,
  },
  { pattern: String.raw`encoder[\s-]*decoder(?:[\s-]*models?)?|seq2seq(?:[\s-]*models?)?`, name: () => 'an encoder-decoder model', why: ENCODER_DECODER },
  { pattern: String.raw`encoder[\s-]*only(?:[\s-]*models?)?`, name: () => 'an encoder-only model', why: ENCODER_ONLY },
  {
    pattern: String.raw`(?:ro|de)?bert(?:a)?(?:[\s-]*(?:base|large|v\d))?`,
    name: (w) => `${/^ro/.test(w) ? 'RoBERTa' : /^de/.test(w) ? 'DeBERTa' : 'BERT'}${/large/.test(w) ? '-large' : /base/.test(w) ? '-base' : ''}`,
    why: `an encoder-only model: ${ENCODER_ONLY}`,
  },
  {
    pattern: String.raw`(?:stable[\s-]*)?diffusion(?:[\s-]*(?:models?|transformers?))?`, name: () => 'a diffusion model',
    why: 'it denoises images or latents over many steps, with no decoder\'s token budget (Ho et al. 2020, arXiv:2006.11239)',
  },
];

const SIZE = String.raw`${DECIMAL}\s*[bmt]`;
/** "a 7B vision-language model", "mamba 7b", "t5-11b": the size read with the kind, never again as a decoder of that size. */
const sized = (kind: string): RegExp =>
  new RegExp(String.raw`(?:(?<![\w.])(?<before>${SIZE})[\s-]*(?:param(?:eter)?s?[\s-]+)?)?\b(?<kind>${kind})\b(?:[\s-]*(?<after>${SIZE})\b)?`);
const PATTERNS = ARCHITECTURES.map((a) => ({ ...a, pattern: sized(a.pattern) }));

/** "T5 11B", "a vision-language model (7B)": the kind with the size asked, where one was. */
function named(a: Pick<Architecture, 'name'>, kind: string, size: string | undefined): string {
  const name = a.name(kind);
  if (size === undefined) return name;
  const asked = size.replace(/\s+/g, '').toUpperCase();
  return /^an? /.test(name) ? `${name} (${asked})` : `${name} ${asked}`;
}

/** An architecture the planner does not model, with why: its span covers the size written with it. */
export function matchUnmodelledArchitecture(text: string): (Match & { problem: string }) | undefined {
  for (const a of PATTERNS) {
    const m = a.pattern.exec(text);
    if (!m) continue;
    const kind = m.groups?.kind ?? '';
    const problem = `${named(a, kind, m.groups?.before ?? m.groups?.after)} is not modelled: ${a.why}; ${DECODERS_PLANNED}`;
    return { index: m.index, length: m[0].length, problem };
  }
  return undefined;
}
