import { MODEL_IDS } from '@trainplan/presets';
import { SHAPE_AS_MODEL_OBJECT, sizeOrShape } from '../custom-model.ts';
import type { Match } from './match.ts';
import { DECIMAL } from './numbers.ts';
import { matchUnmodelledArchitecture } from './unmodelled-architectures.ts';
import { type ActiveParameters, matchMoeModel } from './unmodelled-moe.ts';

/**
 * Model families no preset has, named back and declined, never read as the preset of the size beside them:
 * "Mistral 7B" is no Llama 2 7B (its vocabulary, attention and shape differ); a mixture-of-experts model ("Mixtral 8x7B",
 * unmodelled-moe.ts) is no dense decoder of any size, and another architecture ("T5", "Mamba": unmodelled-architectures.ts)
 * no decoder at all. As hardware no preset models is (hardware.ts).
 */

const FAMILIES: readonly { word: string; name: string }[] = [
  { word: 'mistral', name: 'Mistral' },
  { word: 'qwen', name: 'Qwen' },
  { word: 'gemma', name: 'Gemma' },
  { word: 'falcon', name: 'Falcon' },
  { word: 'deepseek', name: 'DeepSeek' },
  { word: 'phi', name: 'Phi' },
  { word: 'olmo', name: 'OLMo' },
];

/**
 * The family, an optional version ("qwen 2.5", "qwen2", "phi-3": never the digits of a size, "mistral 7b")
 * and an optional size in billions. Phi needs its version: "phi" alone is a word.
 */
const pattern = (word: string): RegExp => new RegExp(String.raw`\b${word}(?:[\s-]*v?${DECIMAL}(?![\d.]*\s*b\b))${word === 'phi' ? '' : '?'}(?:[\s-]*(${DECIMAL})\s*b\b)?`);
const PATTERNS = FAMILIES.map((f) => ({ ...f, pattern: pattern(f.word) }));

/** `active`: the active parameters stated, where the model was declined for them (unmodelled-moe.ts), for models.ts to weigh against its total. */
export type UnmodelledModel = Match & { problem: string; active?: ActiveParameters };

/**
 * Families no preset has whose names come before a size the presets do have or shape ("palm 540b", "codellama 34b", "yi 34b",
 * "opt-175b"): the size is planned, and the reading says the name was not (QA: "palm 540b" read as MT-NLG 530B unsaid).
 */
const OTHER_NAMES: readonly { pattern: RegExp; name: string; llama?: true }[] = [
  { pattern: /\bpalm[\s-]*\d*$/, name: 'PaLM' },
  // Code Llama is Llama 2 trained on code (Rozière et al. 2023) and Yi the Llama architecture (01.AI, Young et al. 2024):
  // a size no preset has is shaped Llama-style, never GPT-style (QA: "codellama 34b" was GPT-style, "code llama 34B" Llama-style).
  { pattern: /\bcode[\s-]*llama[\s-]*$/, name: 'Code Llama', llama: true },
  { pattern: /\byi[\s-]*(?:\d(?:\.\d)?[\s-]*)?$/, name: 'Yi', llama: true },
  { pattern: /\bopt[\s-]*$/, name: 'OPT' },
  { pattern: /\bgopher[\s-]*$/, name: 'Gopher' },
  { pattern: /\bmpt[\s-]*$/, name: 'MPT' },
  { pattern: /\bpythia[\s-]*$/, name: 'Pythia' },
  { pattern: /\bstarcoder\d?[\s-]*$/, name: 'StarCoder' },
  { pattern: /\bbaichuan\d?[\s-]*$/, name: 'Baichuan' },
  { pattern: /\binternlm\d?[\s-]*$/, name: 'InternLM' },
  { pattern: /\bvicuna[\s-]*$/, name: 'Vicuna' },
];

/** The family named just before a size at `index`, if it is one no preset has ("PaLM" before "540b"). */
export const otherNameBefore = (text: string, index: number): { name: string; llama: boolean } | undefined => {
  const other = OTHER_NAMES.find((o) => o.pattern.test(text.slice(0, index)));
  return other === undefined ? undefined : { name: other.name, llama: other.llama === true };
};

/**
 * Versions of modelled families that no preset is ("gpt2", "GPT-4", "llama 1"): named back as not known, with known
 * models to ask for, never the generic "name a model" (QA: the name was typed, and the answer said none was).
 */
const GPT_NAMES: Readonly<Record<string, string>> = { neox: 'NeoX', neo: 'Neo' };
const UNKNOWN_VERSIONS: readonly { pattern: RegExp; name: (m: RegExpExecArray) => string }[] = [
  { pattern: /\bgpt[\s-]*(2|4o?|j|neox|neo)\b/, name: (m) => `GPT-${GPT_NAMES[m[1] ?? ''] ?? (m[1] ?? '').toUpperCase()}` },
  // Llama 4 is a mixture of experts, declined as one (unmodelled-moe.ts).
  { pattern: /\bllama[\s-]*1(?![\d.])\b/, name: () => 'Llama 1' },
];

/** A few preset ids to name where a model is not known. */
const KNOWN_EXAMPLES = ['gpt3-175b', 'llama3-8b', 'llama3-70b', 'llama3.1-405b', 'mt-nlg-530b'].filter((id) => (MODEL_IDS as readonly string[]).includes(id));

/**
 * A model the presets do not model, with why and what to ask instead: a version no preset is, another architecture, a
 * mixture of experts (each before the dense families: "OLMoE" is no OLMo, "Qwen3-235B-A22B" no dense Qwen), a dense family.
 */
export function matchUnmodelledModel(text: string): UnmodelledModel | undefined {
  for (const u of UNKNOWN_VERSIONS) {
    const m = u.pattern.exec(text);
    if (m) {
      return {
        index: m.index, length: m[0].length,
        problem: `${u.name(m)} is not a known model; known ones include ${KNOWN_EXAMPLES.join(', ')} (or a size, e.g. "a 7B model", planned as a GPT-style decoder), ${SHAPE_AS_MODEL_OBJECT}`,
      };
    }
  }
  const other = matchUnmodelledArchitecture(text) ?? matchMoeModel(text);
  if (other !== undefined) return other;
  for (const f of PATTERNS) {
    const m = f.pattern.exec(text);
    if (!m) continue;
    const size = m[1] === undefined ? undefined : `${m[1]}B`;
    const instead = size === undefined ? `name a preset (llama3-70b) or a size ("a 70B model"), ${SHAPE_AS_MODEL_OBJECT}` : sizeOrShape(size);
    return { index: m.index, length: m[0].length, problem: `${f.name}${size === undefined ? '' : ` ${size}`} is not modelled (no preset has its shape); ${instead}` };
  }
  return undefined;
}
