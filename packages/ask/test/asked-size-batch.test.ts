import { describe, expect, it } from 'vitest';
import { runNodes, type NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { assumedGlobalBatch } from '../src/assumed-global-batch.ts';
import { deadlineBatchFor, defaultBatch } from '../src/defaults.ts';

/**
 * "Days on N nodes" with no batch given, planned at the batches a deadline's search plans N at (deadlineBatchFor: the
 * size's default and the multiple across its aim, the faster taken), so that a deadline answering N nodes and the days on N
 * nodes name one plan (QA: Llama 3 8B on H100, 15T tokens: 30 days answered 103 nodes in 29.9 days at 412 sequences; on
 * 103 nodes, at its own 515 alone, 33.6 days).
 */

const options = { publicUrl: null, today: '2026-11-28' } as const;
type Ok = Extract<NodesResponseJson, { ok: true }>;
const ok = (a: NodesResponseJson): Ok => {
  if (!a.ok) throw new Error(a.message);
  return a;
};

const flags = { model: 'llama3-8b', gpu: 'h100-sxm', system: 'h100-sxm' };
const base = { model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, tokens: 15e12 } as const;
const batchFor = deadlineBatchFor(flags);
/** What `trainplan nodes` builds without --global-batch: the request's batch is the default for its size (none with --days). */
const nodesRequest = (goal: { days: number } | { nodes: number }) => ({
  ...base, training: { globalBatchSize: defaultBatch({ ...flags, ...('nodes' in goal && { nodes: goal.nodes }) }).sequences }, ...goal,
});

describe('a deadline\'s fewest nodes, then the days on that many: one plan, to the bit', () => {
  it('llama3-8b on H100, 15T tokens: 30 days answers 103 nodes; 103 nodes at deadlineBatchFor take the same seconds, plan and batch', () => {
    const deadline = ok(runNodes(nodesRequest({ days: 30 }), { globalBatchFor: batchFor }));
    expect(deadline.nodes).toBe(103);
    expect(deadline.days).toBeLessThanOrEqual(30);
    const on = ok(runNodes(nodesRequest({ nodes: deadline.nodes }), { globalBatchFor: batchFor }));
    expect(on.mode).toBe('days-on-nodes');
    expect(on.seconds).toBe(deadline.seconds);
    expect(on.gpuHours).toBe(deadline.gpuHours);
    expect(on.configuration.label).toBe(deadline.configuration.label);
    expect(on.configuration.scenario).toEqual(deadline.configuration.scenario);
    // By hand: 103 is prime, so its own default is 515 = 5 · 103 (0.6% over 512) and the multiple across the aim 412 =
    // 4 · 103; 412 runs 412-way data parallelism, 515 only 103-way: the deadline took 412, and so do the days on 103.
    expect([batchFor(103), batchFor.alternativeFor(103)]).toEqual([515, 412]);
    expect(on.configuration.scenario.training.globalBatchSize).toBe(412);
  });

  it('a batch given is held: 103 nodes at 515 sequences plan 515, slower there than 412', () => {
    const given = ok(runNodes({ ...base, training: { globalBatchSize: 515 }, nodes: 103 }));
    const faster = ok(runNodes(nodesRequest({ nodes: 103 }), { globalBatchFor: batchFor }));
    expect(given.configuration.scenario.training.globalBatchSize).toBe(515);
    expect(given.seconds).toBeGreaterThan(faster.seconds);
  });

  it('the API\'s assumedGlobalBatch names the batch the size took, and how to plan it at its own default', () => {
    const request = nodesRequest({ nodes: 103 });
    const answer = ok(runNodes(request, { globalBatchFor: batchFor }));
    const said = assumedGlobalBatch({ ...flags, nodes: 103 }, request, answer, batchFor);
    expect(said.sequences).toBe(412);
    expect(said.nodes).toBe(103);
    expect(said.note).toMatch(/^training\.globalBatchSize omitted: global batch 412 sequences .*faster on this size than the 515/);
    expect(said.note).toMatch(/a request with training\.globalBatchSize 515 plans it at its own default$/);
  });

  it('planned at its own default alone (a caller with no second batch), assumedGlobalBatch says that default and nothing of 412', () => {
    const request = nodesRequest({ nodes: 103 });
    const own = (nodes: number) => defaultBatch({ ...flags, nodes }).sequences;
    const answer = ok(runNodes(request, { globalBatchFor: own }));
    const said = assumedGlobalBatch({ ...flags, nodes: 103 }, request, answer, own);
    expect(said.sequences).toBe(515);
    expect(said.note).toBe('training.globalBatchSize omitted: global batch 515 sequences (about 4M tokens, as Llama 2 trained)');
  });
});

describe('the chat bot: "how many nodes … in 30 days" and "how long … on that many nodes" agree', () => {
  const data = (question: string): Ok => ok(ask(question, options).data as NodesResponseJson);

  it('103 nodes in the same days, the same plan and batch, said as the batch that size took', () => {
    const needed = data('how many H100 nodes to train llama3-8b on 15T tokens in 30 days');
    expect(needed.nodes).toBe(103);
    const a = ask(`how long to train llama3-8b on 15T tokens on ${needed.nodes} H100 nodes`, options);
    const on = ok(a.data as NodesResponseJson);
    expect(on.seconds).toBe(needed.seconds);
    expect(on.configuration.scenario).toEqual(needed.configuration.scenario);
    const batch = a.assumptions.filter((t) => t.startsWith('global batch'));
    expect(batch).toHaveLength(1);
    expect(batch[0]).toMatch(/^global batch 412 sequences .*faster on this size than the 515 .*"with a global batch of 515" plans it at its own default$/);
  });

  it('a batch stated is held: "with a global batch of 515" on 103 nodes plans 515', () => {
    const on = data('how long to train llama3-8b on 15T tokens on 103 H100 nodes with a global batch of 515');
    expect(on.configuration.scenario.training.globalBatchSize).toBe(515);
  });

  it('113 nodes, which no plan runs at the 512 a deadline plans them at: their own 565, said with why', () => {
    // By hand: 113 is prime; 565 = 5 · 113 rounds 11% over 512, past the deadline's 10%, which plans them at 512, and 512
    // leaves data parallelism at most 8 on 904 GPUs, with a 113-way model split nothing divides.
    expect(batchFor(113)).toBe(512);
    const a = ask('how long to train llama3-8b on 15T tokens on 113 H100 nodes', options);
    const on = ok(a.data as NodesResponseJson);
    expect(on.configuration.scenario.training.globalBatchSize).toBe(565);
    expect(a.assumptions.find((t) => t.startsWith('global batch'))).toMatch(/; no plan runs on these nodes at 512 sequences, the batch asked with no size$/);
  });
});
