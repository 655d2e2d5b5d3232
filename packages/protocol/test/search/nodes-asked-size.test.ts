import { describe, expect, it } from 'vitest';
import { runNodes, type NodesResponseJson } from '../../src/index.ts';

/**
 * "Days on N nodes" with a batch per size (runNodes' globalBatchFor): N planned at the batches a deadline's search plans it
 * at, the faster taken, and at the request's batch only where none of those runs (nodes-asked-size.ts). Each expectation is
 * checked against the same size planned at one batch held (no globalBatchFor: the request's batch alone), not against
 * figures this code printed.
 */

type Ok = Extract<NodesResponseJson, { ok: true }>;
const ok = (a: NodesResponseJson): Ok => {
  if (!a.ok) throw new Error(a.message);
  return a;
};

const llama8 = { model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, tokens: 15e12 } as const;
/** The size on `nodes` nodes at one batch held, as --global-batch plans it. */
const held = (nodes: number, globalBatchSize: number) => ok(runNodes({ ...llama8, training: { globalBatchSize }, nodes }));

/**
 * A policy with the figures of the QA case (Llama 3 8B on 103 H100 nodes: a default of 515 sequences, 5 per node, and 412
 * across the aim, 4 per node), with a second batch at every size, as @trainplan/ask deadlineBatchFor gives one at some.
 */
const fivePerNode = Object.assign((nodes: number) => 5 * nodes, { alternativeFor: (nodes: number) => 4 * nodes });

describe('days on N nodes at a batch per size: the size\'s batches, the faster taken', () => {
  it('103 nodes at 515 or 412 sequences: the plan, days and batch of the faster of the two, each as one batch held plans it', () => {
    const [own, other] = [held(103, 515), held(103, 412)];
    // By hand (QA): 412 sequences run DP 412 · CP 2, 515 (5 · 103) leave DP 103 and take longer on the same GPUs.
    expect(other.seconds).toBeLessThan(own.seconds);
    const a = ok(runNodes({ ...llama8, training: { globalBatchSize: 515 }, nodes: 103 }, { globalBatchFor: fivePerNode }));
    expect(a.mode).toBe('days-on-nodes');
    expect(a.seconds).toBe(other.seconds);
    expect(a.gpuHours).toBe(other.gpuHours);
    expect(a.configuration.label).toBe(other.configuration.label);
    expect(a.configuration.scenario.training.globalBatchSize).toBe(412);
    expect(a.searches).toBe(1);
  });

  it('a batch given (no globalBatchFor, as with --global-batch) is held, though the other batch is faster there', () => {
    const given = held(103, 515);
    expect(given.configuration.scenario.training.globalBatchSize).toBe(515);
    expect(given.seconds).toBeGreaterThan(held(103, 412).seconds);
  });

  it('a size its batch runs nothing on, whose request carries another batch that runs: planned at the request\'s', () => {
    // 113 nodes: 904 GPUs = 8 · 113, and 113 is prime: a batch of 512 leaves data parallelism at most 8 and a 113-way
    // model-parallel split no layer or head count divides; 565 = 5 · 113 runs 113-way data parallelism.
    const at512 = runNodes({ ...llama8, training: { globalBatchSize: 512 }, nodes: 113 });
    expect(at512.ok).toBe(false);
    const a = ok(runNodes({ ...llama8, training: { globalBatchSize: 565 }, nodes: 113 }, { globalBatchFor: () => 512 }));
    const own = held(113, 565);
    expect(a.seconds).toBe(own.seconds);
    expect(a.configuration.scenario.training.globalBatchSize).toBe(565);
  });

  it('where neither the size\'s batch nor the request\'s runs, the message names both', () => {
    // 86 A100 nodes: 688 = 16 · 43 GPUs; GPT-3 175B's 96 layers and 96 heads divide by no multiple of 43, and neither
    // 1,536 nor 1,024 sequences leave a data-parallel size of 43.
    const a = runNodes(
      { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1024 }, tokens: 300e9, nodes: 86 },
      { globalBatchFor: () => 1536 },
    );
    if (a.ok) throw new Error('expected no plan on 86 nodes');
    expect(a.message).toMatch(/^no configuration of 86 nodes splits its 688 GPUs into a layout the model and a batch of 1,536 or 1,024 divide/);
  });

  it('where the size\'s batch divides no layout and the request\'s divides one that does not fit, memory is said', () => {
    // 43 A100 40GB nodes: 344 = 8 · 43 GPUs. 1,536 sequences leave data parallelism at most 8 and a 43-way model split;
    // 43 sequences run 43-way data parallelism, with GPT-3 175B over 8 GPUs: out of memory.
    const gpt3On43 = (globalBatchSize: number) => ({ model: 'gpt3-175b', cluster: { gpu: 'a100-40gb' }, training: { globalBatchSize }, tokens: 300e9, nodes: 43 });
    const at1536 = runNodes(gpt3On43(1536));
    const at43 = runNodes(gpt3On43(43));
    if (at1536.ok || at43.ok) throw new Error('expected no plan on 43 nodes at either batch');
    expect(at1536.message).toMatch(/^no configuration of 43 nodes splits its 344 GPUs into a layout/);
    expect(at43.message).toMatch(/^no configuration of 43 nodes fits this model and batch in memory/);
    const a = runNodes(gpt3On43(43), { globalBatchFor: () => 1536 });
    if (a.ok) throw new Error('expected no plan on 43 nodes');
    expect(a.message).toMatch(/^no configuration of 43 nodes fits this model and batch in memory/);
  });
});
