import type { MemoryJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { memoryLines } from '../../src/format/memory-report.ts';
import { fixtureEstimate } from '../support/scenarios.ts';

const note = (lines: string[], row: string) => lines.find((l) => l.startsWith(`  ${row}: `));

/**
 * Llama 2 70B under ZeRO-3 on 8 GPUs at micro-batch 1 (QA F2), figures by hand (planner test zero3-step-memory.test.ts):
 * P = 68,976,648,192 parameters; 2·P/8 bytes of weights and of gradients, 12·P/8 of optimizer states; the largest unit
 * gathered is a layer, 4 · 855,654,400 = 3,422,617,600 bytes (3.19 GiB); the optimizer step casts one sub-group of 1e9
 * parameters to fp32, 4e9 bytes.
 */
const zero3 = { ...fixtureEstimate.resolved, model: 'llama2-70b', tensor: 1, pipeline: 1, data: 8, zeroStage: 3, recompute: 'full' as const };
const states = { weightsBytes: 17_244_162_048, gradientsBytes: 17_244_162_048, optimizerBytes: 103_464_972_288, capacityBytes: 150_754_820_096, stage: 0 };
const memory = (activationsBytes: number, otherBytes: number): MemoryJson => {
  const totalBytes = states.weightsBytes + states.gradientsBytes + states.optimizerBytes + activationsBytes + otherBytes;
  return { ...states, activationsBytes, otherBytes, totalBytes, fits: totalBytes <= states.capacityBytes };
};

describe('what the memory rows hold (memoryLines)', () => {
  it('names the gathered ZeRO-3 unit as itself where forward and backward peak higher than the optimizer step', () => {
    // 2048 tokens: 3,576,168,448 bytes of activations, 10% of them fragmentation (341 MiB); other = 1.5 GiB + 357,616,845
    // + 3,422,617,600 = 5,390,847,181: the step's 4e9 copy is below the 7,356,402,893 forward and backward hold.
    const other = note(memoryLines(memory(3_576_168_448, 5_390_847_181), zero3), 'other');
    expect(other).toBe('  other: 1.50 GiB runtime reserve (CUDA context, cuBLAS workspaces, NCCL buffers)'
      + ' + 341 MiB allocator fragmentation (10.0% of the activations) + 3.19 GiB the ZeRO-3 unit gathered whole (16-bit weights and gradient)');
  });

  it('names the optimizer step\'s fp32 copy where the step peaks higher, under ZeRO-3 too (QA: all of it was called the unit)', () => {
    // 128 tokens: 223,510,528 bytes of activations; other = 1.5 GiB + 4e9 − 223,510,528 = 5,387,102,208, of which the
    // reserve and 22,351,053 of fragmentation leave 3,754,138,419 (3.50 GiB): the copy beyond the activations it replaces.
    const other = note(memoryLines(memory(223_510_528, 5_387_102_208), zero3), 'other');
    expect(other).toMatch(/ \+ 21\.3 MiB allocator fragmentation \(10\.0% of the activations\) \+ 3\.50 GiB the optimizer step's fp32 gradient copy beyond the activations$/);
  });

  it('says the gradients are fp32, as Megatron holds them, where the ZeRO paper counts 16-bit ones (QA F3)', () => {
    const text = '  gradients: fp32 main gradients, as Megatron keeps them (the ZeRO paper\'s baseline counts 16-bit)';
    const at = (r: Partial<typeof fixtureEstimate.resolved>) => note(memoryLines(fixtureEstimate.memory, { ...fixtureEstimate.resolved, ...r }), 'gradients');
    // bf16 and fp8 with Megatron's fused fp32 main gradients, with or without the distributed optimizer.
    expect(at({})).toBe(text);
    expect(at({ precision: 'fp8' })).toBe(text);
    expect(at({ distributedOptimizer: true })).toBe(text);
    // 16-bit gradients: fp16's buffer, the 16-bit one asked for, and ZeRO's.
    expect(at({ precision: 'fp16' })).toBeUndefined();
    expect(at({ gradientAccumulation: 'fused-16-bit' })).toBeUndefined();
    expect(at({ zeroStage: 1 })).toBeUndefined();
    expect(note(memoryLines(fixtureEstimate.memory), 'gradients')).toBeUndefined(); // no plan given: nothing said
  });
});
