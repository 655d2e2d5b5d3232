import { describe, expect, it } from 'vitest';
import { attendLimit, learnedPositionRows, withShapeDefaults } from '../src/index.ts';

// maxPositions is set beside the defaults, as the protocol's resolve sets it for a run longer than the model's table.
const shape = (positionEmbedding: 'learned' | 'rotary', seqLength: number, maxPositions?: number) => ({
  ...withShapeDefaults({ layers: 2, hiddenSize: 64, attentionHeads: 4, vocabSize: 100, seqLength, positionEmbedding }),
  ...(maxPositions !== undefined && { maxPositions }),
});

describe('how far a model is known to attend (attendLimit)', () => {
  it('a recorded context window decides, whatever the positions (Llama 3.1: 131,072 past its 8,192 training length)', () => {
    expect(attendLimit(shape('rotary', 8192), 131_072)).toEqual({ tokens: 131_072, kind: 'window' });
    expect(attendLimit(shape('learned', 2048), 4096)).toEqual({ tokens: 4096, kind: 'window' });
  });

  it('a learned table attends over its rows: the sequence length, or --max-position-embeddings where larger', () => {
    expect(attendLimit(shape('learned', 2048), undefined)).toEqual({ tokens: 2048, kind: 'learned' });
    expect(attendLimit(shape('learned', 1024, 2048), undefined)).toEqual({ tokens: 2048, kind: 'learned' });
  });

  it('rotary with no window: only the length it was trained at is known', () => {
    expect(attendLimit(shape('rotary', 4096, 8192), undefined)).toEqual({ tokens: 4096, kind: 'trained' });
  });

  it('a learned table never has fewer rows than the sequence run at (Megatron requires max-position-embeddings ≥ seq-length)', () => {
    expect(learnedPositionRows(shape('learned', 2048))).toBe(2048);
    expect(learnedPositionRows(shape('learned', 2048), 8192)).toBe(8192);
    expect(learnedPositionRows(shape('learned', 2048, 4096), 1024)).toBe(4096);
  });
});
