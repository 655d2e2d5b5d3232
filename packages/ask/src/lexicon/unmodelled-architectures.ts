import { billion } from '@trainplan/units';
import { DECODERS_PLANNED } from '../custom-model.ts';
import type { Match } from './match.ts';
import type { Scanner } from './quantities.ts';
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
  /**
   * Whether the words name a model alone ("LLaVA", "a VLM", "T5", "BERT"), or only a kind of one that needs a model's word or
   * a size beside it to name the model planned ("multimodal", "vision-language", "encoder-decoder": "multimodal data" is data).
   */
  noun: boolean;
  /** A vision-language model: with a preset named, planned as its text decoder and said so (visionLanguageNote). */
  vision?: true;
}

const LLAVA = 'LLaVA: Liu et al. 2023, arXiv:2304.08485';
const VISION_LANGUAGE = `an image encoder and a projector feed the language model image tokens that a decoder's plan does not count (${LLAVA})`;
const DIFFUSION = 'it denoises images or latents over many steps, with no decoder\'s token budget (Ho et al. 2020, arXiv:2006.11239)';
const STATE_SPACE = 'its layers have no attention, and their FLOPs and memory are not a transformer\'s (Mamba: Gu & Dao 2023, arXiv:2312.00752)';
const ENCODER_DECODER = 'an encoder stack and a decoder stack joined by cross-attention (T5: Raffel et al. 2020, arXiv:1910.10683)';
const ENCODER_ONLY = 'bidirectional attention trained on masked tokens, and no decoder (BERT: Devlin et al. 2019, arXiv:1810.04805)';

/** Each kind, matched on the normalised text; a size before or after it is part of the span (SIZED). */
const ARCHITECTURES: readonly Architecture[] = [
  { pattern: String.raw`llava(?:[\s-]*(?:1\.5|next))?`, name: () => 'LLaVA', why: `a vision-language model: ${VISION_LANGUAGE}`, noun: true, vision: true },
  { pattern: String.raw`vision[\s-]*language`, name: () => 'a vision-language model', why: VISION_LANGUAGE, noun: false, vision: true },
  { pattern: String.raw`vlms?`, name: () => 'a vision-language model', why: VISION_LANGUAGE, noun: true, vision: true },
  { pattern: String.raw`multi[\s-]*modal`, name: () => 'a multimodal model', why: VISION_LANGUAGE, noun: false, vision: true },
  {
    pattern: String.raw`vision[\s-]*transformers?|vit`, name: () => 'a vision transformer', noun: true,
    why: 'an image encoder over patches, with no language-model head or token budget (ViT: Dosovitskiy et al. 2021, arXiv:2010.11929)',
  },
  // Before Mamba: Jamba holds Mamba layers, and its name ends in "amba".
  {
    pattern: String.raw`jamba(?:[\s-]*(?:1\.5|mini|large))*`, name: () => 'Jamba', noun: true,
    why: 'a hybrid of Transformer and Mamba layers with mixture-of-experts, 52B total and 12B active parameters (Lieber et al. 2024, arXiv:2403.19887)',
  },
  { pattern: String.raw`mamba(?:[\s-]*2(?![\d.]*\s*[bmt]\b))?`, name: () => 'Mamba', why: `a state-space model: ${STATE_SPACE}`, noun: true },
  { pattern: String.raw`state[\s-]*space`, name: () => 'a state-space model', why: STATE_SPACE, noun: false },
  { pattern: String.raw`ssms?`, name: () => 'a state-space model', why: STATE_SPACE, noun: true },
  { pattern: String.raw`rwkv(?:[\s-]*v?\d+(?![\d.]*\s*[bmt]\b))?`, name: () => 'RWKV', why: 'a recurrent model with no attention (Peng et al. 2023, arXiv:2305.13048)', noun: true },
  {
    pattern: String.raw`(?:flan[\s-]*|m|byt)?t5(?:[\s-]*v1\.1)?(?:[\s-]*(?:small|base|large|xxl|xl))?|ul2`,
    name: (w) => (/^flan/.test(w) ? 'Flan-T5' : /^byt/.test(w) ? 'ByT5' : /^mt/.test(w) ? 'mT5' : /^ul2/.test(w) ? 'UL2' : 'T5'),
    why: `an encoder-decoder: ${ENCODER_DECODER}`, noun: true,
  },
  // A noun as it is used ("train an encoder-decoder"), unlike "encoder-only", which qualifies a model.
  { pattern: String.raw`encoder[\s-]*decoder`, name: () => 'an encoder-decoder model', why: ENCODER_DECODER, noun: true },
  { pattern: String.raw`seq2seq`, name: () => 'an encoder-decoder model', why: ENCODER_DECODER, noun: true },
  { pattern: String.raw`encoder[\s-]*only`, name: () => 'an encoder-only model', why: ENCODER_ONLY, noun: false },
  {
    pattern: String.raw`(?:ro|de)?bert(?:a)?(?:[\s-]*(?:base|large|v\d))?`,
    name: (w) => `${/^ro/.test(w) ? 'RoBERTa' : /^de/.test(w) ? 'DeBERTa' : 'BERT'}${/large/.test(w) ? '-large' : /base/.test(w) ? '-base' : ''}`,
    why: `an encoder-only model: ${ENCODER_ONLY}`, noun: true,
  },
  { pattern: String.raw`stable[\s-]*diffusion`, name: () => 'a diffusion model', why: DIFFUSION, noun: true },
  { pattern: String.raw`diffusion`, name: () => 'a diffusion model', why: DIFFUSION, noun: false },
];

