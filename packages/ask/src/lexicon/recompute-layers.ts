import type { Scanner } from './quantities.ts';

/**
 * Full recompute of some layers a stage ("recompute 4 layers", "full recompute of 4 layers per stage", Megatron's
 * --recompute-num-layers 4 with --recompute-method block): the scenario's parallelism.recomputeLayers, with recompute
 * "full". Read before the settings no plan models, whose layer count ("with 60 layers") is the model's shape, said not read.
 */
const LAYERS = [
  /\b(?:(?:with|using)\s+)?(?:full\s+)?(?:activation\s+)?(?:recomput\w*|checkpoint\w*)\s+(?:of\s+)?(?:only\s+)?(?:the\s+)?(?:first\s+)?(\d+)\s+layers?(?:\s+(?:per|a|each|of\s+each)\s+(?:pipeline\s+)?stage)?\b/,
  /\brecompute[\s-]*num[\s-]*layers?\s*(?:=|:|of)?\s*(\d+)\b/,
  /\b(\d+)\s+(?:recomputed\s+layers|layers?\s+recomputed)(?:\s+(?:per|a|each)\s+(?:pipeline\s+)?stage)?\b/,
];

/** The layers recomputed a stage and the words read, taken out of the text; undefined where none are said. */
export function takeRecomputeLayers(s: Scanner): { layers: number; written: string } | undefined {
  for (const pattern of LAYERS) {
    const m = s.take(pattern);
    if (m !== undefined) return { layers: Number(m[1]), written: m[0].trim() };
  }
  return undefined;
}
