import type { NodesResponseJson, SearchResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

describe('a nodes answer at each size\'s own default batch says the batch its answer took', () => {
  it('a budget alone (fastest-within-budget): the assumed batch is the configuration\'s, not the 512 a question with no size takes', () => {
    const a = ask('is 1M gpu-hours enough for llama3-70b on 2T tokens on h100');
    const data = a.data as Extract<NodesResponseJson, { ok: true }>;
    expect(data.mode).toBe('fastest-within-budget');
    const batch = data.configuration.scenario.training.globalBatchSize;
    expect(batch).toBeGreaterThan(512);
    const said = a.assumptions.filter((line) => /global batch/.test(line));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(new RegExp(`^global batch ${batch.toLocaleString('en-US')} sequences .*; each cluster size was tried at the batch a question about that size alone takes, and at the multiple across its aim where faster$`));
    expect(a.assumptions.join('\n')).not.toMatch(/global batch 512 sequences/);
  });
});

describe('a best configuration says the search\'s fewer nodes that step faster, as `trainplan search` does', () => {
  type SearchOk = Extract<SearchResponseJson, { ok: true }>;

  it('Megatron 1T on 448 A100 nodes at a batch of 3,072: the 416 nodes the search found are said in one note (QA)', () => {
    // `trainplan search --model megatron-1t --gpu a100-80gb --nodes 448 --global-batch 3072 --tokens 1T` prints "fewer nodes
    // run faster: 416 nodes (3,328 GPUs) run a step in 66.5 s, 2.4% faster than the best on 448 nodes (68.2 s), …".
    const a = ask('best configuration for megatron-1t on 448 A100 80GB nodes with a global batch of 3072 on 1T tokens', { publicUrl: null });
    const fewer = (a.data as SearchOk).fewerNodes;
    expect(fewer?.nodes).toBe(416);
    const said = a.notes.filter((n) => n.startsWith('Fewer nodes run faster: '));
    expect(said).toHaveLength(1);
    // 416 × 8 = 3,328 GPUs; the step and the saving as the search words them, its plan in the bot's words.
    expect(said[0]).toMatch(/^Fewer nodes run faster: 416 nodes \(3,328 GPUs\) run a step in 66\.5 s, 2\.4% faster than the best on 448 nodes \(68\.2 s\), with .*: at the same batch, leaving 32 nodes out trains faster on fewer GPUs\.$/);
  });

  it('says nothing of fewer nodes on one node, where there are none', () => {
    const a = ask('best config for llama3-8b on 1 H100 node', { publicUrl: null });
    expect((a.data as SearchOk).fewerNodes).toBeUndefined();
    expect(a.notes.some((n) => n.startsWith('Fewer nodes'))).toBe(false);
  });
});
