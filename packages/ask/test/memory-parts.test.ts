import { OTHER_PART_NAMES, type MemoryJson } from '@trainplan/protocol';
import { GiB, KiB, MiB, TiB } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import type { Answer } from '../src/answer/answer-types.ts';
import { memoryPartsText } from '../src/answer/memory-parts.ts';

/** The model states and activations of a GPU's training memory, in the order the answer reads them. */
const STATE_PART_NAMES = ['weights', 'gradients', 'optimizer states', 'activations'];
/** The parts of "other" memory by the names the CLI's memory report gives them (protocol other-parts-words.ts). */
const OTHER_NAMES: readonly string[] = Object.values(OTHER_PART_NAMES);

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

/**
 * The parts as the answer must read them: the four model-state and activation parts in order, then in place of one
 * "other" figure the parts of it that hold any memory, each named once, largest first.
 */
function expectNamedParts(parts: { name: string; bytes: number; roundingBytes: number }[]): void {
  expect(parts.slice(0, 4).map((p) => p.name)).toEqual(STATE_PART_NAMES);
  const rest = parts.slice(4);
  expect(rest.length).toBeGreaterThan(0);
  for (const p of rest) {
    expect(OTHER_NAMES).toContain(p.name);
    expect(p.bytes).toBeGreaterThan(0);
  }
  expect(new Set(rest.map((p) => p.name)).size).toBe(rest.length);
  // Largest first: each printed size is no larger than the one before, within the two sizes' rounding.
  rest.slice(1).forEach((p, i) => expect(p.bytes - rest[i]!.bytes).toBeLessThanOrEqual(p.roundingBytes + rest[i]!.roundingBytes));
}

describe('a training memory question is answered with the memory per GPU by part', () => {
  it.each([
    'how much memory does llama3-70b need to train on 64 h100?',
    'will gpt3-175b fit on 1024 a100?',
    'memory for 70B with tp 8 pp 4 on A100 80GB',
  ])('"%s": weights, gradients, optimizer states, activations and the named parts of the rest, summing to the total per GPU', (question) => {
    const a = ask(question, { publicUrl: null });
    expect(a.kind).toBe('answer');
    const value = figure(a, 'Memory by part');
    expect(value).toBeDefined();
    const parts = partsOf(value!);
    expectNamedParts(parts);
    // None of these plans is ZeRO-3: the runtime reserve and the fragmentation are named, and no ZeRO-3 unit.
    expect(parts.map((p) => p.name)).toEqual(expect.arrayContaining([OTHER_PART_NAMES.runtimeReserveBytes, OTHER_PART_NAMES.fragmentationBytes]));
    expect(parts.map((p) => p.name)).not.toContain(OTHER_PART_NAMES.zero3GatheredBytes);
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

  it('the parts are one line: no line break, and no longer than all eight parts named with the longest sizes', () => {
    // A size as formatBytes prints it takes at most 8 characters ("8.95 GiB", "1002 MiB"); the parts are joined by " · ".
    const longest = [...STATE_PART_NAMES, ...OTHER_NAMES].reduce((n, name) => n + name.length + 1 + 8, 0) + 3 * (STATE_PART_NAMES.length + OTHER_NAMES.length - 1);
    // Well within the shortest field the bot fills, Discord's 1,024-character field value (apps/chatops discord-message.ts).
    expect(longest).toBeLessThanOrEqual(1024 / 4);
    for (const question of ['how much memory does llama3-70b need to train on 64 h100?', 'memory for llama3-70b on 64 h100 with zero-3']) {
      const value = figure(ask(question, { publicUrl: null }), 'Memory by part')!;
      expect(value).not.toContain('\n');
      expect(value.length).toBeLessThanOrEqual(longest);
    }
  });

  it('a ZeRO-3 plan names its gathered unit among the parts', () => {
    const parts = partsOf(figure(ask('memory for llama3-70b on 64 h100 with zero-3', { publicUrl: null }), 'Memory by part')!);
    expectNamedParts(parts);
    expect(parts.map((p) => p.name)).toContain(OTHER_PART_NAMES.zero3GatheredBytes);
  });

  it('words the parts of "other" from the answer, largest first and only those that hold memory; an answer without them keeps "other"', () => {
    const states = { weightsBytes: GiB(10), gradientsBytes: GiB(20), optimizerBytes: GiB(30), activationsBytes: GiB(5), capacityBytes: GiB(80), fits: true };
    const otherParts = { runtimeReserveBytes: GiB(1.5), fragmentationBytes: MiB(512), zero3GatheredBytes: 0, optimizerStepBytes: GiB(2) };
    const otherBytes = GiB(4);
    const m: MemoryJson = { ...states, otherBytes, otherParts, totalBytes: GiB(69) };
    expect(memoryPartsText(m)).toBe('weights 10.0 GiB · gradients 20.0 GiB · optimizer states 30.0 GiB · activations 5.00 GiB'
      + " · optimizer step's fp32 gradient copy 2.00 GiB · runtime reserve 1.50 GiB · allocator fragmentation 512 MiB");
    const { otherParts: _, ...older } = m;
    expect(memoryPartsText(older)).toBe('weights 10.0 GiB · gradients 20.0 GiB · optimizer states 30.0 GiB · activations 5.00 GiB · other 4.00 GiB');
  });

  it('they follow the total per GPU, where it is read', () => {
    const labels = ask('will gpt3-175b fit on 1024 a100?', { publicUrl: null }).figures.map((f) => f.label);
    expect(labels.indexOf('Memory by part')).toBe(labels.indexOf('Memory per GPU') + 1);
  });

  it('a layout that does not fit shows what fills the GPU as asked, summing to the memory its headline says it needs', () => {
    const a = ask('memory for gpt3-175b on 8 a100 with tp 8', { publicUrl: null });
    expect(a.ok).toBe(false);
    const parts = partsOf(figure(a, 'Memory by part (as asked)')!);
    expectNamedParts(parts);
    const needed = sizeOf(/needs (\S+ \S+) per GPU/.exec(a.headline)![1]!);
    const sum = parts.reduce((s, p) => s + p.bytes, 0);
    const rounding = parts.reduce((s, p) => s + p.roundingBytes, 0) + needed.roundingBytes;
    expect(Math.abs(sum - needed.bytes)).toBeLessThanOrEqual(rounding);
    // The closest layout that fits is broken down too, under its own label.
    expectNamedParts(partsOf(figure(a, 'Memory by part (closest)')!));
  });

  it('a question that does not ask about memory (a step time) keeps its figures short: no parts', () => {
    const a = ask('step time of llama3-8b on 8 h100 with tp 8', { publicUrl: null });
    expect(a.figures.some((f) => f.label.startsWith('Memory by part'))).toBe(false);
    expect(figure(a, 'Memory per GPU')).toBeDefined();
  });
});
