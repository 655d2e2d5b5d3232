import { describe, expect, it } from 'vitest';
import type { InferenceResponseJson, NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;
type InferenceOk = Extract<InferenceResponseJson, { ok: true }>;
const OPTIONS = { publicUrl: null, today: '2026-11-28' } as const;
const TRAIN = 'how long to train llama3 8b on 1T tokens on';

/**
 * "one 8xH100 node", "2x H100 nodes": a count of nodes and the GPUs each holds. QA found "one 8xH100 node" planned on 128
 * nodes as "no cluster size given" (128 times the cluster asked, said as a default), "4 8xA100 nodes" compared as 4 nodes vs
 * 8 nodes, and "2x H100 nodes" planned as nodes of 2 GPUs. The DGX H100 and DGX A100 hold 8 GPUs a node (their presets).
 */
describe('"N × 8xGPU nodes": N nodes of the 8 GPUs written', () => {
  it.each([
    [`${TRAIN} one 8xH100 node`, 'h100-sxm', 1],
    [`${TRAIN} two 8xH100 nodes`, 'h100-sxm', 2],
    [`${TRAIN} four 8xA100 nodes`, 'a100-80gb', 4],
    // Before: nodes 4 compared with nodes 8 (the "8" of "8xA100" read as a second size listed).
    [`${TRAIN} 4 8xA100 nodes`, 'a100-80gb', 4],
  ])('"%s" is %s, %i nodes of 8, nothing compared', (question, gpu, nodes) => {
    const q = parse(question, OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject({ gpu, nodes, gpusPerNode: 8 });
    expect(q.stated.gpus).toBeUndefined();
    expect(q.stated.comparedSizes).toBeUndefined();
  });

  it('"on one 8xH100 node" is planned on 1 node of 8 GPUs, as "on a 8xH100 box" and "on 8 H100" are', () => {
    const a = ask(`${TRAIN} one 8xH100 node`, OPTIONS);
    const node = a.data as NodesOk;
    expect(node.gpus).toBe(8);
    expect(a.headline).toMatch(/ on 1 node \(8 GPUs\)$/);
    expect(a.assumptions.join(' ')).not.toContain('no cluster size given');
    // By hand: 6·N·D = 6 × 8.03e9 × 1e12 ≈ 4.8e22 FLOPs over 8 × 989 TFLOP/s (H100 SXM BF16 dense) at 30–60% MFU is
    // 1.0e7–2.0e7 s, 116–232 days; attention's FLOPs add to it. 128 nodes would be about a day.
    expect(node.days).toBeGreaterThan(100);
    expect(node.days).toBeLessThan(250);
    for (const same of [`${TRAIN} a 8xH100 box`, `${TRAIN} 8 H100`]) expect((ask(same, OPTIONS).data as NodesOk).days).toBeCloseTo(node.days, 6);
  });

  it('"on 2x H100 nodes" is 2 nodes of the DGX H100\'s 8 GPUs (16 GPUs), said in the assumptions', () => {
    const q = parse(`${TRAIN} 2x H100 nodes`, OPTIONS);
    expect(q.stated).toMatchObject({ gpu: 'h100-sxm', nodes: 2 });
    expect(q.stated.gpusPerNode).toBeUndefined();
    const a = ask(`${TRAIN} 2x H100 nodes`, OPTIONS);
    expect(a.headline).toMatch(/ on 2 nodes \(16 GPUs\)$/);
    expect(a.assumptions).toContain('"2x H100 nodes" read as 2 nodes of 8 GPUs (NVIDIA DGX H100, the H100 SXM5 80GB\'s usual node); say "nodes of 2 GPUs" for nodes that hold 2');
  });

  it('"405b inference on one 8xH100 node" is asked of 8 GPUs: no fit in BF16, FP8 named, as "on 8 H100s" answers', () => {
    const a = ask('can I fit 405b inference on one 8xH100 node', OPTIONS);
    // By hand: 405e9 parameters × 2 bytes = 810 GB of BF16 weights, over 8 × 80 GB = 640 GB; in FP8, 405 GB fits.
    expect(a.headline).toMatch(/^Llama 3\.1 405B on 8 × H100 SXM5 80GB: does not fit for serving/);
    expect(a.headline).toContain('; in FP8 weights it fits on 8 × H100 SXM5 80GB: ');
    const alone = ask('can I fit 405b inference on 8 H100s', OPTIONS);
    expect(a.headline).toBe(alone.headline);
  });

  it('"llama3 70b serving on 2x h100 nodes, 4k prompt 1k out": 16 GPUs in nodes of 8, and 1,024 output tokens', () => {
    const question = 'llama3 70b serving on 2x h100 nodes, 4k prompt 1k out, what tok/s can we get at 50ms/token';
    const q = parse(question, OPTIONS);
    // "1k out" is an output length as "1k output tokens" is (k is 1,024 in a length, as "4k prompt" is 4,096).
    expect(q.stated).toMatchObject({ nodes: 2, promptTokens: 4096, outputTokens: 1024, maxTokenSeconds: 0.05 });
    expect(q.notRead).toEqual([]);
    const a = ask(question, OPTIONS);
    expect(a.headline).toMatch(/^Llama 3 70B on 16 × H100 SXM5 80GB: /);
    // Nodes of 8 GPUs: tensor parallelism over the node's NVLink reaches 8 (before, nodes of 2 capped it at 2).
    const data = a.data as InferenceOk;
    expect(data.outputTokens).toBe(1024);
    expect(Math.max(...data.frontier.map((f) => f.tensor))).toBe(8);
  });

  it('"1k out" is an output length, and "out of" never is', () => {
    expect(parse('serve llama3-8b on 8 h100, 2k prompt 256 out', OPTIONS).stated.outputTokens).toBe(256);
    expect(parse('train 70b on 2T tokens out of 15T on 64 h100', OPTIONS).stated.outputTokens).toBeUndefined();
  });

  it('"one 4xA100 node": nodes of 4 GPUs, which no preset has, said plainly (the DGX A100 holds 8)', () => {
    const q = parse(`${TRAIN} one 4xA100 node`, OPTIONS);
    expect(q.stated).toMatchObject({ nodes: 1, gpusPerNode: 4 });
    expect(q.defaults.map((d) => d.text)).toContain('nodes of 4 GPUs: no system preset has 4 A100 SXM4 80GB a node (NVIDIA DGX A100 640GB, the A100 SXM4 80GB\'s usual node, has 8); each planned as 4 GPUs of one, on its NVLink, with its network links in proportion');
    expect(ask(`${TRAIN} one 4xA100 node`, OPTIONS).headline).toMatch(/ on 1 node \(4 GPUs\)$/);
  });

  it('nodes of the preset\'s own 8 GPUs say nothing of it', () => {
    const q = parse(`${TRAIN} 16 8xH100 nodes`, OPTIONS);
    expect(q.defaults.some((d) => d.field === 'gpusPerNode' || /read as \d+ nodes of/.test(d.text))).toBe(false);
  });
});

/**
 * Counts spelt out past twelve, and nodes written "2 x 8xH100" or "4 8-gpu": QA found "sixty-four h100" planned on 4 GPUs,
 * "thirty-two h100 nodes" on 2 nodes, "twenty-four 8xh100 nodes" on 4, "two thousand h100" not read (128 nodes), and "2 x
 * 8xH100 nodes" and "4 8-gpu h100 nodes" not read (128 nodes). Expected counts by hand: the number written, and GPUs =
 * nodes × 8 (a DGX H100 holds 8).
 */
describe('counts spelt out and nodes of 8 written with their count', () => {
  it.each([
    [`${TRAIN} sixty-four h100`, { gpus: 64 }],
    [`${TRAIN} sixty four h100`, { gpus: 64 }],
    [`${TRAIN} thirty-two h100 nodes`, { nodes: 32 }],
    [`${TRAIN} twenty-four 8xh100 nodes`, { nodes: 24, gpusPerNode: 8 }],
    [`${TRAIN} two thousand h100`, { gpus: 2000 }],
    [`${TRAIN} one hundred twenty-eight h100`, { gpus: 128 }],
    [`${TRAIN} two thousand forty-eight h100`, { gpus: 2048 }],
    [`${TRAIN} sixteen h100 nodes`, { nodes: 16 }],
    [`${TRAIN} 2 x 8xH100 nodes`, { nodes: 2, gpusPerNode: 8 }],
    [`${TRAIN} 2x 8xH100 nodes`, { nodes: 2, gpusPerNode: 8 }],
    [`${TRAIN} 4 8-gpu h100 nodes`, { nodes: 4, gpusPerNode: 8 }],
  ])('"%s" is read as %o, nothing left unread', (question, counts) => {
    const q = parse(question, OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.notRead).toEqual([]);
    expect(q.stated).toMatchObject({ gpu: 'h100-sxm', ...counts });
    expect(q.defaults.some((d) => d.field === 'nodes')).toBe(false);
  });

  it('"on 2 x 8xH100 nodes" is planned on 2 nodes (16 GPUs), as "two 8xH100 nodes" is', () => {
    const a = ask(`${TRAIN} 2 x 8xH100 nodes`, OPTIONS);
    expect(a.headline).toMatch(/ on 2 nodes \(16 GPUs\)$/);
    expect(a.headline).toBe(ask(`${TRAIN} two 8xH100 nodes`, OPTIONS).headline);
  });

  it('a spelt-out run that is no one number ("one eighty four") is said not read, never read as its last word', () => {
    const q = parse(`${TRAIN} one eighty four h100`, OPTIONS);
    expect(q.stated.gpus).toBeUndefined();
    expect(q.notRead?.map((n) => n.phrase)).toEqual(['"one eighty four"']);
    expect(q.defaults.find((d) => d.field === 'nodes')?.text).toBe('128 nodes ("one eighty four" not read as a cluster size; say e.g. "256 H100" or "32 nodes")');
  });

  it.each([
    [`${TRAIN} 8x h100 nodes`, 'h100-sxm', '"8x h100 nodes" read as nodes of 8 GPUs; no node count given: 128 nodes'],
    [`${TRAIN} 8x A100 nodes`, 'a100-80gb', '"8x A100 nodes" read as nodes of 8 GPUs; no node count given: 128 nodes'],
    [`${TRAIN} 8-gpu h100 nodes`, 'h100-sxm', '"8-gpu h100 nodes" read as nodes of 8 GPUs; no node count given: 128 nodes'],
  ])('"%s": nodes of 8 at the default 128 nodes, both said', (question, gpu, said) => {
    const q = parse(question, OPTIONS);
    expect(q.stated).toMatchObject({ gpu, gpusPerNode: 8 });
    expect(q.stated.nodes).toBeUndefined();
    expect(q.parameters.nodes).toBe(128);
    expect(q.defaults.map((d) => d.text)).toContain(said);
  });
});
