import { MODEL_IDS } from '@trainplan/presets';
import type { Match } from './match.ts';
import { DECIMAL } from './numbers.ts';

/**
 * Model families no preset has, named back and declined, never read as the preset of the size beside them:
 * "Mistral 7B" is no Llama 2 7B (its vocabulary, attention and shape differ), and a mixture-of-experts model
 * ("Mixtral 8x7B") is no dense decoder of any size. As hardware no preset models is (hardware.ts).
 */

const FAMILIES: readonly { word: string; name: string; moe?: true }[] = [
  { word: 'mixtral', name: 'Mixtral', moe: true },
  { word: 'dbrx', name: 'DBRX', moe: true },
  { word: 'grok', name: 'Grok', moe: true },
  { word: 'mistral', name: 'Mistral' },
  { word: 'qwen', name: 'Qwen' },
  { word: 'gemma', name: 'Gemma' },
  { word: 'falcon', name: 'Falcon' },
  { word: 'deepseek', name: 'DeepSeek' },
  { word: 'phi', name: 'Phi' },
  { word: 'olmo', name: 'OLMo' },
];

/**
 * The family, an optional version ("qwen 2.5", "qwen2", "deepseek v3", "phi-3": never the digits of a size, "mistral 7b")
 * and an optional size in billions. Phi needs its version: "phi" alone is a word.
 */
const pattern = (word: string): RegExp => new RegExp(String.raw`\b${word}(?:[\s-]*v?${DECIMAL}(?![\d.]*\s*b\b))${word === 'phi' ? '' : '?'}(?:[\s-]*(${DECIMAL})\s*b\b)?`);
const PATTERNS = FAMILIES.map((f) => ({ ...f, pattern: pattern(f.word) }));

export type UnmodelledModel = Match & { problem: string };

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
 * Versions of modelled families that no preset is ("gpt2", "GPT-4", "llama4 scout"): named back as not known, with known
 * models to ask for, never the generic "name a model" (QA: the name was typed, and the answer said none was).
 */
const GPT_NAMES: Readonly<Record<string, string>> = { neox: 'NeoX', neo: 'Neo' };
const UNKNOWN_VERSIONS: readonly { pattern: RegExp; name: (m: RegExpExecArray) => string }[] = [
  { pattern: /\bgpt[\s-]*(2|4o?|j|neox|neo)\b/, name: (m) => `GPT-${GPT_NAMES[m[1] ?? ''] ?? (m[1] ?? '').toUpperCase()}` },
  { pattern: /\bllama[\s-]*(1|4)(?![\d.])(?:[\s-]*(scout|maverick|behemoth))?\b/, name: (m) => `Llama ${m[1] ?? ''}${m[2] === undefined ? '' : ` ${m[2].charAt(0).toUpperCase()}${m[2].slice(1)}`}` },
];

/** "with 8 experts", "8 experts top-2", "top-2 routing" after the kind's name: the same model, in the same span. */
const EXPERTS_AFTER = String.raw`(?:[\s,]+(?:with\s+)?\d+\s+(?:routed\s+)?experts\b)?(?:[\s,]+(?:and\s+)?top[\s-]*\d+(?:\s+routing)?\b)?`;
const moeSize = (group: string): string => String.raw`(?<![\w.])(?<${group}>${DECIMAL}\s*[bt])[\s-]*(?:param(?:eter)?s?[\s-]+)?`;
/**
 * A mixture-of-experts model named by its kind, not its family: "a 671B MoE", "a mixture of experts 8x22B model", "47B with 8
 * experts", "8x7B" (experts × each one's size). Every preset is a dense decoder: planned dense, the experts' parameters would
 * all count in every token's FLOPs (QA: "a 671b moe model" and "a 47B MoE with 8 experts top-2" were planned dense, unsaid).
 * The size written before it is part of the span, so it is never read again as a dense model of that size.
 */
const MOE = new RegExp([
  String.raw`(?:${moeSize('size')})?(?:sparse[\s-]*)?(?:\bmoe\b|\bmixture[\s-]*of[\s-]*experts?\b)(?:[\s-]*(?<experts>\d+\s*x\s*${DECIMAL}\s*[bt])\b)?${EXPERTS_AFTER}`,
  String.raw`(?<![\w.])(?<grid>\d+\s*x\s*${DECIMAL}\s*b)\b(?:[\s-]*(?:sparse[\s-]*)?(?:moe|mixture[\s-]*of[\s-]*experts?)\b)?${EXPERTS_AFTER}`,
  String.raw`(?:${moeSize('total')}(?:\s+\S+){0,3}?\s+)?\b\d+\s+(?:routed\s+)?experts\b`,
].join('|'));

/** "a 671B mixture-of-experts model is not modelled …": the size as written, where one is. */
function moeProblem(m: RegExpExecArray): string {
  const size = (m.groups?.size ?? m.groups?.experts ?? m.groups?.grid ?? m.groups?.total)?.replace(/\s+/g, '').toUpperCase().replace('X', 'x');
  return `a mixture-of-experts model${size === undefined ? '' : ` (${size})`} is not modelled: every preset is a dense decoder, and planned dense its experts' parameters would all count in every token's FLOPs`;
}

/** A few preset ids to name where a model is not known. */
const KNOWN_EXAMPLES = ['gpt3-175b', 'llama3-8b', 'llama3-70b', 'llama3.1-405b', 'mt-nlg-530b'].filter((id) => (MODEL_IDS as readonly string[]).includes(id));

/** A model family the presets do not model, with why and what to ask instead. */
export function matchUnmodelledModel(text: string): UnmodelledModel | undefined {
  for (const u of UNKNOWN_VERSIONS) {
    const m = u.pattern.exec(text);
    if (m) return { index: m.index, length: m[0].length, problem: `${u.name(m)} is not a known model; known ones include ${KNOWN_EXAMPLES.join(', ')} (or a size, e.g. "a 7B model", planned as a GPT-style decoder)` };
  }
  for (const f of PATTERNS) {
    const m = f.pattern.exec(text);
    if (!m) continue;
    const where = { index: m.index, length: m[0].length };
    if (f.moe === true) return { ...where, problem: `${f.name} is not modelled: a mixture-of-experts model, which no preset is (every preset is a dense decoder)` };
    const size = m[1] === undefined ? undefined : `${m[1]}B`;
    const instead = size === undefined ? 'name a preset (llama3-70b) or a size ("a 70B model")' : `ask for "a ${size} model" to plan a GPT-style decoder of that size`;
    return { ...where, problem: `${f.name}${size === undefined ? '' : ` ${size}`} is not modelled (no preset has its shape); ${instead}` };
  }
  const moe = MOE.exec(text);
  if (moe) return { index: moe.index, length: moe[0].length, problem: moeProblem(moe) };
  return undefined;
}