const SIZE = String.raw`${DECIMAL}\s*[bmt]`;
/** A model's word after the kind ("a multimodal model", "a vision-language LLM", "a diffusion transformer"): the kind names the model. */
const MODEL_WORD = String.raw`models?|llms?|lms?|networks?|nets?|transformers?|architectures?`;
/**
 * Words after an architecture's name that it qualifies, not the model planned: "the T5 tokenizer", "a BERT classifier",
 * "multimodal data", "our multimodal team", "1T multimodal tokens" (QA: the first four each declined a 7B model as that
 * architecture). Not a model's parts ("mamba layers"): a model holding them is of that architecture.
 */
const NOT_THE_MODEL = String.raw`tokeni[sz]ers?|tokeni[sz]ation|tokens?|vocab(?:ular(?:y|ies))?|classifiers?|classification|filters?|filtering|scor(?:er|ers|ing)|judges?|rerankers?|retrievers?|embedd(?:er|ers|ings?)|encoders?|features?|labels?|labell?ing|data(?:sets?)?|corp(?:us|ora)|mix(?:es|tures?)?|samples?|inputs?|images?|captions?|pairs?|teams?|groups?|labs?|folks|people|baselines?|benchmarks?|evals?|evaluations?|papers?|teachers?|distillation|pipelines?`;

/**
 * "a 7B vision-language model", "mamba 7b", "t5-11b": the size read with the kind, never again as a decoder of that size. The
 * word after is looked at (`next`) to tell the model planned from what the kind qualifies (NOT_THE_MODEL).
 */
const sized = (kind: string): RegExp =>
  new RegExp(String.raw`(?:(?<![\w.])(?<before>${SIZE})[\s-]*(?:param(?:eter)?s?[\s-]+)?)?\b(?<kind>${kind})\b(?:[\s-]*(?<after>${SIZE})\b)?(?:[\s-]+(?<model>${MODEL_WORD})\b)?(?=(?<next>[\s-]+[a-z]+)?)`, 'g');
const PATTERNS = ARCHITECTURES.map((a) => ({ ...a, pattern: sized(a.pattern) }));
/** A name after "with", "using", "via" or "by" is a tool of the run ("deduplicated with BERT"), unless sized or called a model. */
const TOOL_BEFORE = /\b(?:with|using|via|by)\s+(?:(?:an?|the|our|my|their)\s+)?$/;
const NOT_THE_MODEL_NEXT = new RegExp(String.raw`^[\s-]+(?:${NOT_THE_MODEL})$`);

