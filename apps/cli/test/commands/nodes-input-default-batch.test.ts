import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

/**
 * `trainplan nodes --input FILE` with no training.globalBatchSize: planned as POST /v1/nodes plans the same body (both call
 * @trainplan/ask runNodesBody; test/fuzz cli-api-agree.test.ts compares the two surfaces' JSON) and as the flags without
 * --global-batch plan the same question. QA: --input refused it ("training: missing required field").
 */
async function cli(args: string[], body?: unknown) {
  const io = fakeIo({ files: body === undefined ? {} : { 'body.json': JSON.stringify(body) } });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** A space of one parallel layout (data parallelism alone), so each search is short. */
const ONE_LAYOUT = {
  tensorSizes: [1], pipelineSizes: [1], contextSizes: [1], virtualStageCounts: [1], pipelineSlots: ['layers'], microBatchSizes: [1], recompute: ['full'],
};
/** The same space in flags. */
const ONE_LAYOUT_FLAGS = [
  '--tensor', '1', '--pipeline', '1', '--context', '1', '--virtual-stages', '1', '--pipeline-split', 'layers', '--micro-batch', '1', '--recompute', 'full',
];

describe('trainplan nodes --input without training.globalBatchSize', () => {
  it('Llama 2 7B on 4 nodes: its published 1,024 sequences (4M tokens of 4,096, Touvron et al. 2023 §2.2), as the flags plan it', async () => {
    const body = { model: 'llama2-7b', cluster: { gpu: 'h100-sxm' }, tokens: 20e9, nodes: 4, constraints: ONE_LAYOUT };
    const input = await cli(['nodes', '--input', 'body.json', '--json'], body);
    expect(input.code, input.err).toBe(0);
    const a = JSON.parse(input.out);
    // 4 nodes of 8 H100 at TP = PP = CP = 1 are 32 data-parallel ranks, which divide 1,024: the published batch stands.
    expect(a.configuration.scenario.training.globalBatchSize).toBe(1024);
    expect(a.assumedGlobalBatch).toMatchObject({ sequences: 1024, nodes: 4 });
    expect(a.assumedGlobalBatch.note).toMatch(/^training\.globalBatchSize omitted: global batch 1,024 sequences \(4\.19M tokens: Llama 2 7B's published batch/);
    const flags = await cli(['nodes', '--model', 'llama2-7b', '--gpu', 'h100-sxm', '--tokens', '20B', '--nodes', '4', ...ONE_LAYOUT_FLAGS, '--json']);
    expect(flags.code, flags.err).toBe(0);
    expect(a).toEqual(JSON.parse(flags.out));
    // The assumed line, in the request's fields as --input's messages are.
    expect(input.err).toBe(`trainplan: assumed (no training.globalBatchSize): ${a.assumedGlobalBatch.note.replace('training.globalBatchSize omitted: ', '')}\n`);
  });

  it('the report opens with the assumed line, as the flags\' report does', async () => {
    const body = { model: 'llama2-7b', cluster: { gpu: 'h100-sxm' }, training: {}, tokens: 20e9, nodes: 4, constraints: ONE_LAYOUT };
    const { code, out, err } = await cli(['nodes', '--input', 'body.json'], body);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out.split('\n')[0]).toMatch(/^assumed \(no training\.globalBatchSize\): global batch 1,024 sequences /);
    expect(out).toMatch(/^on: 4 nodes /m);
  });

  it('a batch given is planned at every size as before: no assumedGlobalBatch, no assumed line', async () => {
    const body = { model: 'llama2-7b', cluster: { gpu: 'h100-sxm' }, training: { globalBatchSize: 512 }, tokens: 20e9, nodes: 4, constraints: ONE_LAYOUT };
    const { code, out, err } = await cli(['nodes', '--input', 'body.json', '--json'], body);
    expect(code, err).toBe(0);
    const a = JSON.parse(out);
    expect(a).not.toHaveProperty('assumedGlobalBatch');
    expect(a.configuration.scenario.training.globalBatchSize).toBe(512);
    expect(err).not.toContain('assumed');
  });

  it('a model given by its shape takes no default: refused, naming training.globalBatchSize', async () => {
    const shape = { layers: 2, hiddenSize: 256, attentionHeads: 4, vocabSize: 1000, seqLength: 128 };
    const { code, out, err } = await cli(['nodes', '--input', 'body.json'], { model: shape, cluster: { gpu: 'h100-sxm' }, training: {}, tokens: 1e9, days: 3 });
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/^trainplan: training\.globalBatchSize: missing required field/);
  });

  it('tokens under one step of the assumed batch: refused, with how to plan a smaller step in the request\'s fields', async () => {
    // Llama 2 7B's published batch with no size: 1,024 × 4,096 = 4,194,304 tokens a step, over the 1M tokens asked.
    const { code, err } = await cli(['nodes', '--input', 'body.json'], { model: 'llama2-7b', cluster: { gpu: 'h100-sxm' }, tokens: 1e6, days: 3 });
    expect(code).toBe(2);
    expect(err).toMatch(/^trainplan: tokens: .*less than one optimizer step/m);
    expect(err).toContain('trainplan: hint: that batch is the default assumed for this size (no training.globalBatchSize given): give training.globalBatchSize with fewer sequences');
  });
});
