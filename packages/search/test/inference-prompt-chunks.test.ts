import { describe, expect, it } from 'vitest';
import { gpuById } from '@trainplan/hardware';
import { withShapeDefaults } from '@trainplan/model';
import { estimateInference, promptChunkTokens, type InferenceEstimate, type InferenceShape, type SearchBase } from '../src/index.ts';
import { a100Fabric, gpt3Base, h100Fabric } from './fixtures.ts';

/** Llama 3 8B (Meta's model card: 32 layers, h 4096, 32 heads, 8 KV heads, FFN 14336, 128,256-token vocabulary). */
const llama3_8b = withShapeDefaults({
  name: 'llama3-8b', layers: 32, hiddenSize: 4096, attentionHeads: 32, kvHeads: 8, ffnHiddenSize: 14336, vocabSize: 128256,
  seqLength: 8192, gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false, normalization: 'rmsnorm',
});
const onH100: SearchBase = { ...gpt3Base, model: llama3_8b, gpu: gpuById('h100-sxm')!, fabric: h100Fabric, nodes: 1, seqLength: 8192, dropout: false };
const onA100: SearchBase = { ...gpt3Base, model: llama3_8b, gpu: gpuById('a100-80gb')!, fabric: a100Fabric, nodes: 1, seqLength: 8192, dropout: false };

function estimate(base: SearchBase, s: InferenceShape): InferenceEstimate {
  const e = estimateInference(base, s);
  if (!e.ok) throw new Error(`${JSON.stringify(s)}: ${e.message}`);
  return e;
}

describe('a prompt\'s chunks are cut as the engines cut them: full chunks, then the rest', () => {
  const cut = (...args: Parameters<typeof promptChunkTokens>) => promptChunkTokens(...args).map((c) => [c.fromToken, c.toToken]);

  it('1,025 tokens in 512-token chunks: 512 + 512 + 1, not 3 × 341.7', () => {
    expect(cut(1025, 0, 512)).toEqual([[0, 512], [512, 1024], [1024, 1025]]);
  });

  it('past a cached prefix of 1,024 tokens, 1,024 new ones in 257-token chunks: 257 × 3 + 253, from token 1,024 on', () => {
    expect(cut(2048, 1024, 257)).toEqual([[1024, 1281], [1281, 1538], [1538, 1795], [1795, 2048]]);
  });

  it('no chunk, or one larger than the prompt: one chunk of all its new tokens', () => {
    expect(cut(700, 0)).toEqual([[0, 700]]);
    expect(cut(700, 0, 1024)).toEqual([[0, 700]]);
    expect(cut(700, 512, 1024)).toEqual([[512, 700]]);
  });
});

describe('QA retest 2, F1: one more prompt token never makes serving faster (Llama 3 8B, continuous, 512-token chunks)', () => {
  // Equal chunks costed a 513-token prompt as 2 × 256.5 tokens: its ITL was 10.25 ms against 512 tokens' 11.49 (−11%),
  // and its tokens/s per GPU 6,210 against 5,556.
  const at = (base: SearchBase, parallel: number, batch: number, promptTokens: number) => estimate(base, {
    tensor: parallel, pipeline: parallel, batch, promptTokens, outputTokens: 256, batching: 'continuous', prefillChunkTokens: 512,
  });
  /** L: iterations a sequence holds its slot, its chunks then the rest of its 256 tokens. */
  const slot = (promptTokens: number) => 256 + Math.ceil(promptTokens / 512) - 1;
  it.each([
    // Batch 64 on one H100 is past what 512-token chunks keep running at 4,096 tokens (chunkBatchLimit: 32).
    ['H100 TP 1, batch 64', onH100, 1, 64, [512, 1024]], ['H100 TP 1, batch 16', onH100, 1, 16, [512, 1024, 4096]],
    ['A100 TP 1, batch 32', onA100, 1, 32, [512, 1024, 4096]], ['H100 TP 2 · PP 2, batch 64', onH100, 2, 64, [512, 1024, 4096]],
  ] as const)('%s: across chunk boundaries TTFT does not fall, tokens/s per GPU does not rise, and ITL falls at most by the slower turnover', (_, base, parallel, batch, boundaries) => {
    for (const boundary of boundaries) {
      const runs = [boundary - 1, boundary, boundary + 1, boundary + 2].map((p) => at(base, parallel, batch, p));
      for (let i = 1; i < runs.length; i++) {
        expect(runs[i]!.prefillSeconds).toBeGreaterThanOrEqual(runs[i - 1]!.prefillSeconds);
        expect(runs[i]!.tokensPerSecondPerGpu).toBeLessThanOrEqual(runs[i - 1]!.tokensPerSecondPerGpu);
        // A slot held one iteration more (its last 1-token chunk) turns over 1/L more slowly, so fewer prompts are
        // admitted an iteration (Little's law) and the others' stall shrinks: a sequence's time per token may fall, but by
        // less than that share (−11% before, where 256/257 allows −0.4%).
        const [before, after] = [runs[i - 1]!, runs[i]!];
        expect(after.decodeStepSeconds / before.decodeStepSeconds).toBeGreaterThanOrEqual(slot(before.shape.promptTokens) / slot(after.shape.promptTokens));
      }
    }
  });

  it('H100 TP 1, batch 64: within a chunk count, every prompt length from 400 to 1,200 tokens decodes no faster than the one before', () => {
    let previous = { chunks: 0, itl: 0 };
    for (let promptTokens = 400; promptTokens <= 1200; promptTokens++) {
      const e = at(onH100, 1, 64, promptTokens);
      const chunks = Math.ceil(promptTokens / 512);
      if (chunks === previous.chunks) expect(e.decodeStepSeconds).toBeGreaterThanOrEqual(previous.itl);
      previous = { chunks, itl: e.decodeStepSeconds };
    }
  });
});

describe('QA retest 2, F3: the prefill\'s all-reduce takes the decode\'s custom kernel where it is the quicker', () => {
  // NCCL's LL channels step at 32 KiB multiples (8 tokens of h 4096): a 7-token prompt's TTFT was 4.537 ms, an 8-token one's 4.163.
  // Up to where NCCL's model turns the quicker (about 256 KiB on A100, 192 KiB on H100: 32 and 24 tokens of h 4096);
  // past it the two all-reduces keep NCCL's saw-tooth, as the decode's do (QA retest 2's F2, left open).
  it.each([['A100', 32, onA100], ['H100', 16, onH100]] as const)('%s TP 8, static, batch 1: TTFT never falls as the prompt grows from 1 to %i tokens', (_, most, base) => {
    let previous = 0;
    for (let promptTokens = 1; promptTokens <= most; promptTokens++) {
      const e = estimate(base, { tensor: 8, pipeline: 1, batch: 1, promptTokens, outputTokens: 256 });
      expect(e.prefillSeconds).toBeGreaterThanOrEqual(previous);
      previous = e.prefillSeconds;
    }
  });
});
