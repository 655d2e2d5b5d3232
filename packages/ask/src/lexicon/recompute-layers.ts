import { NUMBER_WORD, NUMBER_WORDS } from './numbers.ts';
import type { Scanner } from './quantities.ts';

/**
 * Full recompute of some layers a stage ("recompute 4 layers", "full recompute of 4 layers per stage", Megatron's
 * --recompute-num-layers 4 with --recompute-method block): the scenario's parallelism.recomputeLayers, with recompute
 * "full". Read before the settings no plan models, whose layer count ("with 60 layers") is the model's shape, said not read.
 */

/** A count of layers: digits or a word ("recompute four layers"). */
const N = String.raw`(?<n>\d+|${NUMBER_WORD})`;
/** "per stage", "a stage", "/stage", "of each pipeline stage". */
const PER_STAGE = String.raw`(?:\s?(?:(?:per|a|each|of\severy|of\seach)\s|\/\s?)(?:pipeline\s)?stage)?`;
/**
 * Recompute's name before the count, named group `mode` where it names full recompute itself ("full recompute", "activation
 * checkpointing"): those words stay in the text for the recompute's mode (recompute.ts). QA: "with full recompute of 4 layers
 * per stage" on a search planned no recompute, the "full" taken with the count and the count then dropped.
 */
const NAME_BEFORE = String.raw`\b(?:(?:with|using)\s)?(?:(?<mode>full\s(?:activation\s)?recomput\w*|(?:activation|gradient)\scheckpoint\w*)|(?:activation\s)?recomput\w*|checkpoint\w*)`;
const LAYERS = [
  new RegExp(String.raw`${NAME_BEFORE}\s(?:of\s)?(?:only\s)?(?:the\s)?(?:first\s)?${N}\slayers?${PER_STAGE}\b`, 'd'),
  new RegExp(String.raw`\brecompute[\s-]*num[\s-]*layers?\s?(?:=|:|of)?\s?${N}\b`, 'd'),
  new RegExp(String.raw`\b${N}\s(?:recomputed\slayers|layers?\srecomputed)${PER_STAGE}\b`, 'd'),
];
/**
 * Megatron's --recompute-method: under "uniform", --recompute-num-layers is the size of each unit recomputed and every layer
 * is recomputed (Megatron-Core TransformerConfig.recompute_method); under "block", the layers recomputed a stage.
 */
const METHOD = /\brecompute[\s-]*method\s?(?:=|:)?\s?(?<method>uniform|block)\b/;

/** The layers recomputed a stage, or every layer (Megatron's uniform method), and the words read. */
type RecomputeLayersRead = { layers: number; written: string } | { allLayers: true; written: string };

/**
 * The layers recomputed a stage and the words read, taken out of the text (less the words that name full recompute, left for
 * its mode); undefined where none are said.
 */
export function takeRecomputeLayers(s: Scanner): RecomputeLayersRead | undefined {
  const method = s.take(METHOD);
  for (const pattern of LAYERS) {
    const m = pattern.exec(s.text);
    if (m === null) continue;
    const kept = m.indices?.groups?.mode;
    const from = kept === undefined ? m.index : kept[1];
    s.blank({ index: from, length: m.index + m[0].length - from });
    const n = m.groups?.n ?? '';
    if (method?.groups?.method === 'uniform') return { allLayers: true, written: method[0].trim() };
    return { layers: NUMBER_WORDS[n] ?? Number(n), written: m[0].trim() };
  }
  // "Block" with no count says no layers; "uniform" alone, every layer.
  return method?.groups?.method === 'uniform' ? { allLayers: true, written: method[0].trim() } : undefined;
}
