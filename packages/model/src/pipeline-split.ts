/**
 * What, besides the transformer layers, takes a layer's place when Megatron-Core divides the layers over
 * the pipeline stages (megatron/core/transformer/transformer_config.py):
 * - 'layers': nothing; the layers alone are split (evenly, or Megatron-Core 0.9's uneven first/last split);
 * - 'embedding': the word embedding counts as one layer, on the first stage
 *   (`--account-for-embedding-in-pipeline-split`);
 * - 'loss': the output layer and the loss count as one layer, on the last stage
 *   (`--account-for-loss-in-pipeline-split`);
 * - 'embedding-and-loss': both, as Llama 3 405B was trained ("we reduce one Transformer layer each from the
 *   first and the last stages", Dubey et al. 2024, arXiv:2407.21783, §3.3.2: 126 layers on 16 stages of 8
 *   slots) and as NVIDIA's Megatron-Bridge recipes for Llama 3.1 405B and Qwen3 235B set it.
 */
export type PipelineSlots = 'layers' | 'embedding' | 'loss' | 'embedding-and-loss';

export const PIPELINE_SLOTS: readonly PipelineSlots[] = ['layers', 'embedding', 'loss', 'embedding-and-loss'];

/** Each layout's place in PIPELINE_SLOTS (0–3), for numeric memo keys without a search per lookup. */
export const SLOT_INDEX: Readonly<Record<PipelineSlots, number>> = { layers: 0, embedding: 1, loss: 2, 'embedding-and-loss': 3 };

/** Whether the word embedding and whether the output layer with the loss take a layer's place. */
export const slotsTaken = (slots: PipelineSlots): { readonly embedding: boolean; readonly loss: boolean } => ({
  embedding: slots === 'embedding' || slots === 'embedding-and-loss',
  loss: slots === 'loss' || slots === 'embedding-and-loss',
});

/** " (+embedding, +loss)" after a pipeline size ("PP 16 (+embedding, +loss)"); nothing for the layers alone. */
export function pipelineSlotsLabel(slots: PipelineSlots | undefined): string {
  if (slots === undefined || slots === 'layers') return '';
  const { embedding, loss } = slotsTaken(slots);
  return ` (${[embedding && '+embedding', loss && '+loss'].filter(Boolean).join(', ')})`;
}

/** The layers plus one slot for each of the embedding and the loss counted: what Megatron divides over the stages. */
export function slotCount(layers: number, slots: PipelineSlots): number {
  const { embedding, loss } = slotsTaken(slots);
  return layers + (embedding ? 1 : 0) + (loss ? 1 : 0);
}

/** The slots id for Megatron's two flags. */
export const slotsOf = (embedding: boolean, loss: boolean): PipelineSlots =>
  embedding ? (loss ? 'embedding-and-loss' : 'embedding') : loss ? 'loss' : 'layers';

/**
 * How Megatron-Core places L transformer layers on p pipeline stages. With `slots` 'layers': all stages
 * equal, or (uneven pipeline parallelism, Megatron-Core 0.9) the first stage `first` layers, the last `last`,
 * and every middle stage the same `middle` (`--decoder-first-pipeline-num-layers`,
 * `--decoder-last-pipeline-num-layers`; the "Uneven PP" checks of TransformerConfig.__post_init__: first and
 * last "must be larger than 0", the layers left "must be divisible by the middle pipeline model parallel
 * size", and with no middle stage no layer may be left over). With the embedding or the loss counted, each
 * stage holds (L + e + l)/p slots, which must be whole, and the first stage gives one to the embedding, the
 * last one to the loss (Megatron refuses these flags together with the uneven ones). No other shape, such
 * as extra layers spread over some middle stages, can be expressed.
 */
export interface PipelineSplit {
  readonly first: number;
  /** Layers on each middle stage (with p ≤ 2 there is none, and this repeats `first`). */
  readonly middle: number;
  readonly last: number;
  /** Layers on each of the p stages, first to last. */
  readonly stages: readonly number[];
  /** Whether Megatron needs the first/last flags: the layers alone are split and some stage differs from the others. */
  readonly uneven: boolean;
  /** What takes a layer's place besides the layers. */
  readonly slots: PipelineSlots;
  /** Slots over all stages: the layers, plus the embedding and the loss where they count (slotCount). */
  readonly slotCount: number;
}

/**
 * The split trainplan plans for L layers on p stages, or undefined when Megatron has none. For 'layers' the
 * middle stages take b = ⌈L/p⌉ layers (the fewest the slowest stage can hold), and the remainder
 * r = L − (p − 2)·b goes to the first and last stages, the last taking the smaller half since it also
 * computes the logits and the loss: first ⌈r/2⌉, last ⌊r/2⌋. When p divides L this is the even split
 * (r = 2b). When r/2 rounds down to no layer (96 layers on 26 stages: b = 4, r = 0), there is none.
 * Megatron's checks would also accept thinner middle stages with thicker end stages (3 each, then 12 on the
 * first and on the last); trainplan plans only the split above, so it refuses such a pair. With the
 * embedding or the loss counted, there is a split exactly when p ≤ L and p divides L + e + l.
 */
