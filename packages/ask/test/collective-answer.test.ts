import { runCollective } from '@trainplan/protocol';
import { GiB } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/** A collective's first row, as runCollective answers it. */
const rowOf = (data: unknown): { seconds: number; busbwGBps: number } | undefined =>
  (data as { rows?: { seconds: number; busbwGBps: number }[] }).rows?.[0];

describe('answer: a collective over one GPU', () => {
  it.each([
    ['allreduce 1GB on 1 gpu', /nothing to reduce across/],
    ['reduce-scatter 1GB on a single h100', /nothing to reduce across/],
    ['all-gather 1GB on one a100', /nothing to gather from/],
    ['broadcast 1GB on 1 gpu', /no other GPU to send to/],
    ['all-to-all 1GB on 1 gpu', /no other GPU to exchange with/],
  ])('"%s" says why it takes no time: one GPU moves no data', (question, why) => {
    const a = ask(question);
    expect(a.intent).toBe('collective');
    expect(rowOf(a.data)?.seconds).toBe(0);
    expect(a.headline).toMatch(/one GPU moves no data/);
    expect(a.headline).toMatch(why);
    // Never the bare "0 GB/s" as if it were a measured bandwidth.
    expect(a.headline).not.toMatch(/bus bandwidth 0 GB\/s/);
    // Said once: the protocol's own one-GPU note is not repeated below the headline.
    expect(a.notes.filter((n) => /moves no data/.test(n))).toEqual([]);
  });

  it('suggests more GPUs, with a question that then answers a time above zero', () => {
    const a = ask('allreduce 1GB on 1 gpu');
    const suggestion = a.notes.find((n) => /more GPUs/.test(n));
    expect(suggestion).toBeDefined();
    const quoted = /"([^"]+)"/.exec(suggestion ?? '')?.[1];
    expect(quoted).toBeDefined();
    const more = ask(quoted ?? '');
    expect(more.intent).toBe('collective');
    expect(rowOf(more.data)?.seconds).toBeGreaterThan(0);
  });

  it('on two GPUs and more the headline is the time and bus bandwidth, as before', () => {
    const a = ask('allreduce 1GB on 8 h100');
    expect(a.headline).toMatch(/bus bandwidth [1-9]/);
    expect(a.headline).not.toMatch(/moves no data/);
  });
});

describe('answer: a collective over no GPU', () => {
  it('"allreduce 1GB on 0 gpus" is refused in the question\'s words, never as the protocol\'s gpusPerNode field', () => {
    const a = ask('allreduce 1GB on 0 gpus');
    expect(a.ok).toBe(false);
    expect(`${a.headline} ${a.notes.join(' ')}`).toMatch(/2 GPUs or more/);
    expect(`${a.headline} ${a.notes.join(' ')}`).not.toMatch(/gpusPerNode/);
  });
});

describe('answer: a collective "with SHARP" (QA: the words were dropped, and CollNet never asked for)', () => {
  /** The protocol's own answer, as `trainplan collective --system … --nodes 4 --size 1GiB [--collnet]` asks it. */
  const protocolRows = (system: string, collnet: boolean): unknown =>
    (runCollective({ op: 'all-reduce', system, nodes: 4, gpusPerNode: 8, algorithm: 'auto', size: GiB(1), ...(collnet && { collnet: true }) }) as { rows?: unknown }).rows;

  it.each([
    ['with SHARP', true], ['with collnet', true], ['using SHARP', true], ['with NCCL_COLLNET_ENABLE=1', true],
    ['with in-network reduction', true], ['without SHARP', false], ['with NVLink SHARP', undefined],
  ])('"all-reduce 1 GiB on 4 DGX H100 nodes %s" reads CollNet as %s (NVLink SHARP is the NVSwitch\'s own, never CollNet)', (words, collnet) => {
    expect(parse(`all-reduce 1 GiB on 4 DGX H100 nodes ${words}`).stated.collnet).toBe(collnet);
  });

  it('on DGX H100 (NDR, SHARP) the collective runs with CollNet on, as --collnet does, and says so and what NCCL chose', () => {
    const a = ask('all-reduce 1 GiB on 4 DGX H100 nodes with SHARP');
    expect(a.ok).toBe(true);
    expect((a.data as { collnet?: boolean }).collnet).toBe(true);
    expect((a.data as { rows: unknown }).rows).toEqual(protocolRows('dgx-h100', true));
    // CollNet changes the answer: NVLS may then span nodes (nccl-collnet-model.ts), which it may not with CollNet off.
    expect((a.data as { rows: unknown }).rows).not.toEqual(protocolRows('dgx-h100', false));
    expect(a.headline).toMatch(/^all-reduce of 1\.07 GB on 32 × H100 SXM5 80GB with SHARP \(CollNet\): /);
    const algorithm = (a.data as { rows: { algorithm: string }[] }).rows[0]?.algorithm ?? '';
    expect(a.notes[0]).toMatch(/^Assumed SHARP enabled: NCCL_COLLNET_ENABLE=1 with the SHARP plugin \(CollNet\); NCCL chose /);
    expect(a.notes[0]).toContain(algorithm === 'nvls' ? 'NVLS across nodes' : algorithm);
  });

  it('on DGX-1 (EDR, no SHARP) it says SHARP is not available there and answers without it', () => {
    const a = ask('all-reduce 1 GiB on 4 dgx-1 nodes with SHARP');
    expect(a.ok).toBe(true);
    expect(a.headline).toContain('(SHARP not available: without it)');
    expect((a.data as { collnet?: boolean }).collnet).toBeUndefined();
    expect((a.data as { rows: unknown }).rows).toEqual(protocolRows('dgx-1-v100', false));
    expect(a.notes[0]).toMatch(/^SHARP \(in-network reduction\) is not available on edr-ib-4x /);
  });

  it('an all-gather with SHARP on: NCCL\'s CollNet reduces all-reduce only, said', () => {
    const a = ask('all-gather 1 GiB on 4 DGX H100 nodes with SHARP');
    expect(a.notes[0]).toMatch(/NCCL still chose \S+: CollNet is modelled for all-reduce only\.$/);
  });
});

describe('answer: a collective on many GPUs says their count grouped, as every other count is (QA: "524288 × H100")', () => {
  it.each([
    ['all-reduce of 1 GB on 2048 H100s', 'on 2,048 × H100'],
    ['all-reduce of 1 GB on 16384 nodes of H100', 'on 131,072 × H100'],
  ])('"%s"', (question, said) => {
    expect(ask(question).headline).toContain(said);
  });
});
