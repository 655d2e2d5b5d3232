import { gcd } from '@trainplan/units';
import { MODEL_IDS, modelById, type ModelPreset } from '@trainplan/presets';
import type { ShapeFamily } from './custom-model.ts';

/**
 * The width a custom model's layers are built at (custom-model.ts): the family's row nearest in size, or for
 * Llama a width interpolated between the rows either side of the size. Checked against a Llama no preset holds:
 * Llama 1 33B is 60 layers of hidden 6656, 52 heads of 128, FFN 17920 (Touvron et al. 2023a, LLaMA,
 * arXiv:2302.13971, Table 2 for layers, width and heads; the FFN is what Meta's code, below, gives 6656 at its
 * params.json's multiple_of 256), and 30B here comes out at its width, heads and FFN (custom-model.test.ts).
 */

/** A width to build layers on: the row the rest of the shape comes from, and what is taken instead of the row's. */
export interface Width {
  /** The row the vocabulary, sequence length and architecture come from (the nearer, where interpolated). */
  row: ModelPreset;
  hiddenSize: number;
  attentionHeads: number;
  /** Where the width is interpolated: its key/value heads and FFN width (else the row's, by the family's fields). */
  kvHeads?: number;
  ffnHiddenSize?: number;
  /** Where the width is interpolated: the rows either side of the size, smaller first. */
  between?: readonly [ModelPreset, ModelPreset];
}

/** The family's rows, in its prefixes' order (so that ties prefer the first). */
export const rows = (family: ShapeFamily): readonly ModelPreset[] =>
  family.prefixes.flatMap((prefix) => MODEL_IDS.filter((id) => id.startsWith(prefix))).flatMap((id) => modelById(id) ?? []);

/** The row nearest in size on a log scale, so that 30B is nearer 39.1B than 18.4B; a tie keeps the earlier row. */
function nearestRow(family: ShapeFamily, parameters: number): ModelPreset | undefined {
  const distance = (p: ModelPreset): number => Math.abs(Math.log(p.publishedParameters / parameters));
  return rows(family).reduce<ModelPreset | undefined>((best, row) => (best === undefined || distance(row) < distance(best) ? row : best), undefined);
}

/**
 * Query heads come in multiples of 4: every Llama's count is one (32, 40, 52, 64 and 128: Touvron et al. 2023a,
 * Table 2; Dubey et al. 2024, Table 3), though Llama 1 33B's 52 is no multiple of 8.
 */
const HEADS_MULTIPLE = 4;

/**
 * Llama's FFN width (Meta's reference code, github.com/meta-llama/llama, llama/model.py, FeedForward): SwiGLU's
 * two thirds of 4h, int(8h/3), times the model's ffn_dim_multiplier (truncated), rounded up to a multiple of
 * `multiple_of`. 256 is Llama 1's and Llama 2 7B/13B's multiple_of (33B: int(8 · 6656 / 3) = 17,749 → 17,920);
 * the larger rows' 1024 and 4096 (Llama 2 70B, Llama 3) are coarse steps at the widths between rows, so 256 is taken throughout.
 */
const FFN_MULTIPLE = 256;

/**
 * A row's ffn_dim_multiplier, recovered from its FFN to one decimal (the rounding up to multiple_of adds under
 * 2%): 13,824 / int(8 · 5120 / 3) = 1.01 → 1.0 for Llama 2 13B; 28,672 / 21,845 = 1.31 → 1.3 for the 70B rows
 * and Llama 3 8B; 53,248 / 43,690 = 1.22 → 1.2 for 405B, as Meta's released params.json files give them.
 */
const ffnMultiplier = (row: ModelPreset): number =>
  Math.round((10 * row.shape.ffnHiddenSize) / Math.trunc((8 * row.shape.hiddenSize) / 3)) / 10;

/** The FFN width Meta's code gives a width at a multiplier. */
const llamaFfn = (hiddenSize: number, multiplier: number): number =>
  FFN_MULTIPLE * Math.ceil(Math.trunc(multiplier * Math.trunc((8 * hiddenSize) / 3)) / FFN_MULTIPLE);


/** The rows either side of `parameters` (the first of each size in the family's order); undefined outside them. */
function bracket(family: ShapeFamily, parameters: number): readonly [ModelPreset, ModelPreset] | undefined {
  const all = rows(family);
  const below = all.filter((r) => r.publishedParameters <= parameters);
  const above = all.filter((r) => r.publishedParameters > parameters);
  const lo = below.find((r) => r.publishedParameters === Math.max(...below.map((b) => b.publishedParameters)));
  const hi = above.find((r) => r.publishedParameters === Math.min(...above.map((a) => a.publishedParameters)));
  return lo === undefined || hi === undefined ? undefined : [lo, hi];
}

/**
 * Llama's width between two rows: geometric in the size (log width linear in log parameters, as the rows'
 * widths grow: 4096 at 7B, 5120 at 13B, 8192 at 70B), rounded to whole groups of heads of the nearer row's
 * head width (128 for every Llama): HEADS_MULTIPLE heads, and whole groups of its key/value heads where it has
 * GQA. The nearer row's key/value heads (its own count under GQA, one per head without), and the FFN its
 * multiplier gives at that width.
 */
function interpolated(family: ShapeFamily, parameters: number, row: ModelPreset): Width | undefined {
  const between = bracket(family, parameters);
  if (between === undefined) return undefined;
  const [lo, hi] = between;
  const t = Math.log(parameters / lo.publishedParameters) / Math.log(hi.publishedParameters / lo.publishedParameters);
  const width = Math.exp(Math.log(lo.shape.hiddenSize) + t * (Math.log(hi.shape.hiddenSize) - Math.log(lo.shape.hiddenSize)));
  const headWidth = row.shape.hiddenSize / row.shape.attentionHeads;
  const gqa = row.shape.kvHeads < row.shape.attentionHeads;
  const headsMultiple = gqa ? (HEADS_MULTIPLE * row.shape.kvHeads) / gcd(HEADS_MULTIPLE, row.shape.kvHeads) : HEADS_MULTIPLE;
  const attentionHeads = headsMultiple * Math.max(1, Math.round(width / (headWidth * headsMultiple)));
  const hiddenSize = attentionHeads * headWidth;
  return {
    row, hiddenSize, attentionHeads, between,
    kvHeads: gqa ? row.shape.kvHeads : attentionHeads,
    ffnHiddenSize: llamaFfn(hiddenSize, ffnMultiplier(row)),
  };
}

/**
 * The width for a size: interpolated where the family interpolates and the size lies between two of its rows,
 * else the nearest row's (outside the published sizes, whose depth is then extrapolated). Undefined for a family
 * with no rows.
 */
export function widthFor(family: ShapeFamily, parameters: number): Width | undefined {
  const row = nearestRow(family, parameters);
  if (row === undefined) return undefined;
  const between = family.width === 'interpolated' ? interpolated(family, parameters, row) : undefined;
  return between ?? { row, hiddenSize: row.shape.hiddenSize, attentionHeads: row.shape.attentionHeads };
}