export function pipelineSplit(layers: number, pipeline: number, slots: PipelineSlots = 'layers'): PipelineSplit | undefined {
  // Memoised: the planner asks for the same few (L, p, slots) on every estimate (checks, times, memory).
  const key = (layers * 65536 + pipeline) * 4 + SLOT_INDEX[slots];
  if (splits.has(key)) return splits.get(key);
  const split = slots === 'layers' ? layerSplit(layers, pipeline) : slotSplit(layers, pipeline, slots);
  if (splits.size >= MAX_MEMOISED_SPLITS) splits.clear();
  splits.set(key, split);
  return split;
}

const splits = new Map<number, PipelineSplit | undefined>();
const MAX_MEMOISED_SPLITS = 4096;

const valid = (L: number, p: number): boolean => Number.isInteger(L) && Number.isInteger(p) && p >= 1 && L >= p;

function freeze(first: number, middle: number, last: number, p: number, slots: PipelineSlots): PipelineSplit {
  const stages = p === 1 ? [first] : [first, ...Array.from({ length: p - 2 }, () => middle), last];
  const layers = stages.reduce((a, b) => a + b, 0);
  return Object.freeze({
    first, middle, last, stages: Object.freeze(stages), uneven: slots === 'layers' && stages.some((n) => n !== first), slots,
    slotCount: slotCount(layers, slots),
  });
}

function layerSplit(L: number, p: number): PipelineSplit | undefined {
  if (!valid(L, p)) return undefined;
  if (p === 1) return freeze(L, L, L, 1, 'layers');
  const b = Math.ceil(L / p);
  const r = p === 2 ? L : L - (p - 2) * b;
  const first = Math.ceil(r / 2);
  const last = Math.floor(r / 2);
  if (last < 1) return undefined;
  return freeze(first, p === 2 ? first : b, last, p, 'layers');
}

/**
 * Megatron-Core: "num_layers += 1" for each of the embedding and the loss accounted for, which must then be
 * divisible by the pipeline size; get_transformer_layer_offset and get_num_layers_to_build then give each
 * stage (L + e + l)/p slots, the first stage's first slot to the embedding and the last stage's last to
 * the loss. One stage alone holds everything: there is nothing to split.
 */
function slotSplit(L: number, p: number, slots: PipelineSlots): PipelineSplit | undefined {
  if (!valid(L, p)) return undefined;
  if (p === 1) return freeze(L, L, L, 1, slots);
  const { embedding, loss } = slotsTaken(slots);
  const total = slotCount(L, slots);
  if (total % p !== 0) return undefined;
  const k = total / p;
  const first = k - (embedding ? 1 : 0);
  const last = k - (loss ? 1 : 0);
  // L ≥ p makes k ≥ 2 whenever it is whole, so every stage keeps a layer besides the embedding or the loss.
  return freeze(first, p === 2 ? first : k, last, p, slots);
}

/**
 * Whether the interleaved schedule can split the split into v model chunks per stage. The layers alone:
 * the first and last stage's layers and each middle stage's "must be divisible by virtual pipeline parallel
 * degree" (TransformerConfig; an even split's --num-layers-per-virtual-pipeline-stage is the same rule).
 * With the embedding or the loss counted, the slots must divide into p·v chunks of equal size: the first
 * chunk of the first stage then holds the embedding and one layer fewer, the last chunk of the last stage
 * the loss (Llama 3 405B: 128 slots on 16 stages of 8 chunks, the first chunk the embedding alone).
 */
export function splitsIntoChunks(split: PipelineSplit, virtualStages: number): boolean {
  const v = virtualStages;
  if (v === 1) return true;
  const p = split.stages.length;
  if (split.slots === 'layers') return split.first % v === 0 && split.last % v === 0 && (p <= 2 || split.middle % v === 0);
  return split.slotCount % (p * v) === 0;
}

/**
 * Layers per pipeline stage (pipelineSplit's). A pair with no split is a programmer error here:
 * the planner's checkPlan and the search's enumeration refuse it first.
 */
export function layersPerStage(layers: number, pipeline: number, slots: PipelineSlots = 'layers'): readonly number[] {
  const split = pipelineSplit(layers, pipeline, slots);
  if (split === undefined) throw new RangeError(`no Megatron pipeline split of ${layers} layers over ${pipeline} stages (${slots})`);
  return split.stages; // shared and memoised: callers only read it
}
