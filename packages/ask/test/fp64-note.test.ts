import { describe, expect, it } from 'vitest';
import { gpuById } from '@trainplan/presets';
import { formatGrouped, toTFLOPS } from '@trainplan/units';
import { ask } from '../src/answer/answer.ts';
import type { Answer } from '../src/answer/answer-types.ts';

const answerTo = (question: string): Answer => ask(question, { publicUrl: null });

/**
 * FP64 is kept in no GPU preset (the widget's bundle has no room for a figure no plan uses): asked, the answer says so, with
 * why (training runs BF16 or FP8; FP64 is HPC's), before the peaks held. QA: "FP64 peak of H100" showed the BF16/FP8
 * table with no word of FP64.
 */
describe('FP64 asked of a GPU: said not kept, never a table silent on it', () => {
  it.each([
    ['FP64 peak of H100', 'H100 SXM5 80GB'],
    ['double precision flops of the A100', 'A100 SXM4 80GB'],
    ['what is the fp64 of the h100', 'H100 SXM5 80GB'],
    ['h100 double-precision throughput', 'H100 SXM5 80GB'],
  ])('"%s"', (question, name) => {
    const a = answerTo(question);
    expect({ kind: a.kind, ok: a.ok }).toEqual({ kind: 'answer', ok: true });
    expect(a.headline.startsWith(`${name}: no FP64 rate kept (the notes say why); peak `)).toBe(true);
    expect(a.notes[0]).toMatch(/^FP64 \(double precision\) is not kept: .*BF16 or FP8.*; FP64 matters for HPC/);
    // No FP64 figure is made up: the figures are the precisions the preset holds.
    expect(a.figures.some((f) => /fp64|double/i.test(f.label))).toBe(false);
  });

  it('neighbour: a BF16 peak asked says nothing of FP64', () => {
    const a = answerTo('peak bf16 of h100');
    const bf16 = formatGrouped(toTFLOPS(gpuById('h100-sxm')!.peakFlops.bf16!));
    expect(a.headline).toBe(`H100 SXM5 80GB: peak BF16 ${bf16} TFLOP/s (dense).`);
    expect(a.notes.some((n) => /FP64/.test(n))).toBe(false);
  });
});
