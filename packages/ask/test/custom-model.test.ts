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
    expect(parse('how many nodes for nemotron 30b').problems).toEqual(['no Nemotron-4 preset has about 30B parameters (ask for "a 30B model" to plan a GPT-style decoder of that size)']);
    expect(parse('how many nodes for bloom 7b').problems).toEqual(['no BLOOM preset has about 7B parameters (ask for "a 7B model" to plan a GPT-style decoder of that size)']);
  });
});

describe('a Llama size no preset has: a Llama-style decoder', () => {
  const LLAMA_ARCHITECTURE = { gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false, normalization: 'rmsnorm' };

  it('Llama 3 30B takes Llama 3 70B\'s width, heads, 8 key/value heads, FFN and architecture (Dubey et al. 2024, Table 3), with 33 layers', () => {
    const r = customModelOfSize(30 * BILLION, '30B', llamaStyle('Llama 3', ['llama3-', 'llama3.1-']));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const row = modelById('llama3-70b')!.shape;
    expect(r.model.shape).toEqual({
      name: 'Llama 3-style 30B', layers: 33, hiddenSize: row.hiddenSize, attentionHeads: row.attentionHeads, kvHeads: row.kvHeads,
      ffnHiddenSize: row.ffnHiddenSize, vocabSize: row.vocabSize, seqLength: row.seqLength, ...LLAMA_ARCHITECTURE,
    });
    // Untied, gated, GQA: the count is the Llama one, not GPT defaults' (which would be ~1.5x larger at this shape).
    expect(r.model.parameters).toBe(parameterCount({ ...row, name: 'Llama 3-style 30B', layers: 33 }));
    expect(Math.abs(countWithLayers(r.model.shape, 32) - 30 * BILLION)).toBeGreaterThan(Math.abs(r.model.parameters - 30 * BILLION));
    expect(Math.abs(countWithLayers(r.model.shape, 34) - 30 * BILLION)).toBeGreaterThan(Math.abs(r.model.parameters - 30 * BILLION));
    expect(r.reading).toBe('30B taken as a Llama 3-style decoder (no Llama 3 preset has that size): 33 layers, hidden 8192, 64 heads (8 key/value), '
      + 'gated FFN 28672 (SwiGLU), untied embeddings, RMSNorm, rotary positions, vocabulary 128256, 8192-token sequences (~30.3B parameters); '
      + 'width, heads and FFN of Llama 3 70B (Dubey et al. 2024, Table 3), the published Llama 3 shape nearest in size, with the layer count that lands nearest 30B');
  });

  it.each([
    ['how many nodes for llama 30b', 'Llama-style 30B'],
    ['how many nodes for a 30B llama', 'Llama-style 30B'],
    ['how many nodes for a 30b parameter llama model', 'Llama-style 30B'],
    ['how many nodes for llama 2 30b', 'Llama 2-style 30B'],
    ['how many nodes for a llama-style 30B', 'Llama-style 30B'],
    ['how many nodes for a llama style 30b model', 'Llama-style 30B'],
    ['how many nodes for a 30B llama-style model', 'Llama-style 30B'],
    ['how many nodes for llama 2 like 30b', 'Llama 2-style 30B'],
  ])('%s: Llama 2 13B is the Llama row nearest 30B on a log scale (13B, not 70B), cited as Touvron et al. 2023 (its widths are no table of that paper)', (question, name) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    const row = modelById('llama2-13b')!.shape;
    expect(q.parameters.customModel?.shape).toMatchObject({ name, layers: 94, hiddenSize: row.hiddenSize, kvHeads: row.kvHeads, ffnHiddenSize: row.ffnHiddenSize, ...LLAMA_ARCHITECTURE });
    expect(q.defaults[0]?.text).toMatch(/width, heads and FFN of Llama 2 13B \(Touvron et al\. 2023\), the published Llama (2 )?shape nearest in size/);
    expect(q.parameters.tokens).toBe(600 * BILLION);
  });

  it('a Llama size below one layer and the embeddings of the smallest row is declined with the reason (Llama 3 1B: one layer of Llama 3 8B is 1.27B)', () => {
    expect(parse('how many nodes for llama 3 1b').problems).toEqual([
      '1B parameters is smaller than any Llama 3-style decoder planned here: one layer at the width of Llama 3 8B has 1.27B parameters, most of them the 128256-token embedding',
    ]);
  });

  it('"llama 30b" is answered with a plan whose scenario is the Llama-style shape', () => {
    const a = ask('how many nodes for llama 30b on H100 in 30 days', { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(/^Llama-style 30B on H100 SXM5 80GB: \d+ nodes/);
    expect(a.scenario?.model).toMatchObject({ name: 'Llama-style 30B', layers: 94, ...LLAMA_ARCHITECTURE });
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
    expect(big.headline).toMatch(/^GPT-style 3T on H100 SXM5 80GB: no cluster of up to \d+ nodes meets the deadline/);
    expect(renderText(big)).not.toMatch(/NaN|undefined/);
  });
});
