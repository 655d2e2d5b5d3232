import { describe, expect, it } from 'vitest';
import { parameterBreakdown, parameterCount, stageParameters, layersPerStage, withShapeDefaults } from '../src/index.ts';
import { gpt3_175b, llama3_70b } from './fixtures.ts';

/** Narayanan et al. SC'21 eq. 2 (GPT: learned positions, tied embeddings, f = 4h), as the paper writes it. */
const narayananParameterCount = ({ layers: L, hiddenSize: h, vocabSize: V, seqLength: s }: typeof gpt3_175b) =>
  12 * L * h * h * (1 + 13 / (12 * h) + (V + s) / (12 * L * h));

describe('parameter counts', () => {
  it('GPT-3 175B equals Narayanan SC\'21 eq. 2 plus the final LayerNorm', () => {
    const h = 12288;
    // The paper's factored form carries float rounding: equal to 1e-12 relative.
    expect(parameterCount(gpt3_175b) / (narayananParameterCount(gpt3_175b) + 2 * h)).toBeCloseTo(1, 12);
  });

  it('a learned position table has max(s, maxPositions) rows: a shorter run keeps the table, a longer one grows it', () => {
    const h = 12288;
    const at = (seqLength: number, maxPositions?: number) =>
      parameterBreakdown({ ...gpt3_175b, seqLength, ...(maxPositions !== undefined && { maxPositions }) }).positionEmbedding;
    expect(at(1024, 2048)).toBe(2048 * h);
    expect(at(4096, 2048)).toBe(4096 * h);
    expect(at(1024)).toBe(1024 * h);
    // Rotary positions have no table, whatever maxPositions says.
    expect(parameterBreakdown({ ...gpt3_175b, positionEmbedding: 'rotary', maxPositions: 2048 }).positionEmbedding).toBe(0);
  });

  it('GPT-3 175B has 174.6 billion parameters with Megatron\'s padded vocabulary', () => {
    // 12·L·h² + 13·L·h + (V + s)·h + 2h, spelled out.
    const L = 96, h = 12288, V = 51200, s = 2048;
    expect(parameterCount(gpt3_175b)).toBe(12 * L * h * h + 13 * L * h + (V + s) * h + 2 * h);
    expect(parameterCount(gpt3_175b) / 1e9).toBeCloseTo(174.6, 1);
  });

  it('Llama 3 70B has 70.55 billion parameters (Meta states 70.6B)', () => {
    const L = 80, h = 8192, kv = 1024, f = 28672, V = 128256;
    const attention = h * (h + 2 * kv) + h * h;
    const mlp = 3 * h * f;
    const norms = 2 * h;
    const expected = L * (attention + mlp + norms) + 2 * V * h + h;
    expect(parameterCount(llama3_70b)).toBe(expected);
    expect(parameterCount(llama3_70b) / 1e9).toBeCloseTo(70.55, 2);
  });

  it('splits a GPT layer into 12h² + 13h', () => {
    const h = 12288;
    expect(parameterBreakdown(gpt3_175b).perLayer).toBe(12 * h * h + 13 * h);
  });

  it('an untied output layer adds V·h; tying removes it', () => {
    const tied = withShapeDefaults({ layers: 2, hiddenSize: 64, attentionHeads: 4, vocabSize: 1000, seqLength: 128 });
    const untied = { ...tied, tiedEmbeddings: false };
    expect(parameterCount(untied) - parameterCount(tied)).toBe(1000 * 64);
  });
});

describe('parameters per pipeline stage', () => {
  it('puts the remainder of an uneven split on the middle stages', () => {
    expect(layersPerStage(96, 8)).toEqual(Array(8).fill(12));
    expect(layersPerStage(10, 4)).toEqual([2, 3, 3, 2]);
    expect(layersPerStage(105, 35).reduce((a, b) => a + b)).toBe(105);
  });

  it('with p = 1 and t = 1 one GPU holds the whole model', () => {
    const [only] = stageParameters({ shape: gpt3_175b, tensorParallel: 1, layersPerStage: [96] });
    expect(only).toBe(parameterCount(gpt3_175b));
  });

  it('with tied embeddings and p > 1 the last stage holds a second copy of the word embedding', () => {
    const t = 8;
    const stages = stageParameters({ shape: gpt3_175b, tensorParallel: t, layersPerStage: layersPerStage(96, 8) });
    const sum = stages.reduce((a, b) => a + b, 0);
    const wordEmbeddingShard = (51200 * 12288) / t;
    // Every TP rank holds replicated norms and row biases, so the sum exceeds P/t by those and the copy.
    expect(sum).toBeGreaterThan(parameterCount(gpt3_175b) / t + wordEmbeddingShard);
    expect(stages[0]!).toBeGreaterThan(stages[3]!);
    expect(stages[7]!).toBeGreaterThan(stages[3]!);
  });
});
