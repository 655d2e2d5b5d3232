import { MODEL_IDS } from '@trainplan/presets';
import { editDistance } from '@trainplan/protocol';
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
  // DeepMind's 70B (Hoffmann et al. 2022), named before its size: said, never read as "chinchilla-optimal" after it.
  { pattern: /\bchinchilla[\s-]*$/, name: 'Chinchilla' },
];

/** Modelled families whose near misses are names no preset has ("lamma", "lama3", "llama9"), said where the size is planned. */
const KNOWN_NAMES = ['llama', 'bloom', 'nemotron', 'megatron'];

/**
 * The name just before a size at `index` no preset has, as the reading says it, and where it begins (the span planned takes it
 * in: "chinchilla 70b" is no budget's "chinchilla" after): a family no preset has ("PaLM 540B is not a
 * preset", before "540b"), or a word glued to the size or a near miss of a family's name, a version after it or not
 * ("\"lamma\" is not a known model name": QA planned "lamma 70b", "lama3-8b", "llama9-70b" as the size's preset, the name unsaid).
 */
export const otherNameBefore = (text: string, index: number, size: string): { said: string; llama: boolean; index: number } | undefined => {
  const before = text.slice(0, index);
  for (const o of OTHER_NAMES) {
    const m = o.pattern.exec(before);
    if (m) return { said: `${o.name} ${size} is not a preset`, llama: o.llama === true, index: m.index };
  }
  const word = /\b([a-z]{3,})((?:[\s-]*v?[\d.]+)?)([\s-]*)$/.exec(before);
  const letters = word?.[1] ?? '';
  const unknown = (word?.[3] === '-' && letters.length > 3) || KNOWN_NAMES.some((n) => editDistance(letters, n) <= (letters.length > 4 ? 2 : 1));
  return word === null || !unknown ? undefined : { said: `"${letters}${word[2]}" is not a known model name`, llama: false, index: word.index };
};

/**
 * Versions of modelled families that no preset is ("gpt2", "GPT-4", "llama 1"): named back as not known, with known
 * models to ask for, never the generic "name a model" (QA: the name was typed, and the answer said none was).
 */
const GPT_NAMES: Readonly<Record<string, string>> = { neox: 'NeoX', neo: 'Neo', j: 'J' };
const UNKNOWN_VERSIONS: readonly { pattern: RegExp; name: (m: RegExpExecArray) => string }[] = [
  // With the size after the name in the span ("gpt-neox-20b", "gpt4-175b": QA said the "-20b" left as another model not
  // compared), and the versions QA found named as no model at all ("gpt-5", "gpt-3.5": "name a model").
  { pattern: new RegExp(String.raw`\bgpt[\s-]*(2|3\.5|4(?:\.\d|o)?|5|j|neox|neo)(?:[\s-]*(?:turbo|mini))?(?:[\s-]*${DECIMAL}\s*b)?\b`), name: (m) => `GPT-${GPT_NAMES[m[1] ?? ''] ?? m[1]}` },
  // Closed models QA found answered "name a model", as if none had been named.
  { pattern: /\b(gemini|claude)(?:[\s-]*(?:[\d.]+|pro|ultra|flash|nano|opus|sonnet|haiku)\b)*/, name: (m) => `${m[1]?.replace(/^./, (c) => c.toUpperCase())}` },
  // Llama 4 is a mixture of experts, declined as one (unmodelled-moe.ts).
  { pattern: /\bllama[\s-]*1(?![\d.])\b/, name: () => 'Llama 1' },
];

/** A few preset ids to name where a model is not known. */
const KNOWN_EXAMPLES = ['gpt3-175b', 'llama3-8b', 'llama3-70b', 'llama3.1-405b', 'mt-nlg-530b'].filter((id) => (MODEL_IDS as readonly string[]).includes(id));

/** Why a model named is not planned: "GPT-4 is not a known model; known ones include …". */
export const notKnownModel = (name: string): string =>
  `${name} is not a known model; known ones include ${KNOWN_EXAMPLES.join(', ')} (or a size, e.g. "a 7B model", planned as a GPT-style decoder), ${SHAPE_AS_MODEL_OBJECT}`;

/**
 * A model the presets do not model, with why and what to ask instead: a version no preset is, another architecture, a
 * mixture of experts (each before the dense families: "OLMoE" is no OLMo, "Qwen3-235B-A22B" no dense Qwen), a dense family.
 */
export function matchUnmodelledModel(text: string): UnmodelledModel | undefined {
  const named = unmodelledNamed(text);
  if (named !== undefined) return named;
  // A near miss of a name declined here, before a size or version ("mistal 7b", "falkon-180b", "quen 72b", "deepsek-v3"), is
  // declined as the name is (QA: each was planned as the preset of its size, Mistral's as Llama 2 7B, the name unsaid).
  const near = /\b([a-z]{4,})(?=[\s-]*v?\d)/g;
  for (const m of text.matchAll(near)) {
    const word = m[1] ?? '';
    const name = NEAR_NAMES.find((n) => word !== n && word !== 'deepspeed' && editDistance(word, n) <= (n.length > 6 ? 2 : 1));
    if (name === undefined) continue;
    const spelt = unmodelledNamed(text.slice(0, m.index) + name + text.slice(m.index + word.length));
    if (spelt !== undefined && spelt.index === m.index) return { ...spelt, length: spelt.length - name.length + word.length };
  }
  return undefined;
}

/** The names a near miss of is read as the name: the dense families here and Mixtral (DeepSpeed, two edits from DeepSeek, is a library). */
const NEAR_NAMES = [...FAMILIES.map((f) => f.word).filter((w) => w.length > 3), 'mixtral'];

function unmodelledNamed(text: string): UnmodelledModel | undefined {
  for (const u of UNKNOWN_VERSIONS) {
    const m = u.pattern.exec(text);
    if (m) {
      return { index: m.index, length: m[0].length, problem: notKnownModel(u.name(m)) };
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
