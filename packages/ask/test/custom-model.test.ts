import { parameterCount, withShapeDefaults } from '@trainplan/model';
import { MODEL_IDS, modelById } from '@trainplan/presets';
import { runEstimate, type EstimateOk, type ScenarioInput } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { renderText } from '../src/answer/render-text.ts';
import { customModelOfSize, llamaStyle, MAX_CUSTOM_LAYERS } from '../src/custom-model.ts';
import { parse } from '../src/parse.ts';

const BILLION = 1e9;
const TRILLION = 1e12;

/** The published (hidden, heads) pairs the shapes are drawn from: GPT-3 Table 2.1 and SC'21 Table 1. */
const PUBLISHED_WIDTHS = MODEL_IDS.filter((id) => id.startsWith('gpt3-') || id.startsWith('megatron-'))
  .map((id) => modelById(id)!.shape)
  .map((s) => `${s.hiddenSize}/${s.attentionHeads}`);

const countWithLayers = (shape: ScenarioInput['model'], layers: number): number =>
  typeof shape === 'string' ? Number.NaN : parameterCount(withShapeDefaults({ ...shape, layers }));

describe('customModelOfSize: a GPT-style decoder of a size no preset has', () => {
  it('30B takes the width and heads of Megatron GPT 39.1B (SC\'21 Table 1) and 37 layers: 30.2B by packages/model\'s count', () => {
    const r = customModelOfSize(30 * BILLION, '30B');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const row = modelById('megatron-39.1b')!.shape;
    expect(r.model.shape).toEqual({ name: 'GPT-style 30B', layers: 37, hiddenSize: row.hiddenSize, attentionHeads: row.attentionHeads, vocabSize: 51200, seqLength: 2048 });
    // 37 × 12 × 8192² + (51200 + 2048) × 8192 ≈ 30.2B by hand; 36 and 38 layers land farther from 30B.
    expect(Math.abs(r.model.parameters / (30.2 * BILLION) - 1)).toBeLessThan(0.002);
    expect(Math.abs(countWithLayers(r.model.shape, 36) - 30 * BILLION)).toBeGreaterThan(Math.abs(r.model.parameters - 30 * BILLION));
    expect(Math.abs(countWithLayers(r.model.shape, 38) - 30 * BILLION)).toBeGreaterThan(Math.abs(r.model.parameters - 30 * BILLION));
    expect(r.model.askedParameters).toBe(30 * BILLION);
    expect(r.reading).toMatch(/^30B taken as a GPT-style decoder .*37 layers, hidden 8192, 64 heads.*~30\.2B parameters.*Megatron GPT 39\.1B \(Narayanan et al\. 2021, Table 1\)/);
  });

  it.each([0.5 * BILLION, 4.5 * BILLION, 30 * BILLION, 100 * BILLION, 250 * BILLION, 3 * TRILLION])(
    '%d parameters: a published width and heads, and the layer count whose count lands nearest (one more or fewer lands farther)', (size) => {
      const r = customModelOfSize(size, 'N');
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      const { shape, parameters } = r.model;
      expect(PUBLISHED_WIDTHS).toContain(`${shape.hiddenSize}/${shape.attentionHeads}`);
      const miss = Math.abs(parameters - size);
      expect(Math.abs(countWithLayers(shape, shape.layers + 1) - size)).toBeGreaterThanOrEqual(miss);
      if (shape.layers > 1) expect(Math.abs(countWithLayers(shape, shape.layers - 1) - size)).toBeGreaterThanOrEqual(miss);
      expect(miss / size).toBeLessThan(0.05);
    },
  );

  it('a size beyond the published ones says its depth is extrapolated: 3T is 381 layers at the 1T model\'s width of 128', () => {
    const r = customModelOfSize(3 * TRILLION, '3T');
    expect(r.ok && r.model.shape.layers).toBe(381);
    expect(r.ok && r.reading).toMatch(/outside the published sizes \(125M to 1\.01T\), so the depth is extrapolated \(Megatron GPT 1008B has 128 layers\)/);
  });

  it('a size one layer and the embeddings exceed is declined with the reason (0.01B: one layer of GPT-3 Small is 48.0M)', () => {
    expect(customModelOfSize(0.01 * BILLION, '0.01B')).toEqual({
      ok: false,
      problem: '0.01B parameters is smaller than any GPT-style decoder planned here: one layer at the width of GPT-3 Small has 48.0M parameters, most of them the 51200-token embedding',
    });
  });

  it(`a size needing more than the contract's ${MAX_CUSTOM_LAYERS} layers is declined, naming the layers it needs (8T: 1017)`, () => {
    const r = customModelOfSize(8 * TRILLION, '8T');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problem).toMatch(/^8T parameters is too large to plan: .* needs 1017 layers, more than the 1000 a model takes$/);
  });
});

