import { describe, expect, it } from 'vitest';
import { nodesBatchInputs, runNodesBody, validateNodesBody } from '../src/index.ts';

/**
 * The nodes body with its batch omitted, as POST /v1/nodes and `trainplan nodes --input` both read it (the one
 * implementation they call): which bodies take a default, what it is, and what the answer says of it.
 */

const ONE_LAYOUT = {
  tensorSizes: [1], pipelineSizes: [1], contextSizes: [1], virtualStageCounts: [1], pipelineSlots: ['layers'], microBatchSizes: [1], recompute: ['full'],
};
const BASE = { model: 'llama2-7b', cluster: { gpu: 'h100-sxm' }, tokens: 20e9, constraints: ONE_LAYOUT };

describe('validateNodesBody: the default batch filled where the body may take one', () => {
  it('a preset id with no batch: its published batch (Llama 2 7B: 4M tokens of 4,096 = 1,024 sequences, Touvron et al. 2023 §2.2)', () => {
    const v = validateNodesBody({ ...BASE, days: 3 });
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.value.request.training.globalBatchSize).toBe(1024);
    expect(v.value.defaultBatch).toEqual({ model: 'llama2-7b', gpu: 'h100-sxm', system: 'h100-sxm' });
  });

  it('training.seqLength and nodes are what the default is computed from, as --seq-length and --nodes give them', () => {
    expect(nodesBatchInputs({ ...BASE, training: { seqLength: 8192 }, nodes: 4, cluster: { gpu: 'h100-sxm', gpusPerNode: 4 } }))
      .toEqual({ model: 'llama2-7b', gpu: 'h100-sxm', system: 'h100-sxm', gpusPerNode: 4, seqLength: 8192, nodes: 4 });
    // Not counts: left to the schema to name.
    expect(nodesBatchInputs({ ...BASE, training: { seqLength: -1 }, nodes: 0 })).toEqual({ model: 'llama2-7b', gpu: 'h100-sxm', system: 'h100-sxm' });
  });

  it('a batch given: validated as it came, no default', () => {
    const v = validateNodesBody({ ...BASE, training: { globalBatchSize: 512 }, days: 3 });
    expect(v.ok && v.value).toMatchObject({ request: { training: { globalBatchSize: 512 } } });
    expect(v.ok && v.value.defaultBatch).toBeUndefined();
  });

  it.each([
    ['a model given by its shape', { model: { layers: 2, hiddenSize: 256, attentionHeads: 4, vocabSize: 1000, seqLength: 128 }, training: {} }, 'training.globalBatchSize'],
    ['an id no preset has', { model: 'no-such-model', training: {} }, 'training.globalBatchSize'],
    ['a training that is no object', { training: 5 }, 'training'],
  ])('%s: no default, the schema names %s', (_, change, path) => {
    const v = validateNodesBody({ ...BASE, days: 3, ...change });
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.issues.map((i) => i.path)).toContain(path);
  });
});

describe('runNodesBody: the answer says the batch it assumed', () => {
  it('nodes 4: that size\'s default, named with the size; 32 data-parallel ranks divide 1,024, so the published batch stands', () => {
    const v = validateNodesBody({ ...BASE, nodes: 4 });
    if (!v.ok) throw new Error(JSON.stringify(v.issues));
    const a = runNodesBody(v.value, {});
    expect(a.ok).toBe(true);
    expect(a.assumedGlobalBatch).toMatchObject({ sequences: 1024, nodes: 4 });
    expect(a.ok && a.configuration.scenario.training.globalBatchSize).toBe(1024);
    // withNodesExtensions: the uptime the days assume, 1 where none was given.
    expect(a.uptime).toBe(1);
  });

  it('a batch given: no assumedGlobalBatch', () => {
    const v = validateNodesBody({ ...BASE, training: { globalBatchSize: 512 }, nodes: 4 });
    if (!v.ok) throw new Error(JSON.stringify(v.issues));
    expect(runNodesBody(v.value, {})).not.toHaveProperty('assumedGlobalBatch');
  });
});
