import { GiB, KiB, MiB, TiB } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import type { Answer } from '../src/answer/answer-types.ts';

/** The parts of a GPU's training memory, in the order the answer reads them. */
const PART_NAMES = ['weights', 'gradients', 'optimizer states', 'activations', 'other'];

/** Bytes per unit as the answers print them (binary units: what nvidia-smi and allocators show). */
const UNITS: Readonly<Record<string, (x: number) => number>> = { B: (x) => x, KiB, MiB, GiB, TiB };

/**
 * A printed size ("8.95 GiB") as bytes, with how far the printed digits may be from the size they round: half a unit in
 * the last place shown ("8.95 GiB" is within 0.005 GiB of the size, "244 GiB" within 0.5 GiB).
 */
function sizeOf(text: string): { bytes: number; roundingBytes: number } {
  const m = /^(\d+(?:\.(\d+))?) (B|KiB|MiB|GiB|TiB)$/.exec(text);
  if (m === null) throw new Error(`not a size in binary units: "${text}"`);
  const unit = UNITS[m[3]!]!;
  return { bytes: unit(Number(m[1])), roundingBytes: unit(0.5 * 10 ** -(m[2]?.length ?? 0)) };
}

/** "weights 8.95 GiB · gradients 17.9 GiB · …" → the named parts, each as a size. */
function partsOf(value: string): { name: string; bytes: number; roundingBytes: number }[] {
  return value.split(' · ').map((part) => {
    const m = /^(.+?) (\d[\d.]* \S+)$/.exec(part);
    if (m === null) throw new Error(`not "<part> <size>": "${part}"`);
    return { name: m[1]!, ...sizeOf(m[2]!) };
  });
}

const figure = (a: Answer, label: string): string | undefined => a.figures.find((f) => f.label === label)?.value;

describe('a training memory question is answered with the memory per GPU by part', () => {
  it.each([
    'how much memory does llama3-70b need to train on 64 h100?',
    'will gpt3-175b fit on 1024 a100?',
    'memory for 70B with tp 8 pp 4 on A100 80GB',
  ])('"%s": weights, gradients, optimizer states, activations and other, in GiB, summing to the total per GPU', (question) => {
    const a = ask(question, { publicUrl: null });
    expect(a.kind).toBe('answer');
    const value = figure(a, 'Memory by part');
    expect(value).toBeDefined();
    const parts = partsOf(value!);
    expect(parts.map((p) => p.name)).toEqual(PART_NAMES);
    // In human units: partsOf reads only binary units (a raw byte count would fail it), and a model this size fills GiB.
    expect(value).toContain(' GiB');
    // Each part is printed to 3 figures: their sum is the exact total within the parts' rounding together.
    const sum = parts.reduce((s, p) => s + p.bytes, 0);
    const rounding = parts.reduce((s, p) => s + p.roundingBytes, 0);
    expect(Math.abs(sum - a.memoryPerGpuBytes!)).toBeLessThanOrEqual(rounding);
    // …and the total the answer prints beside them ("74.9 GiB of 79.6 GiB (fits)") is that total too.
    const total = sizeOf(/^(\S+ \S+) of /.exec(figure(a, 'Memory per GPU')!)![1]!);
    expect(Math.abs(sum - total.bytes)).toBeLessThanOrEqual(rounding + total.roundingBytes);
  });

  it('the parts are one short line: no line break, at most 120 characters, so a chat shows it whole beside the total', () => {
    const value = figure(ask('how much memory does llama3-70b need to train on 64 h100?', { publicUrl: null }), 'Memory by part')!;
    expect(value).not.toContain('\n');
    expect(value.length).toBeLessThanOrEqual(120);
  });

  it('they follow the total per GPU, where it is read', () => {
    const labels = ask('will gpt3-175b fit on 1024 a100?', { publicUrl: null }).figures.map((f) => f.label);
    expect(labels.indexOf('Memory by part')).toBe(labels.indexOf('Memory per GPU') + 1);
  });

  it('a layout that does not fit shows what fills the GPU as asked, summing to the memory its headline says it needs', () => {
    const a = ask('memory for gpt3-175b on 8 a100 with tp 8', { publicUrl: null });
    expect(a.ok).toBe(false);
    const parts = partsOf(figure(a, 'Memory by part (as asked)')!);
    expect(parts.map((p) => p.name)).toEqual(PART_NAMES);
    const needed = sizeOf(/needs (\S+ \S+) per GPU/.exec(a.headline)![1]!);
    const sum = parts.reduce((s, p) => s + p.bytes, 0);
    const rounding = parts.reduce((s, p) => s + p.roundingBytes, 0) + needed.roundingBytes;
    expect(Math.abs(sum - needed.bytes)).toBeLessThanOrEqual(rounding);
    // The closest layout that fits is broken down too, under its own label.
    expect(partsOf(figure(a, 'Memory by part (closest)')!).map((p) => p.name)).toEqual(PART_NAMES);
  });

  it('a question that does not ask about memory (a step time) keeps its figures short: no parts', () => {
    const a = ask('step time of llama3-8b on 8 h100 with tp 8', { publicUrl: null });
    expect(a.figures.some((f) => f.label.startsWith('Memory by part'))).toBe(false);
    expect(figure(a, 'Memory per GPU')).toBeDefined();
  });
});
