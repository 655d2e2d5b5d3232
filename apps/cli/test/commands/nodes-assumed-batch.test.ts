import type { NodesResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { assumedGlobalBatch } from '../../src/commands/nodes-assumed-batch.ts';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[]) {
  const io = fakeIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

/**
 * `trainplan nodes --json` without --global-batch carries `assumedGlobalBatch`, as POST /v1/nodes does for the same
 * question with training.globalBatchSize omitted (QA: the CLI said it on stderr only, so a script reading the JSON got it
 * from the API and not from the CLI). The expected objects are the API's answers to the same requests (apps/api
 * nodes-default-batch.ts), in the request's fields as the JSON's other prose is.
 */
const PER_SIZE = 'training.globalBatchSize omitted: each cluster size was planned at the default batch a request with nodes set to that size '
  + 'takes, or at the multiple of its data-parallel unit across the default\'s aim where that is faster';

describe('trainplan nodes --json: assumedGlobalBatch, as the API answers', () => {
  it('the QA command: Llama 3 70B, 15T tokens within 5.7M H100-hours, planned on 2,250 nodes at 2,250 sequences; stderr keeps its line', async () => {
    const { code, out, err } = await cli(['nodes', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--tokens', '15T', '--gpu-hours', '5.7M', '--json']);
    expect(code).toBe(0);
    const a = JSON.parse(out);
    // POST /v1/nodes {"model":"llama3-70b","cluster":{"gpu":"h100-sxm"},"tokens":15e12,"gpuHours":5.7e6}: 2,250 nodes of 8 H100s
    // take one sequence per 8 GPUs, 2,250 sequences × 8,192 tokens = 18.4M tokens a step (the README's figures).
    expect(a.assumedGlobalBatch).toEqual({
      sequences: 2250,
      nodes: 2250,
      note: `${PER_SIZE}; on 2,250 nodes: global batch 2,250 sequences (18.4M tokens: one sequence per 8 GPUs up to 16.8M tokens (2^24) a step, `
        + 'the "16M" every row of Llama 3 405B\'s Table 4 keeps on 16,384 H100s: 2,048 × 8,192 tokens at 8k, 128 × 131,072 at 128k; '
        + 'rounded up past the cap\'s 2,048 sequences by 9.9% so that data-parallel sizes of these GPUs divide it)',
    });
    // The batch named is the one the answer's plan ran.
    expect(a.configuration.scenario.training.globalBatchSize).toBe(a.assumedGlobalBatch.sequences);
    expect(err).toMatch(/^trainplan: assumed \(no --global-batch\): each cluster size at the batch --nodes takes there, .*; on 2,250 nodes: global batch 2,250 sequences /);
  });

  it('--nodes 3 (Llama 3 8B): that size\'s own default, with the size', async () => {
    // By hand (apps/api nodes-default-batch.test.ts): 3 nodes are 24 H100s, data-parallel steps of 3 under model
    // parallelism 8; 96 × 5 = 480 sequences is the multiple of 96 nearest 512 (4M tokens of 8,192) within 10%.
    const { code, out } = await cli(['nodes', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--tokens', '1T', '--nodes', '3', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out).assumedGlobalBatch).toEqual({
      sequences: 480,
      nodes: 3,
      note: 'training.globalBatchSize omitted: global batch 480 sequences (3.93M tokens: about the 4M Llama 2 trained with, rounded so that more '
        + 'data-parallel sizes divide it)',
    });
  });

  it('a refusal after the schema (1M tokens are under one step of the assumed batch) keeps the batch with no size, as the API\'s 200 does', async () => {
    // 512 sequences × 8,192 tokens = 4.19M tokens a step, over the 1M asked: refused at the batch asked with no size.
    const { code, out } = await cli(['nodes', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--tokens', '1M', '--days', '30', '--json']);
    expect(code).toBe(2);
    const a = JSON.parse(out);
    expect(a).toMatchObject({ ok: false, reason: 'invalid' });
    expect(a.assumedGlobalBatch).toEqual({
      sequences: 512,
      note: 'training.globalBatchSize omitted: global batch 512 sequences (about 4M tokens, as Llama 2 trained), the default with no cluster size '
        + '(each size searched takes the default a request with nodes set to it takes)',
    });
  });

  it.each([
    ['--global-batch given', ['--tokens', '1T', '--nodes', '3', '--global-batch', '480'], 0],
    // The API answers a schema refusal with a 400 and no field: no size was planned at any batch.
    ['a request the schema refuses (--days -3)', ['--tokens', '1T', '--days', '-3'], 2],
  ])('none where %s', async (_what, args, exit) => {
    const { code, out } = await cli(['nodes', '--model', 'llama3-8b', '--gpu', 'h100-sxm', ...args, '--json']);
    expect(code).toBe(exit);
    expect(JSON.parse(out)).not.toHaveProperty('assumedGlobalBatch');
  });

  it('a size planned at the batch asked with no size (its own rounding moved it more than 10% over): said so, with the size\'s own', () => {
    // GPT-3 175B on 2,919 H100 nodes: no split of 1,536 runs on 23,352 GPUs, so the size's own default rounds up to 2,919
    // sequences (@trainplan/ask deadline-batch.test.ts); a deadline plans that size at the 1,536 asked with no size.
    const v = { model: 'gpt3-175b', gpu: 'h100-sxm', tokens: '300B', days: '30' };
    const request = { model: 'gpt3-175b', cluster: { gpu: 'h100-sxm' }, training: { globalBatchSize: 1536 }, tokens: 300e9, days: 30 };
    const answer = { ok: true, nodes: 2919, configuration: { scenario: { training: { globalBatchSize: 1536 } } } } as unknown as NodesResponseJson;
    expect(assumedGlobalBatch(v, request, answer)).toEqual({
      sequences: 1536,
      nodes: 2919,
      note: `${PER_SIZE}; on 2,919 nodes: global batch 1,536 sequences, the batch asked with no size (2,919 nodes would round it to 2,919, more than 10% from its aim)`,
    });
  });
});
