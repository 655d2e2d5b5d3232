import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { gpuFactsAsked, precisionsAsked } from '../src/lexicon/gpu-facts.ts';
import type { Answer } from '../src/answer/answer-types.ts';

const answerTo = (question: string): Answer => ask(question, { publicUrl: null });
const figure = (a: Answer, label: string): string | undefined => a.figures.find((f) => f.label === label)?.value;
/** A GPU's figures answer, told by the figure only it gives. */
const isGpuFacts = (a: Answer): boolean => a.figures.some((f) => f.label.startsWith('NVLink per direction'));

describe('a GPU\'s own figures, asked with no model (QA: all three were refused)', () => {
  it('"what is the peak bf16 of the b200": its dense BF16 peak, then every figure and the datasheet it cites', () => {
    const a = answerTo('what is the peak bf16 of the b200');
    expect({ kind: a.kind, ok: a.ok }).toEqual({ kind: 'answer', ok: true });
    // HGX B200 page, per GPU: BF16 4.5 PF with sparsity, ÷ 2 for dense = 2,250 TFLOP/s.
    expect(a.headline).toBe('B200 (HGX B200): peak BF16 2,250 TFLOP/s (dense).');
    // FP8 9 PF sparse ÷ 2 = 4,500; TF32 = half the 16-bit rate, 1,125; 7.7 TB/s = 7,700 GB/s; 1,000 W.
    expect(figure(a, 'Peak FP8 (dense)')).toBe('4,500 TFLOP/s');
    expect(figure(a, 'Peak TF32 (dense)')).toBe('1,125 TFLOP/s');
    expect(figure(a, 'Memory bandwidth')).toBe('7,700 GB/s');
    // NVLink 5: 1.8 TB/s both ways over 18 links = 50 GB/s a link a direction, 900 GB/s a direction.
    expect(figure(a, 'NVLink per direction')).toBe('900 GB/s (18 links)');
    expect(figure(a, 'TDP')).toBe('1,000 W');
    expect(a.notes).toContainEqual(expect.stringMatching(/^Source: NVIDIA HGX B200 specifications \(HGX platform page\) \(https:\/\/www\.nvidia\.com\/en-us\/data-center\/hgx\/\)\. HGX B200 per-GPU column/));
  });

  it('"how much memory does an h200 have": the capacity nvidia-smi reports', () => {
    const a = answerTo('how much memory does an h200 have');
    expect(a.kind).toBe('answer');
    // nvidia-smi memory.total 143,771 MiB / 1,024 = 140.4 GiB, to three figures 140 GiB; 4.8 TB/s = 4,800 GB/s.
    expect(a.headline).toBe('H200 SXM 141GB: 140 GiB of HBM, the capacity nvidia-smi reports.');
    expect(figure(a, 'Memory bandwidth')).toBe('4,800 GB/s');
    expect(a.notes).toContainEqual(expect.stringMatching(/^Source: NVIDIA H200 Tensor Core GPU datasheet/));
  });

  it('"what is the nvlink bandwidth of an h100": per direction, with the both-ways figure NVIDIA quotes', () => {
    // H100 whitepaper: 18 NVLink 4 links × 25 GB/s a direction = 450 GB/s; "900 GB/s" adds both directions.
    expect(answerTo('what is the nvlink bandwidth of an h100').headline)
      .toBe('H100 SXM5 80GB: NVLink 450 GB/s per direction (900 GB/s both ways together, 18 links).');
  });

  it('a precision the GPU lacks is said so, beside the 16-bit peak it has', () => {
    // V100 datasheet: tensor 125 TFLOPS, FP16 only.
    expect(answerTo('peak fp8 of a v100').headline).toBe('V100 SXM2 32GB: no FP8 rate; peak FP16 125 TFLOP/s (dense).');
    // A100 datasheet: TF32 156 TFLOPS dense; a bare "A100" read as the 80GB part, said so.
    const a100 = answerTo('what is the peak tf32 of an a100');
    expect(a100.headline).toBe('A100 SXM4 80GB: peak TF32 156 TFLOP/s (dense).');
    expect(a100.assumptions).toEqual(['A100 taken as the 80GB part (say "A100 40GB" for the other)']);
  });

  it('GPUs compared are each answered, in the order named (B200\'s links are twice as fast as H100\'s)', () => {
    // 18 × 25 GB/s (NVLink 4) and 18 × 50 GB/s (NVLink 5).
    expect(answerTo('h100 vs b200 nvlink bandwidth').headline).toBe('H100 SXM5 80GB: NVLink 450 GB/s per direction (900 GB/s both ways together, 18 links). '
      + 'B200 (HGX B200): NVLink 900 GB/s per direction (1,800 GB/s both ways together, 18 links).');
  });

  it('a GPU\'s power is its TDP, with no "energy is not modelled" beside it', () => {
    const a = answerTo('how much power does a b200 draw');
    expect(a.headline).toBe('B200 (HGX B200): TDP 1,000 W.');
    expect(a.notes.filter((n) => /energy is not modelled/.test(n))).toEqual([]);
  });

  it.each([
    'what is the peak bf16 of the mi300x',
    'how much memory does an mi300x have',
  ])('a GPU no preset models keeps its "not modelled" answer: "%s"', (question) => {
    const a = answerTo(question);
    expect(a.kind).toBe('refusal');
    expect(a.headline).toContain('MI300X is not modelled; the GPU presets are v100-32gb, a100-40gb, a100-80gb, h100-sxm, h200, b200, gb200');
  });

  it.each([
    'memory for 70B with tp 8 pp 4 on A100 80GB',
    'how much memory does llama3-8b need on 8 h100 with tp 8',
    'all-reduce 1 GB over nvlink on 8 h100',
    'what does it cost per day to run 128 H100 nodes at $2/GPU-hour',
    'how many h100 do I need for 1 TB of memory',
  ])('a planning question naming a GPU is not answered with its figures: "%s"', (question) => {
    expect(isGpuFacts(answerTo(question))).toBe(false);
  });
});

describe('the figures a question asks of a GPU (lexicon/gpu-facts.ts)', () => {
  it.each([
    ['what is the peak bf16 of the b200', ['peak']],
    ['what are the tflops of an h100', ['peak']],
    ['how much memory does an h200 have', ['memory']],
    ['how much hbm does a gb200 have', ['memory']],
    ['what is the memory bandwidth of an h200', ['memoryBandwidth']],
    ['what is the nvlink bandwidth of an h100', ['nvlink']],
    ['what is the bandwidth of an a100', ['memoryBandwidth', 'nvlink']],
    ['what is the tdp of a b200', ['power']],
    ['b200 specs', ['peak', 'memory', 'memoryBandwidth', 'nvlink', 'power']],
    ['what is the h100', []],
  ])('"%s" asks %j', (question, facts) => {
    expect(gpuFactsAsked(question)).toEqual(facts);
  });

  it('reads the precisions named, in the question\'s order, each once', () => {
    expect(precisionsAsked('peak fp8 and bf16 of the b200, and fp8 again')).toEqual(['fp8', 'bf16']);
  });
});
