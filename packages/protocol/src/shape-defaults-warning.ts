import type { ResolvedModelObject } from './resolved.ts';

/**
 * The extension fields a model given by its shape may leave out, each with the contract's default (GPT-2/3's, model/shape.ts
 * withShapeDefaults) and what a Llama sets (presets/model-preset.ts llamaShape; Touvron et al. 2023, arXiv:2302.13971,
 * §2.2: RMSNorm, SwiGLU, rotary embeddings; no biases, as Meta's llama/model.py builds every linear layer with bias=False).
 */
const GPT_DEFAULTS = [
  ['positionEmbedding', '"learned"', '"rotary"'],
  ['normalization', '"layernorm"', '"rmsnorm"'],
  ['linearBias', 'true', 'false'],
] as const;

/**
 * A shape with a gated MLP (SwiGLU, a Llama's) that leaves the other Llama fields to the GPT defaults: the defaults stay
 * (outside tools rely on the contract), but the estimate says which it assumed, since each adds parameters a Llama lacks
 * (QA: Llama 3 8B given by the contract's fields alone counted 8.07 B parameters, not 8.03 B, unwarned).
 */
export function shapeDefaultsWarnings(model: ResolvedModelObject): string[] {
  const left = GPT_DEFAULTS.filter(([field]) => model[field] === undefined);
  return model.gatedMlp && left.length > 0
    ? [`model.gatedMlp is true, as in a Llama, but the fields left out took GPT defaults: ${left.map(([f, gpt, llama]) => `${f} ${gpt} (a Llama's: ${llama})`).join(', ')}`]
    : [];
}
