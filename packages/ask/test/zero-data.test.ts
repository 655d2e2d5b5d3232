import { describe, expect, it } from 'vitest';
import type { SearchResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { zeroDataConstraints } from '../src/answer/zero-data.ts';

type SearchOk = Extract<SearchResponseJson, { ok: true }>;
const resolvedOf = (question: string) => (ask(question, { publicUrl: null }).data as SearchOk).best.estimate.resolved;

describe('a ZeRO stage or FSDP asked is planned with data parallelism of 2 or more', () => {
  it('"gpt3-175b with ZeRO-3 on 64 A100": no pipeline, data parallel ≥ 2, said so', () => {
    const question = 'how much memory per GPU for gpt3-175b with ZeRO-3 on 64 A100';
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(true);
    const r = resolvedOf(question);
    expect(r.pipeline).toBe(1);
    expect(r.data).toBeGreaterThanOrEqual(2);
    // The plan named as its Configuration line names it: "ZeRO-3", not the search label's "zero-3" (plan-label-words.test.ts).
    expect(a.headline).toMatch(/fits for training, [\d.]+ GiB per GPU of 80\.0 GiB .*ZeRO-3/);
    expect(a.notes.some((n) => n.startsWith('ZeRO-3 asked: searched the layouts that shard it over data parallelism'))).toBe(true);
    expect(a.notes.some((n) => n.includes('with one, it shards nothing'))).toBe(false);
  });

  it('FSDP on one node: data parallel ≥ 2', () => {
    const r = resolvedOf('best config for llama3-8b with fsdp on 8 h100');
    expect(r.data * r.context).toBeGreaterThanOrEqual(2);
    expect(r.data).toBeGreaterThanOrEqual(2);
  });

  it('the constraints keep tensor × context at most half the GPUs, and leave a stated layout alone', () => {
    expect(zeroDataConstraints({ zeroStage: 3 }, 64, 8)).toEqual({ pipelineSizes: [1], maxTensor: 8, maxContext: 4 });
    expect(zeroDataConstraints({ zeroStage: 2 }, 4, 4)).toEqual({ pipelineSizes: [1], maxTensor: 2, maxContext: 1 });
    expect(zeroDataConstraints({ zeroStage: 3, tensor: 8 }, 64, 8)).toBeUndefined();
    expect(zeroDataConstraints({}, 64, 8)).toBeUndefined();
    expect(zeroDataConstraints({ zeroStage: 3 }, 1, 8)).toBeUndefined();
  });
});
