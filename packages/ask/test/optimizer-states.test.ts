import { describe, expect, it } from 'vitest';
import type { EstimateJson } from '@trainplan/protocol';
import { formatBytes } from '@trainplan/units';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const options = { publicUrl: null } as const;

/**
 * Megatron's mixed precision with Adam keeps FP32 master weights, momentum and variance: 12 bytes a parameter of optimizer
 * states, 18 with 16-bit weights (2) and FP32 gradients (4) (../shared/docs/model-reference.md §3). QA: "optimizer state
 * space for llama3-70b" and "adam states size for 70B" ran a best-configuration search.
 */
const ADAM_BYTES_PER_PARAMETER = 12;

describe('the optimizer states\' size is a memory question, the states first', () => {
  it.each([
    'optimizer state space for llama3-70b',
    'how much memory do the optimizer states take for llama3-70b',
    'adam states size for 70B',
  ])('"%s"', (question) => {
    expect(parse(question).intent).toBe('memory');
    const a = ask(question, options);
    const e = a.data as EstimateJson;
    const parameters = e.parameters!;
    // Llama 3 70B: about 70.6B parameters.
    expect(parameters).toBeGreaterThan(70e9);
    expect(parameters).toBeLessThan(71e9);
    expect(a.headline).toMatch(/^Optimizer states of Llama 3 70B: /);
    expect(a.headline).toContain(`${formatBytes(ADAM_BYTES_PER_PARAMETER * parameters)} in all, 12 bytes a parameter`);
    // The states per GPU first among the figures, the plan's own; at the default TP 8 (one replica, nothing sharded) about
    // an eighth of the whole, the most loaded GPU holding a little more (its embedding share and the replicated norms).
    expect(a.figures[0]!.label).toMatch(/^Optimizer states per GPU/);
    const perGpu = e.memory!.optimizerBytes;
    expect(a.figures[0]!.value).toBe(formatBytes(perGpu));
    expect(perGpu / ((ADAM_BYTES_PER_PARAMETER * parameters) / 8)).toBeGreaterThan(0.99);
    expect(perGpu / ((ADAM_BYTES_PER_PARAMETER * parameters) / 8)).toBeLessThan(1.05);
    // The rest of the memory breakdown follows, the whole training memory said.
    expect(a.figures.some((f) => f.label.startsWith('Memory by part'))).toBe(true);
    expect(a.notes[0]).toContain('= 18 bytes a parameter');
    expect(a.notes[0]).toContain('(6 + 12/d bytes a parameter; say "with distributed optimizer")');
    expect(a.notes[1]).toMatch(/^Training memory: Llama 3 70B on H100/);
  });

  it('the distributed optimizer divides the states over the data-parallel ranks', () => {
    const a = ask('optimizer states size for llama3-70b with tp 8 pp 4 dp 2 and distributed optimizer on 8 h100 nodes', options);
    const e = a.data as Extract<EstimateJson, { ok: true }>;
    expect(e.resolved.data).toBe(2);
    expect(a.headline).toContain('(TP 8 · PP 4, sharded over DP 2)');
    // 12 bytes a parameter over TP 8 × PP 4 × DP 2 = 64 ways; the most loaded stage holds a little more than its share.
    const share = (ADAM_BYTES_PER_PARAMETER * e.parameters) / 64;
    expect(e.memory.optimizerBytes / share).toBeGreaterThan(0.99);
    expect(e.memory.optimizerBytes / share).toBeLessThan(1.15);
  });

  it('neighbours: a memory question of no optimizer states is as before; sharded states in a time question stay time', () => {
    const a = ask('memory for 70B with tp 8 pp 4 on A100 80GB', options);
    expect(a.headline).toMatch(/^Llama 3 70B on A100 SXM4 80GB: [\d.]+ GiB per GPU of 80\.0 GiB/);
    expect(a.figures.some((f) => f.label.startsWith('Optimizer states'))).toBe(false);
    expect(parse('how long to train 70B on 64 h100 with optimizer states sharded').intent).toBe('time');
  });
});

/**
 * The states named as a setting ("to shard the optimizer states", "optimizer states sharded", "distributed optimizer") are
 * not the quantity asked: the memory answer leads with the whole, as it would without them. QA: "memory for llama3-70b
 * with zero-1 to shard the optimizer states on 64 H100" led with the states.
 */
describe('the optimizer states as a setting: the whole memory first', () => {
  it.each([
    'memory for llama3-70b with zero-1 to shard the optimizer states on 64 H100',
    'memory for llama3-70b with zero-1 and the optimizer states sharded on 64 H100',
    'memory for llama3-70b with zero-1 and the distributed optimizer on 64 H100',
  ])('"%s"', (question) => {
    expect(parse(question).intent).toBe('memory');
    const a = ask(question, options);
    expect(a.headline).toMatch(/^Llama 3 70B on H100 SXM5 80GB × 64 GPUs: fits for training, [\d.]+ GiB per GPU of /);
    expect(a.figures.some((f) => f.label.startsWith('Optimizer states'))).toBe(false);
  });

  it('neighbour: the states\' size asked beside sharding them still leads with the states', () => {
    const a = ask('optimizer state memory for llama3-70b with zero-1 on 64 h100', options);
    expect(a.headline).toMatch(/^Optimizer states of Llama 3 70B: /);
    expect(a.headline).toMatch(/ per GPU \(TP \d+ · PP \d+, sharded over DP \d+\)$/);
  });
});