describe('parse: a bare size no preset has', () => {
  it('"a 30B model" is a custom model, no preset id, with no problem, and budgets from the 30B asked (20 tokens per parameter: 600B)', () => {
    const q = parse('how many nodes for a 30B model on H100');
    expect(q.problems).toEqual([]);
    expect(q.parameters.model).toBeUndefined();
    expect(q.parameters.customModel?.shape.layers).toBe(37);
    expect(q.parameters.tokens).toBe(600 * BILLION);
    expect(q.defaults.map((d) => d.text)).toContain('600B training tokens (20 per parameter, Hoffmann et al. 2022; × the 30.0B parameters asked)');
  });

  it('a stated sequence length is the custom model\'s: the reading, the shape and the plan all say 8192', () => {
    const q = parse('how many nodes for a 30B model with seq 8192 on H100');
    expect(q.problems).toEqual([]);
    expect(q.parameters.customModel?.shape.seqLength).toBe(8192);
    const reading = q.defaults.find((d) => d.field === 'customModel')!.text;
    expect(reading).toContain('8192-token sequences');
    expect(reading).not.toContain('2048-token');
    // Learned position embeddings count the sequence: 6144 more positions of hidden 8192 than at 2048, the layers the same.
    const at2048 = parse('how many nodes for a 30B model on H100').parameters.customModel!;
    expect(q.parameters.customModel!.shape.layers).toBe(at2048.shape.layers);
    expect(q.parameters.customModel!.parameters - at2048.parameters).toBe((8192 - 2048) * 8192);
    const a = ask('how many nodes for a 30B model with seq 8192 on H100');
    expect(a.scenario?.training.seqLength ?? (a.scenario?.model as { seqLength?: number }).seqLength).toBe(8192);
  });

  it.each([
    ['how many nodes for a 40B model', 'megatron-39.1b'],
    ['how many nodes for 175B', 'gpt3-175b'],
    ['how many nodes for 13 billion parameters', 'llama2-13b'],
  ])('a preset within 3%% still wins: "%s" is %s', (question, model) => {
    const q = parse(question);
    expect(q.parameters.model).toBe(model);
    expect(q.parameters.customModel).toBeUndefined();
  });

  it.each([
    ['how many nodes for a 0.01B model', /^0\.01B parameters is smaller than any GPT-style decoder/],
    ['how many nodes for a 8T model', /^8T parameters is too large to plan/],
    ['how many nodes for a -30B model', /^a model size must be positive/],
  ])('"%s" is declined with its reason', (question, problem) => {
    const q = parse(question);
    expect(q.problems).toHaveLength(1);
    expect(q.problems[0]).toMatch(problem);
  });

  it('"llama 30b" is Llama at 30B (a Llama-style decoder), never Llama 3 at 0B ("a model size must be positive, got 0")', () => {
    const q = parse('how many nodes for llama 30b');
    expect(q.problems).toEqual([]);
    expect(q.parameters.customModel?.shape.name).toBe('Llama-style 30B');
    expect(parse('how many nodes for llama 3 70b').parameters.model).toBe('llama3-70b');
  });

  it('a size of a family with no shape to draw from (Nemotron-4, BLOOM) is still declined, with the bare size to ask instead', () => {
    expect(parse('how many nodes for nemotron 30b').problems).toEqual([expect.stringMatching(/^no Nemotron-4 preset has about 30B parameters \(ask for "a 30B model" to plan a GPT-style decoder of that size, /)]);
    expect(parse('how many nodes for bloom 7b').problems).toEqual([expect.stringMatching(/^no BLOOM preset has about 7B parameters \(ask for "a 7B model" to plan a GPT-style decoder of that size, /)]);
  });
});

describe('a Llama size no preset has: a Llama-style decoder', () => {
  const LLAMA_ARCHITECTURE = { gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false, normalization: 'rmsnorm' };

  it('Llama-style 30B is shaped as Meta shaped Llama 1 33B: its width, heads and FFN, 55 layers, 29.85B by hand', () => {
    const r = customModelOfSize(30 * BILLION, '30B', llamaStyle('Llama', ['llama3-', 'llama3.1-', 'llama2-']));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // Between Llama 2 13B (hidden 5120) and the 70B rows (8192): t = ln(30/13) / ln(70/13) = 0.497, so
    // 5120 · (8192/5120)^0.497 = 6466, in groups of 4 heads of 128 (512): 13 groups, 52 heads, hidden 6656.
    // FFN as Meta's code gives it at 13B's multiplier 1.0: int(8 · 6656 / 3) = 17,749, up to a multiple of 256: 17,920.
    // Llama 1 33B (Touvron et al. 2023a, arXiv:2302.13971, Table 2; FFN by Meta's code at multiple_of 256): 6656, 52 heads, FFN 17920, 60 layers.
    const row = modelById('llama2-13b')!.shape;
    expect(r.model.shape).toEqual({
      name: 'Llama-style 30B', layers: 55, hiddenSize: 6656, attentionHeads: 52, kvHeads: 52, ffnHiddenSize: 17920,
      vocabSize: row.vocabSize, seqLength: row.seqLength, ...LLAMA_ARCHITECTURE,
    });
    // A layer: 4h² attention + 3hf gated MLP + 2h RMSNorm = 177,209,344 + 357,826,560 + 13,312 = 535,049,216;
    // untied embeddings 2 · 32000 · 6656 = 425,984,000 and the final norm 6656. (30e9 − 425,990,656) / 535,049,216 = 55.3 → 55.
    expect(r.model.parameters).toBe(425_990_656 + 55 * 535_049_216);
    expect(Math.abs(r.model.parameters / (30 * BILLION) - 1)).toBeLessThan(0.03);
    // Layers within 15% of Llama 1 33B's 60; at its 60 the same shape counts 32.5B, its published size.
    expect(Math.abs(r.model.shape.layers / 60 - 1)).toBeLessThan(0.15);
    expect(countWithLayers(r.model.shape, 60) / BILLION).toBeCloseTo(32.53, 2);
    expect(Math.abs(countWithLayers(r.model.shape, 54) - 30 * BILLION)).toBeGreaterThan(Math.abs(r.model.parameters - 30 * BILLION));
    expect(Math.abs(countWithLayers(r.model.shape, 56) - 30 * BILLION)).toBeGreaterThan(Math.abs(r.model.parameters - 30 * BILLION));
    expect(r.reading).toBe('30B taken as a Llama-style decoder (no Llama preset has that size): 55 layers, hidden 6656, 52 heads, '
      + 'gated FFN 17920 (SwiGLU), untied embeddings, RMSNorm, rotary positions, vocabulary 32000, 4096-token sequences (~29.9B parameters); '
      + 'width interpolated on a log scale of size between Llama 2 13B (Touvron et al. 2023) and Llama 3 70B (Dubey et al. 2024, Table 3), in heads of 128, '
      + 'with the layer count that lands nearest 30B; key/value heads, FFN multiplier, vocabulary and architecture of Llama 2 13B, the nearer in size');
  });

  it('Llama 3 30B is interpolated between Llama 3 8B and 70B, with 70B\'s 8 key/value heads, FFN multiplier and vocabulary (Dubey et al. 2024, Table 3): 59 layers of 6144', () => {
    const r = customModelOfSize(30 * BILLION, '30B', llamaStyle('Llama 3', ['llama3-', 'llama3.1-']));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // t = ln(30/8) / ln(70/8) = 0.609: 4096 · 2^0.609 = 6246; 70B is nearer and has GQA, so whole groups of 8 heads
    // of 128 (1024): 6 groups, 48 heads, 6144. FFN at 70B's multiplier 1.3: int(1.3 · int(8 · 6144 / 3)) = 21,299 → 21,504.
    const row = modelById('llama3-70b')!.shape;
    expect(r.model.shape).toEqual({
      name: 'Llama 3-style 30B', layers: 59, hiddenSize: 6144, attentionHeads: 48, kvHeads: 8, ffnHiddenSize: 21504,
      vocabSize: row.vocabSize, seqLength: row.seqLength, ...LLAMA_ARCHITECTURE,
    });
    // A layer: 2h² (Q, out) + 2 · h · 1024 (K, V) + 3hf + 2h = 75,497,472 + 12,582,912 + 396,361,728 + 12,288 = 484,454,400;
    // embeddings 2 · 128256 · 6144 = 1,576,009,728 and the final norm. (30e9 − 1,576,015,872) / 484,454,400 = 58.7 → 59.
    expect(r.model.parameters).toBe(1_576_015_872 + 59 * 484_454_400);
    expect(r.model.parameters).toBe(parameterCount({ ...row, name: 'Llama 3-style 30B', layers: 59, hiddenSize: 6144, attentionHeads: 48, ffnHiddenSize: 21504 }));
    expect(Math.abs(r.model.parameters / (30 * BILLION) - 1)).toBeLessThan(0.03);
  });

  it.each([
    ['how many nodes for llama 30b', 'Llama-style 30B', 'Llama 3 70B (Dubey et al. 2024, Table 3)'],
    ['how many nodes for a 30B llama', 'Llama-style 30B', 'Llama 3 70B (Dubey et al. 2024, Table 3)'],
    ['how many nodes for a 30b parameter llama model', 'Llama-style 30B', 'Llama 3 70B (Dubey et al. 2024, Table 3)'],
    ['how many nodes for llama 2 30b', 'Llama 2-style 30B', 'Llama 2 70B (Touvron et al. 2023)'],
    ['how many nodes for a llama-style 30B', 'Llama-style 30B', 'Llama 3 70B (Dubey et al. 2024, Table 3)'],
    ['how many nodes for a llama style 30b model', 'Llama-style 30B', 'Llama 3 70B (Dubey et al. 2024, Table 3)'],
    ['how many nodes for a 30B llama-style model', 'Llama-style 30B', 'Llama 3 70B (Dubey et al. 2024, Table 3)'],
    ['how many nodes for llama 2 like 30b', 'Llama 2-style 30B', 'Llama 2 70B (Touvron et al. 2023)'],
  ])('%s: %s, between Llama 2 13B and the 70B row of its family (the same width, 8192), with Llama 2 13B\'s vocabulary, heads and architecture as the nearer', (question, name, seventy) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    const row = modelById('llama2-13b')!.shape;
    expect(q.parameters.customModel?.shape).toMatchObject({ name, layers: 55, hiddenSize: 6656, attentionHeads: 52, kvHeads: 52, ffnHiddenSize: 17920, vocabSize: row.vocabSize, ...LLAMA_ARCHITECTURE });
    expect(q.defaults[0]?.text).toContain(`width interpolated on a log scale of size between Llama 2 13B (Touvron et al. 2023) and ${seventy}, in heads of 128`);
    expect(q.parameters.tokens).toBe(600 * BILLION);
  });

  it.each([
    // Width 4096 · (5120/4096)^(ln(10/7) / ln(13/7)) = 4658 → 9 groups of 512 = 4608; and so on.
    [10, 'Llama 2', 'llama2-7b', 'llama2-13b', 4608],
    [20, 'Llama 2', 'llama2-13b', 'llama2-70b', 5632],
    [30, 'Llama 2', 'llama2-13b', 'llama2-70b', 6656],
    // 70B is nearer 40B and has GQA: whole groups of 8 heads (1024), 7007 → 7168.
    [40, 'Llama 2', 'llama2-13b', 'llama2-70b', 7168],
    [100, 'Llama 3', 'llama3-70b', 'llama3.1-405b', 9216],
    [200, 'Llama 3', 'llama3-70b', 'llama3.1-405b', 12288],
  ] as const)('%dB %s-style lies between %s and %s: hidden %d in heads of 128, its depth between theirs, within 3%% of the size', (billions, label, lo, hi, hiddenSize) => {
    const prefixes = label === 'Llama 2' ? ['llama2-'] : ['llama3-', 'llama3.1-'];
    const r = customModelOfSize(billions * BILLION, `${billions}B`, llamaStyle(label, prefixes));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const { shape, parameters } = r.model;
    expect(shape.hiddenSize).toBe(hiddenSize);
    expect(shape.hiddenSize / shape.attentionHeads).toBe(128);
    expect(shape.attentionHeads % 4).toBe(0);
    expect(shape.attentionHeads % (shape.kvHeads ?? shape.attentionHeads)).toBe(0);
    expect((shape.ffnHiddenSize ?? 0) % 256).toBe(0);
    expect(shape.layers).toBeGreaterThanOrEqual(modelById(lo)!.shape.layers);
    expect(shape.layers).toBeLessThanOrEqual(modelById(hi)!.shape.layers);
    expect(Math.abs(parameters / (billions * BILLION) - 1)).toBeLessThan(0.03);
  });

  it('a Llama size below one layer and the embeddings of the smallest row is declined with the reason (Llama 3 1B: one layer of Llama 3 8B is 1.27B)', () => {
    expect(parse('how many nodes for llama 3 1b').problems).toEqual([
      '1B parameters is smaller than any Llama 3-style decoder planned here: one layer at the width of Llama 3 8B has 1.27B parameters, most of them the 128256-token embedding',
    ]);
  });

  it('"memory for llama 30b" takes tensor parallel 4: Llama 1 33B\'s 52 heads do not split over 8 ranks', () => {
    const q = parse('memory for llama 30b');
    expect(q.parameters.customModel?.shape.attentionHeads).toBe(52);
    expect(q.parameters.tensor).toBe(4);
    expect(ask('memory for llama 30b').headline).toMatch(/^Llama-style 30B on H100 SXM5 80GB: (does not fit: needs )?[\d.]+ GiB per GPU/);
  });

  it('"llama 30b" is answered with a plan whose scenario is the Llama-style shape', () => {
    const a = ask('how many nodes for llama 30b on H100 in 30 days', { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(/^Llama-style 30B on H100 SXM5 80GB: \d+ nodes/);
    expect(a.scenario?.model).toMatchObject({ name: 'Llama-style 30B', layers: 55, hiddenSize: 6656, ...LLAMA_ARCHITECTURE });
  });
});

describe('answer: a custom size end to end', () => {
  const a = ask('how many nodes for a 30B model on H100 to train 1T tokens in 30 days');

  it('plans it: nodes for 1T tokens within the deadline, the headline naming the GPT-style 30B', () => {
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(/^GPT-style 30B on H100 SXM5 80GB: \d+ nodes \(\d+ GPUs\) train 1\.00T tokens in [\d.]+ days \(deadline 30 days\)$/);
    expect(a.assumptions[0]).toMatch(/^30B taken as a GPT-style decoder/);
  });

  it('its scenario carries the model object, and the contract\'s runEstimate gives the answer\'s own figures for it', () => {
    const model = a.scenario!.model;
    expect(typeof model).toBe('object');
    expect(model).toMatchObject({ layers: 37, hiddenSize: 8192, attentionHeads: 64, name: 'GPT-style 30B' });
    const e = runEstimate(a.scenario!) as EstimateOk;
    expect(e.ok).toBe(true);
    expect(e.mfu).toBe(a.mfu);
    expect(e.stepTimeSeconds).toBe(a.stepTimeSeconds);
    expect(a.widgetUrl).toContain(encodeURIComponent('"name":"GPT-style 30B"'));
  });

  it('memory and step-time questions on a fixed layout name it too (scenarioOf takes the object)', () => {
    const m = ask('memory for a 30B model with tp 8');
    expect(m.ok).toBe(true);
    expect(m.headline).toMatch(/^GPT-style 30B on H100 SXM5 80GB: [\d.]+ GiB per GPU/);
    expect(renderText(m)).toMatch(/30B taken as a GPT-style decoder/);
  });

  it('a size too large to train in time still answers with the closest, never NaN: a 3T model', () => {
    const big = ask('how many nodes for a 3T model');
    expect(big.ok).toBe(false);
    expect(big.headline).toMatch(/^GPT-style 3T on H100 SXM5 80GB: no cluster of up to [\d,]+ nodes meets the deadline/);
    expect(renderText(big)).not.toMatch(/NaN|undefined/);
  });
});

/**
 * A model sized in a family's style trains as the family's rows did: the contract gives a model object Megatron's
 * dropout (on), which no Llama trained with (presets' trainedWithDropout). QA: a Llama 3-style size was planned with
 * dropout's masks, a GPT-style one rightly keeps them as GPT-3 did.
 */
describe('a custom model\'s dropout is its family\'s', () => {
  it.each([
    ['how long to train llama3-7b on 1T tokens on 16 h100 nodes with tp 1 pp 1', false],
    ['how long to train a 30b model on 1T tokens on 16 h100 nodes with tp 8 pp 1', true],
  ])('"%s" plans dropout %s, as the rows it is shaped from trained', (question, dropout) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.customModel?.trainedWithDropout).toBe(dropout);
    const answer = ask(question, { publicUrl: null });
    expect(answer.ok).toBe(true);
    expect((answer.data as EstimateOk | undefined)?.resolved.dropout).toBe(dropout);
  });
});
