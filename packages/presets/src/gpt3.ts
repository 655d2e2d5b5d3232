import type { Citation } from '@trainplan/hardware';
import { billion, million } from '@trainplan/units';
import { GPT2_BPE, gptShape, MEGATRON_DEFAULT_DROPOUT, type ModelPreset } from './model-preset.ts';

// Brown et al. 2020 train every size on 300B tokens at n_ctx 2048. The paper's vocabulary is 50257
// BPE tokens, which Megatron-LM pads to 51200 (Narayanan et al. 2021 use V = 51200); trainplan models Megatron.
// Every preset cites its row of the paper's Table 2.1 in GPT3_SOURCES below (keyed by id and built from the same
// rows, so there is one per preset), not on the preset the planner computes with.
const PAPER = { title: 'Brown et al. 2020, Language Models are Few-Shot Learners (arXiv:2005.14165)', url: 'https://arxiv.org/abs/2005.14165' };

interface Gpt3Row {
  readonly id: string;
  readonly name: string;
  readonly params: number;
  readonly layers: number;
  readonly hiddenSize: number;
  readonly attentionHeads: number;
  /** Table 2.1's batch size in tokens (0.5M … 3.2M), in sequences of 2,048: 3.2M is the 1,536 Megatron runs (SC'21). */
  readonly batch: number;
}

function gpt3<Id extends string>({ id, name, params, layers, hiddenSize, attentionHeads, batch }: Gpt3Row & { readonly id: Id }): ModelPreset & { readonly id: Id } {
  return {
    id,
    shape: gptShape({ name, layers, hiddenSize, attentionHeads, vocabSize: 51200, seqLength: 2048 }),
    publishedParameters: params,
    defaultTrainingTokens: billion(300),
    publishedGlobalBatchSize: batch,
    tokenizer: GPT2_BPE,
    // The paper states no dropout; trainplan models GPT-3 as Megatron-LM trains it (SC'21, NeMo's gpt3 configs: 0.1).
    trainedWithDropout: MEGATRON_DEFAULT_DROPOUT,
  };
}

const ROWS = [
  { id: 'gpt3-126m', name: 'GPT-3 Small', params: million(125), layers: 12, hiddenSize: 768, attentionHeads: 12, batch: 256 },
  { id: 'gpt3-350m', name: 'GPT-3 Medium', params: million(350), layers: 24, hiddenSize: 1024, attentionHeads: 16, batch: 256 },
  { id: 'gpt3-760m', name: 'GPT-3 Large', params: million(760), layers: 24, hiddenSize: 1536, attentionHeads: 16, batch: 256 },
  { id: 'gpt3-1.3b', name: 'GPT-3 XL', params: billion(1.3), layers: 24, hiddenSize: 2048, attentionHeads: 16, batch: 512 },
  { id: 'gpt3-2.7b', name: 'GPT-3 2.7B', params: billion(2.7), layers: 32, hiddenSize: 2560, attentionHeads: 32, batch: 512 },
  { id: 'gpt3-6.7b', name: 'GPT-3 6.7B', params: billion(6.7), layers: 32, hiddenSize: 4096, attentionHeads: 32, batch: 1024 },
  { id: 'gpt3-13b', name: 'GPT-3 13B', params: billion(13), layers: 40, hiddenSize: 5120, attentionHeads: 40, batch: 1024 },
  { id: 'gpt3-175b', name: 'GPT-3 175B', params: billion(175), layers: 96, hiddenSize: 12288, attentionHeads: 96, batch: 1536 },
] as const satisfies readonly Gpt3Row[];

export type Gpt3ModelId = (typeof ROWS)[number]['id'];

export const GPT3_MODELS: readonly (ModelPreset & { readonly id: Gpt3ModelId })[] = ROWS.map(gpt3);

/**
 * Each preset's row of Table 2.1 and where trainplan departs from it, by id: one per row, as the presets are. Built in a
 * pure-annotated call so that a bundle that never reads it (the widget) drops it whole.
 */
export const GPT3_SOURCES = /* @__PURE__ */ ((): Readonly<Record<Gpt3ModelId, Citation>> => {
  // Where trainplan departs from the table, and why: here, not in ROWS, so that a bundle that never reads the notes drops them.
  const caveats: Partial<Record<Gpt3ModelId, string>> = {
    'gpt3-126m': 'NeMo calls this model 126m (its count with V = 51200); the paper says 125M.',
    'gpt3-1.3b': 'The table lists 24 heads of d_head 128, inconsistent with d_model 2048; 16 heads of 128 as in Megatron/NeMo configs.',
    'gpt3-13b': 'The table lists d_model 5140, which 40 heads do not divide; 5120 (d_head 128) as in Megatron/NeMo configs.',
    'gpt3-175b': 'The table\'s 3.2M-token batch is 1,562.5 sequences of 2,048; the batch here is the 1,536 Megatron-LM trains it at '
      + '(Narayanan et al. 2021, SC\'21, Table 1 and §5.1: 3.1M tokens).',
  };
  const cite = ({ id, name }: Gpt3Row & { readonly id: Gpt3ModelId }): Citation => ({
    ...PAPER,
    note: `Table 2.1, row "${name}" (n_layers, d_model, n_heads, batch size in tokens; n_ctx 2048); vocab 50257 in the paper, padded to 51200 as Megatron-LM does.`
      + (caveats[id] ? ` ${caveats[id]}` : ''),
  });
  return Object.fromEntries(ROWS.map((row) => [row.id, cite(row)])) as Record<Gpt3ModelId, Citation>;
})();