/**
 * Whether an architecture's words name the model the question plans: "a 7B multimodal model", "a vision-language 7B", "T5-11B",
 * "train BERT-large", "llava with llama3-8b"; never "multimodal data", "our multimodal team", "the T5 tokenizer", "a BERT
 * classifier" (QA: each declined a 7B model planned on that data or with that tool).
 */
function namesModel(a: Pick<Architecture, 'noun'>, m: RegExpExecArray, text: string): boolean {
  const next = m.groups?.next;
  if (m.groups?.model === undefined && next !== undefined && NOT_THE_MODEL_NEXT.test(next)) return false;
  if (m.groups?.before !== undefined || m.groups?.after !== undefined || m.groups?.model !== undefined) return true;
  return a.noun && !TOOL_BEFORE.test(text.slice(0, m.index));
}

/** "T5 11B", "a vision-language model (7B)": the kind with the size asked, where one was. */
function named(a: Pick<Architecture, 'name'>, kind: string, size: string | undefined): string {
  const name = a.name(kind);
  if (size === undefined) return name;
  const asked = size.replace(/\s+/g, '').toUpperCase();
  return /^an? /.test(name) ? `${name} (${asked})` : `${name} ${asked}`;
}

/** The first match of each kind's pattern that names the model planned (namesModel), the kinds in their order. */
function* modelsNamed(text: string): Generator<{ a: Omit<Architecture, 'pattern'>; m: RegExpExecArray }> {
  for (const a of PATTERNS) {
    a.pattern.lastIndex = 0;
    for (let m = a.pattern.exec(text); m !== null; m = a.pattern.exec(text)) {
      if (namesModel(a, m, text)) {
        yield { a, m };
        break;
      }
    }
  }
}

/** An architecture the planner does not model, with why: its span covers the size written with it. */
export function matchUnmodelledArchitecture(text: string): (Match & { problem: string }) | undefined {
  for (const { a, m } of modelsNamed(text)) {
    const kind = m.groups?.kind ?? '';
    const problem = `${named(a, kind, m.groups?.before ?? m.groups?.after)} is not modelled: ${a.why}; ${DECODERS_PLANNED}`;
    return { index: m.index, length: m[0].length, problem };
  }
  return undefined;
}

/**
 * A vision-language model named beside a preset ("train llava with llama3-8b", "llama3-8b as a multimodal model"), taken out of
 * the text (never a second model said not compared) and said: the preset is planned as the text decoder alone, its image
 * encoder and projector not counted. Undefined where none is named (QA: the preset was planned with nothing said of it).
 */
export function takeVisionLanguage(s: Scanner, modelName: string): { reading: string } | undefined {
  for (const { a, m } of modelsNamed(s.text)) {
    if (a.vision !== true) continue;
    s.blank({ index: m.index, length: m[0].length });
    return {
      reading: `${modelName} planned as the text decoder of ${a.name(m.groups?.kind ?? '')} alone: the image encoder and the projector that feed it image tokens are not modelled (${LLAVA})`,
    };
  }
  return undefined;
}

/**
 * Llama 3.2's 11B and 90B are its Vision models (Meta's Llama 3.2 model card, 2024-09-25: Llama 3.1 8B and 70B with a
 * separately trained vision adapter of cross-attention layers feeding them an image encoder's output): declined as
 * vision-language models, never planned as Llama 3.2-style text decoders of that size, with the text model each is built on.
 */
const LLAMA_32_VISION: readonly { sizeB: number; text: string }[] = [{ sizeB: 11, text: 'llama3.1-8b' }, { sizeB: 90, text: 'llama3.1-70b' }];

/** Why a Llama 3.2 of `parameters` is declined as a Vision model; undefined for the text sizes. */
export function llamaVisionProblem(parameters: number): string | undefined {
  const vision = LLAMA_32_VISION.find((v) => billion(v.sizeB) === parameters);
  if (vision === undefined) return undefined;
  return `Llama 3.2 ${vision.sizeB}B is Llama 3.2 ${vision.sizeB}B Vision, a vision-language model: ${vision.text} with an image encoder and a vision adapter `
    + `of cross-attention layers that a decoder's plan does not count (Meta's Llama 3.2 model card, 2024-09-25); ask for ${vision.text} to plan its text decoder alone`;
}
