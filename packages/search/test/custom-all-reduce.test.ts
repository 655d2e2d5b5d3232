import { describe, expect, it } from 'vitest';
import { collectiveCost } from '@trainplan/collectives';
import { customAllReduceRuns, customAllReduceSeconds } from '../src/inference/custom-all-reduce.ts';
import { tensorParallelAllReduceSeconds } from '../src/inference/decode-layer.ts';
import { estimateInference } from '../src/index.ts';
import { h100Fabric, llama70bBase } from './fixtures.ts';

/**
 * vLLM's custom all-reduce timed on an H100 node, in µs: SGLang PR #2904 (sgl-project/sglang, 2025-01-15), "unit test
 * performance in H100 (without cuda graph)", its "vllm" table, columns TP 2/4/8. Not the model's output: the source's.
 */
const MEASURED_US: Record<number, readonly [number, number, number]> = {
  512: [9.5, 9.1, 10.1],
  4096: [8.8, 8.5, 9.3],
  32768: [8.7, 9.2, 11.8],
  262144: [12.9, 20.6, 24.1],
  524288: [17.7, 26.9, 30.4],
  1048576: [26.6, 40.2, 45.0],
};

describe('a serving engine\'s custom all-reduce (vLLM\'s), for the decode step\'s small messages', () => {
  it.each(Object.entries(MEASURED_US).flatMap(([bytes, us]) => [2, 4, 8].map((t, i) => [Number(bytes), t, us[i]!] as const)))(
    '%d B over TP %d: within 12.7%% of the µs SGLang measured', (bytes, ranks, us) => {
      const predicted = customAllReduceSeconds(bytes, ranks)! * 1e6;
      expect(Math.abs(predicted / us - 1)).toBeLessThanOrEqual(0.127);
    });

  it('runs on 2, 4, 6 or 8 GPUs all on one NVSwitch, up to its 8 MiB buffer; NCCL otherwise', () => {
    expect([1, 2, 3, 4, 6, 8, 16].map((t) => customAllReduceRuns(t, t, h100Fabric))).toEqual([false, true, false, true, true, true, false]);
    // TP 8 over two nodes of 4: not within one node's NVLink.
    expect(customAllReduceRuns(8, 4, h100Fabric)).toBe(false);
    // DGX-1's hybrid cube-mesh does not join 4 GPUs all to all; two linked GPUs do.
    const cube = { ...h100Fabric, intraNode: 'nvlink-hybrid-cube-mesh' as const };
    expect([customAllReduceRuns(4, 4, cube), customAllReduceRuns(2, 2, cube)]).toEqual([false, true]);
    expect(customAllReduceSeconds(8 * 2 ** 20, 8)).toBeDefined();
    expect(customAllReduceSeconds(8 * 2 ** 20 + 1, 8)).toBeUndefined();
  });

  it('is never slower than NCCL\'s cost, and where the custom kernel is the quicker it rises with the message', () => {
    const group = { ranks: 8, ranksPerNode: 8 };
    let previous = 0;
    let customTaken = 0;
    // Llama 2 70B's decode all-reduce, 2 bytes × h = 8,192 per sequence, for 1 to 256 sequences.
    for (let sequences = 1; sequences <= 256; sequences++) {
      const bytes = 2 * 8192 * sequences;
      const s = tensorParallelAllReduceSeconds(llama70bBase as never, group, bytes);
      const nccl = collectiveCost({ op: 'all-reduce', bytes, group, fabric: h100Fabric, algorithm: 'auto' }).seconds;
      expect(s).toBeLessThanOrEqual(nccl);
      if (s === customAllReduceSeconds(bytes, 8)) {
        expect(s).toBeGreaterThanOrEqual(previous);
        previous = s;
        customTaken++;
      }
    }
    // The custom kernel is the quicker for the small messages at least (1 to 8 sequences: 16 to 128 KiB).
    expect(customTaken).toBeGreaterThanOrEqual(8);
  });

  it('a decode step of 4 sequences on TP 8 no longer beats one of 3 (NCCL\'s 24 KiB cost above its 32 KiB one did)', () => {
    const shape = { tensor: 8, pipeline: 1, promptTokens: 2048, outputTokens: 512 };
    const [three, four] = [3, 4].map((batch) => estimateInference(llama70bBase as never, { ...shape, batch }));
    if (!three!.ok || !four!.ok) throw new Error('Llama 2 70B on TP 8 should serve 3 and 4 sequences');
    expect(four!.decodeStepSeconds).toBeGreaterThanOrEqual(three!.decodeStepSeconds);
  });
});
