import { modelById } from '@trainplan/presets';
import { describe, expect, it } from 'vitest';
import { GPT_STYLE, llamaStyle } from '../src/custom-model.ts';
import { widthFor } from '../src/custom-width.ts';

const LLAMA_2 = llamaStyle('Llama 2', ['llama2-']);
const LLAMA_3 = llamaStyle('Llama 3', ['llama3-', 'llama3.1-']);

describe('widthFor: the width a custom model is built at', () => {
  it.each([
    // At a published size the interpolation is the row's own width, heads and key/value heads, and Meta's FFN formula
    // at its multiplier gives its FFN (multiple_of 256 for Llama 2 7B/13B; Llama 3 8B's 1024 lands on a multiple of 256 too).
    [LLAMA_2, 'llama2-7b', 0],
    [LLAMA_2, 'llama2-13b', 0],
    [LLAMA_3, 'llama3-8b', 0],
    // Llama 3 70B rounded its FFN to 4096: 256 gives 28,416 for its 28,672 (0.9% less).
    [LLAMA_3, 'llama3-70b', 0.01],
  ] as const)('%#: at %s\'s own size, its width', (family, id, ffnTolerance) => {
    const row = modelById(id)!;
    const w = widthFor(family, row.publishedParameters);
    expect(w).toMatchObject({ hiddenSize: row.shape.hiddenSize, attentionHeads: row.shape.attentionHeads, kvHeads: row.shape.kvHeads });
    expect(Math.abs((w?.ffnHiddenSize ?? 0) / row.shape.ffnHiddenSize - 1)).toBeLessThanOrEqual(ffnTolerance);
  });

  it('outside the published sizes, the nearest row\'s width as it is (Llama 2 200B: Llama 2 70B\'s), nothing interpolated', () => {
    const w = widthFor(LLAMA_2, 200e9);
    expect(w?.row.id).toBe('llama2-70b');
    expect(w).toMatchObject({ hiddenSize: 8192, attentionHeads: 64 });
    expect(w?.between).toBeUndefined();
    expect(w?.ffnHiddenSize).toBeUndefined();
  });

  it('GPT-style is never interpolated: 30B takes Megatron GPT 39.1B\'s width and heads (SC\'21 Table 1)', () => {
    const w = widthFor(GPT_STYLE, 30e9);
    expect(w?.row.id).toBe('megatron-39.1b');
    expect(w?.between).toBeUndefined();
  });

  it('Llama 30B lies between Llama 2 13B and the 70B row, with 13B, the nearer on a log scale, as its row', () => {
    const w = widthFor(llamaStyle('Llama', ['llama3-', 'llama3.1-', 'llama2-']), 30e9);
    expect(w?.between?.map((r) => r.id)).toEqual(['llama2-13b', 'llama3-70b']);
    expect(w?.row.id).toBe('llama2-13b');
    expect(w).toMatchObject({ hiddenSize: 6656, attentionHeads: 52, kvHeads: 52, ffnHiddenSize: 17920 });
  });
});
