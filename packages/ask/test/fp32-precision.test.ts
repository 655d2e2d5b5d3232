import type { SearchResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const options = { publicUrl: null } as const;

/** The note a plan asked in FP32 or TF32 has, by the phrase as typed. */
const noteOf = (question: string, phrase: string) => parse(question).notRead?.find((n) => n.phrase === `"${phrase}"`);

/**
 * FP32 and TF32 are no precision the planner has (FP16, BF16, FP8): a plan asked in one is planned in the 16-bit mixed
 * precision, which keeps FP32 master weights, gradients and Adam moments as Megatron's does (fp32 main params), and says
 * so, as FP64 is said (fp64-note.test.ts). QA: "train llama3-8b in fp32 on 64 H100" planned BF16 with no word of FP32.
 */
describe('FP32 or TF32 asked of a training plan: said not modelled, the precision planned named', () => {
  it.each([
    ['train llama3-8b in fp32 on 64 H100', 'fp32', 'FP32'],
    ['train llama3-8b in FP32 on 64 H100', 'FP32', 'FP32'],
    ['train llama3-8b full fp32 on 64 H100', 'full fp32', 'FP32'],
    ['train llama3-8b in TF32 on 64 H100', 'TF32', 'TF32'],
    ['how long to train llama3-8b in single precision on 64 H100', 'single precision', 'FP32'],
    ['how much memory to train llama3-8b in float32 on 8 H100', 'float32', 'FP32'],
  ])('"%s"', (question, phrase, name) => {
    const q = parse(question);
    // Planned in the GPU's 16-bit precision, which the default says it took in place of the one asked.
    expect(q.parameters.precision).toBe('bf16');
    expect(q.defaults.find((d) => d.field === 'precision')?.text).toBe(`BF16 mixed precision (in place of the ${name} asked, which is not modelled: see the notes)`);
    const why = noteOf(question, phrase)?.why;
    expect(why).toMatch(new RegExp(`^${name} training is not modelled, only FP16, BF16 and FP8 are: planned in BF16 mixed precision, which keeps FP32 master weights, gradients and Adam moments`));
    expect(why).toContain('fp32 main params');
  });

  it('the answer says it, and the plan it gives is the BF16 one', () => {
    const a = ask('train llama3-8b in fp32 on 64 H100', options);
    expect(a.ok).toBe(true);
    expect((a.data as Extract<SearchResponseJson, { ok: true }>).best.estimate.resolved.precision).toBe('bf16');
    expect(a.notes).toContainEqual(expect.stringMatching(/^Not read: "fp32" \(FP32 training is not modelled, only FP16, BF16 and FP8 are: planned in BF16 mixed precision, which keeps FP32 master weights/));
  });

  it('on a GPU without BF16 (V100) the FP16 planned is named', () => {
    expect(noteOf('train llama3-8b in fp32 on 64 V100', 'fp32')?.why).toMatch(/: planned in FP16 mixed precision, which keeps FP32 master weights/);
  });

  it('beside a precision named, that one is planned and named', () => {
    const q = parse('is bf16 faster than fp32 for llama3-8b on 64 h100');
    expect(q.stated.precision).toBe('bf16');
    expect(noteOf('is bf16 faster than fp32 for llama3-8b on 64 h100', 'fp32')?.why).toMatch(/: planned in BF16 mixed precision/);
  });

  it('served in FP32: the 16-bit weights served are named', () => {
    expect(noteOf('serve llama3-8b in fp32 on 1 h100', 'fp32')?.why).toBe('FP32 weights are not modelled, only FP16, BF16 and FP8 are: served in BF16 weights, half the bytes of FP32\'s');
  });
});

describe('neighbours: FP32 parts of a mixed-precision run, a GPU\'s FP32 rate and an FP32 KV cache ask no plan in FP32', () => {
  it.each([
    'train llama3-8b on 64 H100 with fp32 master weights',
    'train llama3-8b in bf16 with fp32 gradients on 64 h100',
    'how much memory for llama3-8b on 8 h100 with optimizer states in fp32',
    'train llama3-8b on 64 H100, accumulate in fp32',
  ])('"%s": no note', (question) => {
    const q = parse(question);
    expect(q.notRead ?? []).toEqual([]);
    expect(q.parameters.precision).toBe('bf16');
    expect(q.defaults.some((d) => /in place of/.test(d.text))).toBe(false);
  });

  it('an FP32 KV cache is the cache\'s format, refused as before, with no word of FP32 training', () => {
    const q = parse('serve llama3-8b with fp32 kv cache on 1 h100');
    expect(q.problems).toEqual([expect.stringMatching(/^an FP32 KV cache is not modelled/)]);
    expect(q.notRead ?? []).toEqual([]);
  });

  it('the FP32 peak of a GPU is answered as its figure, no plan', () => {
    const a = ask('what is the peak fp32 of the h100', options);
    expect(a.headline).toMatch(/^H100 SXM5 80GB: peak FP32 /);
    expect(a.notes.some((n) => /not modelled/.test(n))).toBe(false);
  });
});
