import { describe, expect, it } from 'vitest';
import { parameterCount } from '@trainplan/model';
import { MODEL_IDS, MODEL_SOURCES, MODELS, modelById } from '../src/models.ts';

const CONTRACT_MODEL_IDS = [
  'gpt3-126m', 'gpt3-350m', 'gpt3-760m', 'gpt3-1.3b', 'gpt3-2.7b', 'gpt3-6.7b', 'gpt3-13b', 'gpt3-175b',
  'megatron-1.7b', 'megatron-3.6b', 'megatron-7.5b', 'megatron-18.4b', 'megatron-39.1b', 'megatron-76.1b',
  'megatron-145.6b', 'megatron-310.1b', 'megatron-529.6b', 'megatron-1t',
  'mt-nlg-530b', 'bloom-176b', 'llama2-7b', 'llama2-13b', 'llama2-70b', 'llama3-8b', 'llama3-70b', 'llama3.1-405b',
  'nemotron4-15b', 'nemotron4-340b',
];
const ALL = Object.values(MODELS);
const INTEGER_FIELDS = ['layers', 'hiddenSize', 'attentionHeads', 'kvHeads', 'ffnHiddenSize', 'vocabSize', 'seqLength'] as const;

describe('MODELS', () => {
  it.each(CONTRACT_MODEL_IDS)('has the contract id %s', (id) => expect(modelById(id)?.id).toBe(id));

  it.each(['llama3.1-8b', 'llama3.1-70b'])('also has %s', (id) => expect(modelById(id)).toBeDefined());

  it('lists each id once, in MODEL_IDS and as a key', () => {
    expect(new Set(MODEL_IDS).size).toBe(MODEL_IDS.length);
    expect([...MODEL_IDS].sort()).toEqual(Object.keys(MODELS).sort());
  });

  it.each([...MODEL_IDS])('%s cites a source with a title and a note', (id) => {
    expect(MODEL_SOURCES[id].title.trim()).not.toBe('');
    expect(MODEL_SOURCES[id].note?.trim()).toBeTruthy();
  });

  it('cites exactly the models it holds: no orphan citation', () => expect(Object.keys(MODEL_SOURCES).sort()).toEqual(Object.keys(MODELS).sort()));

  it.each(ALL)('$id: every size field is a positive integer', (m) => {
    for (const field of INTEGER_FIELDS) {
      expect(Number.isInteger(m.shape[field]), field).toBe(true);
      expect(m.shape[field], field).toBeGreaterThan(0);
    }
  });

  it.each(ALL)('$id: heads divide the hidden size and KV heads divide the heads', (m) => {
    expect(m.shape.hiddenSize % m.shape.attentionHeads).toBe(0);
    expect(m.shape.attentionHeads % m.shape.kvHeads).toBe(0);
  });

  // Sources round their sizes (Llama 2 "7B" is 6.74B; Nemotron-4 "15B" is 15.6B with untied embeddings).
  it.each(ALL)('$id: the shape reproduces the published parameter count within 5%', (m) => {
    expect(Math.abs(parameterCount(m.shape) / m.publishedParameters - 1)).toBeLessThan(0.05);
  });

  it.each(ALL)('$id states a positive published size and, if given, a positive token count', (m) => {
    expect(m.publishedParameters).toBeGreaterThan(0);
    if (m.defaultTrainingTokens !== undefined) expect(m.defaultTrainingTokens).toBeGreaterThan(0);
  });

  it.each(['gpt3', 'megatron', 'mt-nlg'])('%s models use Megatron-LM\'s padded vocabulary 51200 and sequence 2048', (prefix) => {
    for (const m of ALL.filter((x) => x.id.startsWith(prefix))) {
      expect(m.shape).toMatchObject({ vocabSize: 51200, seqLength: 2048, positionEmbedding: 'learned', tiedEmbeddings: true });
    }
  });

  it.each([
    ['gpt3-175b', 96, 12288, 96, 96, 49152],
    ['megatron-1t', 128, 25600, 160, 160, 102400],
    ['mt-nlg-530b', 105, 20480, 128, 128, 81920],
    ['bloom-176b', 70, 14336, 112, 112, 57344],
    ['llama2-70b', 80, 8192, 64, 8, 28672],
    ['llama3.1-405b', 126, 16384, 128, 8, 53248],
    ['llama3.2-1b', 16, 2048, 32, 8, 8192],
    ['llama3.2-3b', 28, 3072, 24, 8, 8192],
    ['nemotron4-340b', 96, 18432, 96, 8, 73728],
  ])('%s has L=%d, h=%d, a=%d, a_kv=%d, f=%d', (id, layers, hiddenSize, attentionHeads, kvHeads, ffnHiddenSize) => {
    expect(modelById(id)!.shape).toMatchObject({ layers, hiddenSize, attentionHeads, kvHeads, ffnHiddenSize });
  });

  it.each(ALL.filter((m) => m.id.startsWith('llama')))('$id is gated, rotary, bias-free, RMSNorm; untied but Llama 3.2 1B and 3B', (m) => {
    expect(m.shape).toMatchObject({
      gatedMlp: true, tiedEmbeddings: m.id.startsWith('llama3.2-'), positionEmbedding: 'rotary', linearBias: false, normalization: 'rmsnorm',
    });
  });

  it.each(['nemotron4-15b', 'nemotron4-340b'])('%s uses squared ReLU (not gated), untied, bias-free LayerNorm', (id) => {
    expect(modelById(id)!.shape).toMatchObject({
      gatedMlp: false, tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false, normalization: 'layernorm',
    });
  });

  it('bloom-176b uses ALiBi positions and a 250880-token padded vocabulary', () => {
    expect(modelById('bloom-176b')!.shape).toMatchObject({ positionEmbedding: 'alibi', vocabSize: 250880 });
  });

  it('states dropout as each family trained: off for every Llama and Nemotron-4, on (Megatron\'s 0.1) for GPT-3, Megatron, MT-NLG and BLOOM', () => {
    const off = MODEL_IDS.filter((id) => !modelById(id)!.trainedWithDropout);
    expect(off.length).toBeGreaterThan(0);
    for (const id of MODEL_IDS) expect(modelById(id)!.trainedWithDropout, id).toBe(!/^(llama|nemotron)/.test(id));
  });

  it('Nemotron-4 340B carries its report\'s last batch, which its run (6,144 H100, TP 8 · PP 12 as Table 2 states) divides', () => {
    const preset = modelById('nemotron4-340b')!;
    // Adler et al. 2024, Table 2: 2,304 sequences on 6,144 GPUs, DP 6,144 / (8 · 12) = 64, 36 sequences a replica.
    expect(preset.publishedGlobalBatchSize).toBe(2304);
    expect(2304 % (6144 / (8 * 12))).toBe(0);
    expect(MODEL_SOURCES['nemotron4-340b'].note).toMatch(/2,304 sequences on 6,144 H100/);
  });

  // Narayanan et al. 2021 (SC'21), Table 1, as typed from the paper: id, GPUs, tensor and pipeline sizes, batch size.
  it.each([
    ['megatron-1.7b', 32, 1, 1, 512],
    ['megatron-3.6b', 64, 2, 1, 512],
    ['megatron-7.5b', 128, 4, 1, 512],
    ['megatron-18.4b', 256, 8, 1, 1024],
    ['megatron-39.1b', 512, 8, 2, 1536],
    ['megatron-76.1b', 1024, 8, 4, 1792],
    ['megatron-145.6b', 1536, 8, 8, 2304],
    ['megatron-310.1b', 1920, 8, 16, 2160],
    ['megatron-529.6b', 2520, 8, 35, 2520],
    ['megatron-1t', 3072, 8, 64, 3072],
  ])('%s carries SC\'21 Table 1\'s batch, which the row\'s own layout (%d GPUs, TP %d, PP %d) divides over its data-parallel ranks', (id, gpus, t, p, batch) => {
    const preset = modelById(id)!;
    expect(preset.publishedGlobalBatchSize).toBe(batch);
    // The table's run: DP = GPUs / (TP · PP) replicas, each a whole number of sequences (529.6B: 2,520 / 9 = 280).
    expect(batch % (gpus / (t * p))).toBe(0);
    expect(MODEL_SOURCES[id as keyof typeof MODEL_SOURCES].note).toMatch(/batch size/);
  });

  it.each(['gpt3', 'llama4-8b', 'toString', ''])('modelById returns undefined for the unknown id %j', (id) => {
    expect(modelById(id)).toBeUndefined();
  });
});
