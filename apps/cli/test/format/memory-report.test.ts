import type { MemoryJson, OtherMemoryPartsJson } from '@trainplan/protocol';
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
const RESERVE = 1_610_612_736; // 1.5 GiB
const UNIT = 3_422_617_600;
const memory = (activationsBytes: number, otherParts?: OtherMemoryPartsJson): MemoryJson => {
  const otherBytes = otherParts === undefined ? RESERVE : Object.values(otherParts).reduce((a, b) => a + b, 0);
  const totalBytes = states.weightsBytes + states.gradientsBytes + states.optimizerBytes + activationsBytes + otherBytes;
  return { ...states, activationsBytes, otherBytes, ...(otherParts && { otherParts }), totalBytes, fits: totalBytes <= states.capacityBytes };
};

describe('what the memory rows hold (memoryLines)', () => {
  it('names the gathered ZeRO-3 unit as itself where forward and backward peak higher than the optimizer step', () => {
    // 2048 tokens: 3,576,168,448 bytes of activations, 10% of them fragmentation (357,616,845, 341 MiB): the step's 4e9
    // copy is below the 7,356,402,893 forward and backward hold, so the step's part is 0 and is not named.
    const parts = { runtimeReserveBytes: RESERVE, fragmentationBytes: 357_616_845, zero3GatheredBytes: UNIT, optimizerStepBytes: 0 };
    const other = note(memoryLines(memory(3_576_168_448, parts), zero3), 'other');
    expect(other).toBe('  other: 1.50 GiB runtime reserve (CUDA context, cuBLAS workspaces, NCCL buffers)'
      + ' + 341 MiB allocator fragmentation (10.0% of the activations) + 3.19 GiB the ZeRO-3 unit gathered whole (its 16-bit gradient, and its weights gathered from the other ranks where there are any)');
  });

  it('names the optimizer step\'s fp32 copy beside the unit where the step peaks higher (QA: all of the rest was called the unit)', () => {
    // 128 tokens: 223,510,528 bytes of activations, 22,351,053 of fragmentation; the step's 4e9 copy outlives them and the
    // unit: 4e9 − 223,510,528 − 22,351,053 − 3,422,617,600 = 331,520,819 (316 MiB) more.
    const parts = { runtimeReserveBytes: RESERVE, fragmentationBytes: 22_351_053, zero3GatheredBytes: UNIT, optimizerStepBytes: 331_520_819 };
    const other = note(memoryLines(memory(223_510_528, parts), zero3), 'other');
    expect(other).toMatch(/ \+ 21\.3 MiB allocator fragmentation \(10\.0% of the activations\) \+ 3\.19 GiB the ZeRO-3 unit gathered whole \(its 16-bit gradient, and its weights gathered from the other ranks where there are any\)/);
    expect(other).toMatch(/ \+ 316 MiB the optimizer step's fp32 gradient copy beyond what forward and backward hold$/);
  });

  it('reads the split from the answer, not from the planner\'s constants, and leaves an answer without it unsplit', () => {
    const parts = { runtimeReserveBytes: 2 * RESERVE, fragmentationBytes: 1024, zero3GatheredBytes: 0, optimizerStepBytes: 4096 };
    expect(note(memoryLines(memory(3_576_168_448, parts), zero3), 'other')).toBe('  other: 3.00 GiB runtime reserve (CUDA context, cuBLAS workspaces, NCCL buffers)'
      + ' + 1.00 KiB allocator fragmentation (10.0% of the activations) + 4.00 KiB the optimizer step\'s fp32 gradient copy beyond what forward and backward hold');
    expect(note(memoryLines(memory(3_576_168_448), zero3), 'other')).toBeUndefined();
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
