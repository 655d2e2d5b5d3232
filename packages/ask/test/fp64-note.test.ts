import { describe, expect, it } from 'vitest';
import { gpuById } from '@trainplan/presets';
import { formatGrouped, toTFLOPS } from '@trainplan/units';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
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

/**
 * A plan asked in FP64 is planned in the GPU's usual precision: said not read, with why, never BF16 unsaid. QA: "train
 * llama3-8b in fp64 on 64 H100" planned BF16 with no word of FP64.
 */
describe('FP64 asked of a plan: said not read, the precision planned named', () => {
  it.each([
    ['train llama3-8b in fp64 on 64 H100', 'fp64', 'BF16 mixed precision'],
    ['how long to train llama3-8b in double precision on 64 H100', 'double precision', 'BF16 mixed precision'],
    ['serve llama3-8b in fp64 on 1 h100', 'fp64', undefined],
  ])('"%s"', (question, phrase, precision) => {
    const a = answerTo(question);
    expect(a.ok).toBe(true);
    const note = a.notes.find((n) => n.startsWith(`Not read: "${phrase}"`));
    expect(note).toMatch(/^Not read: "[^"]+" \(FP64 \(double precision\) is not kept: .*BF16 or FP8.*; FP64 matters for HPC codes such as simulation and linear solvers; planned in the precision the assumptions name\)\.$/);
    if (precision !== undefined) expect(a.assumptions).toContain(precision);
  });

  it('neighbour: a plan in BF16 says nothing of FP64', () => {
    const q = parse('train llama3-8b in bf16 on 64 H100');
    expect(q.stated.precision).toBe('bf16');
    expect(q.notRead ?? []).toEqual([]);
  });
});
