import { describe, expect, it } from 'vitest';
import { GPU_IDS } from '@trainplan/presets';
import { ask } from '../src/answer/answer.ts';
import { asksInt8, asksSparsity, gpuFactsAsked, precisionsAsked } from '../src/lexicon/gpu-facts.ts';
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
    // The presets listed are the catalogue's, whichever it holds.
    expect(a.headline).toContain(`MI300X is not modelled; the GPU presets are ${GPU_IDS.join(', ')}`);
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

describe('sparse and INT8 rates: derived or said not held, never made up (QA: answered as if dense, or not at all)', () => {
  const SPARSE_TAIL = 'the sparse figures are NVIDIA\'s datasheet convention, 2× dense for 2:4 structured sparsity, which training does not use';

  it.each([
    'H100 bf16 tflops with sparsity?',
    'what is the sparse bf16 peak of an h100',
    'h100 bf16 with 2:4 sparsity',
  ])('"%s": dense 989, and 1,979 with 2:4 sparsity, said not used in training', (question) => {
    // H100 whitepaper Table 1: BF16 989.4 TFLOPS dense; × 2 = 1,978.8, the datasheet's "1,979 with sparsity".
    const a = answerTo(question);
    expect(a.kind).toBe('answer');
    expect(a.headline).toBe(`H100 SXM5 80GB: peak BF16 989 TFLOP/s dense (1,979 TFLOP/s with 2:4 sparsity); ${SPARSE_TAIL}.`);
  });

  it('"H100 sparse FP8 TFLOPS?": 1,979 dense and 3,958 sparse, both listed beside the dense figures', () => {
    // H100 SXM5 datasheet: FP8 3,958 TFLOPS "with sparsity"; the dense half is 1,979.
    const a = answerTo('H100 sparse FP8 TFLOPS?');
    expect(a.headline).toBe(`H100 SXM5 80GB: peak FP8 1,979 TFLOP/s dense (3,958 TFLOP/s with 2:4 sparsity); ${SPARSE_TAIL}.`);
    expect(figure(a, 'Peak FP8 (dense)')).toBe('1,979 TFLOP/s');
    expect(figure(a, 'Peak FP8 (2:4 sparse)')).toBe('3,958 TFLOP/s');
    // A100 datasheet's other sparse column, for TF32: 156 dense, 312 sparse. No FP32 sparse row: FP32 has no tensor-core rate.
    const a100 = answerTo('what is the sparse tf32 of an a100');
    expect(figure(a100, 'Peak TF32 (2:4 sparse)')).toBe('312 TFLOP/s');
    expect(a100.figures.filter((f) => /FP32.*sparse/.test(f.label))).toEqual([]);
  });

  it('a dense question lists no sparse figure', () => {
    expect(answerTo('what is the peak bf16 of the b200').figures.filter((f) => /sparse/.test(f.label))).toEqual([]);
  });

  it('V100 has no 2:4 sparsity (it came with Ampere), said, with no sparse figure', () => {
    const a = answerTo('v100 sparse fp16 tflops');
    // V100 datasheet: tensor 125 TFLOPS, no sparsity column.
    expect(a.headline).toBe('V100 SXM2 32GB: peak FP16 125 TFLOP/s dense; no 2:4 sparsity on V100 SXM2 32GB (structured sparsity came with Ampere\'s tensor cores).');
    expect(a.figures.filter((f) => /sparse/.test(f.label))).toEqual([]);
  });

  const NO_INT8 = 'no INT8 figure: trainplan holds the precisions training runs in, and INT8 is an inference precision (the datasheet cited below quotes it)';
  it.each([
    // A100 (Ampere, no FP8): the 16-bit tensor rate, 312 TFLOPS dense (datasheet), is the closest held.
    ['what is the INT8 throughput of an A100?', `A100 SXM4 80GB: ${NO_INT8}; the closest held figure is peak BF16 312 TFLOP/s (dense).`],
    // Hopper and Blackwell: FP8, one byte like INT8: H100 1,979 (whitepaper 1,978.9), B200 9 PF sparse ÷ 2 = 4,500.
    ['int8 tops of h100', `H100 SXM5 80GB: ${NO_INT8}; the closest held figure is peak FP8 1,979 TFLOP/s (dense).`],
    ['what is the int8 peak of the b200', `B200 (HGX B200): ${NO_INT8}; the closest held figure is peak FP8 4,500 TFLOP/s (dense).`],
    // V100: FP16 only, 125 TFLOPS.
    ['v100 int8 throughput', `V100 SXM2 32GB: ${NO_INT8}; the closest held figure is peak FP16 125 TFLOP/s (dense).`],
  ])('"%s": no INT8 figure held, the closest one given', (question, headline) => {
    const a = answerTo(question);
    expect(a.kind).toBe('answer');
    expect(a.headline).toBe(headline);
    expect(a.figures.filter((f) => /int8/i.test(f.label))).toEqual([]);
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
    ['what is the int8 throughput of an a100', ['peak']],
    ['what network does a dgx h100 have', ['network']],
    ['how much inter-node bandwidth per node on dgx-a100-80gb', ['network']],
    ['is there sharp on the h100 system', ['network']],
    ['what interconnect does a dgx b200 use', ['network']],
    ['does the dgx h100 have nvlink sharp', ['nvlink']],
    ['h100 nvswitch bandwidth', ['nvlink']],
  ])('"%s" asks %j', (question, facts) => {
    expect(gpuFactsAsked(question)).toEqual(facts);
  });

  it.each([
    ['h100 sparse fp8 tflops', true, false],
    ['bf16 with 2:4 sparsity', true, false],
    ['int8 tops of h100', false, true],
    ['peak bf16 of an h100', false, false],
  ])('"%s" asks sparsity %s, INT8 %s', (question, sparse, int8) => {
    expect([asksSparsity(question), asksInt8(question)]).toEqual([sparse, int8]);
  });

  it('reads the precisions named, in the question\'s order, each once', () => {
    expect(precisionsAsked('peak fp8 and bf16 of the b200, and fp8 again')).toEqual(['fp8', 'bf16']);
  });
});
