import type { NodesResponseJson } from '@trainplan/protocol';
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
    expect(said[0]).toMatch(new RegExp(`^global batch ${batch.toLocaleString('en-US')} sequences .*; each cluster size was tried at the batch a question about that size alone takes$`));
    expect(a.assumptions.join('\n')).not.toMatch(/global batch 512 sequences/);
  });
});
