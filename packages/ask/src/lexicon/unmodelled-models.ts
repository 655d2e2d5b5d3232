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

/** A model family the presets do not model, with why and what to ask instead. */
export function matchUnmodelledModel(text: string): UnmodelledModel | undefined {
  for (const f of PATTERNS) {
    const m = f.pattern.exec(text);
    if (!m) continue;
    const where = { index: m.index, length: m[0].length };
    if (f.moe === true) return { ...where, problem: `${f.name} is not modelled: a mixture-of-experts model, which no preset is (every preset is a dense decoder)` };
    const size = m[1] === undefined ? undefined : `${m[1]}B`;
    const instead = size === undefined ? 'name a preset (llama3-70b) or a size ("a 70B model")' : `ask for "a ${size} model" to plan a GPT-style decoder of that size`;
    return { ...where, problem: `${f.name}${size === undefined ? '' : ` ${size}`} is not modelled (no preset has its shape); ${instead}` };
  }
  return undefined;
}
