import { describe, expect, it } from 'vitest';
import type { NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { nodesWithShareSpare, withSpares } from '../src/answer/spare-nodes.ts';
import { parse } from '../src/parse.ts';

const options = { publicUrl: null } as const;
type NodesOk = Extract<NodesResponseJson, { ok: true }>;

/**
 * Spare nodes asked beside "how many nodes" are added to the nodes that train: a share r of the whole held spare is
 * ⌈N / (1 − r)⌉ nodes, a count n is N + n. QA: "… with 5% of GPUs reserved", "keep 10% spare nodes", "with 8 spare nodes",
 * "5% headroom for failures" were all answered 35 nodes, the reserve dropped.
 */
describe('the arithmetic of spares', () => {
  it.each([
    // ⌈35 / 0.95⌉ = ⌈36.84⌉; ⌈35 / 0.9⌉ = ⌈38.9⌉; 19 / 0.95 is exactly 20 (binary floating point gives 20.000000000000004).
    [35, 0.05, 37],
    [35, 0.1, 39],
    [19, 0.05, 20],
    [100, 0.2, 125],
  ])('%d nodes with %d held spare: %d', (nodes, share, total) => {
    expect(nodesWithShareSpare(nodes, share)).toBe(total);
    // The fewest whose spare share is at least the one asked: one node fewer leaves too few spare.
    expect((total - nodes) / total).toBeGreaterThanOrEqual(share - 1e-12);
    expect((total - 1 - nodes) / (total - 1)).toBeLessThan(share);
  });

  it('a count of nodes adds them; a count of GPUs adds whole nodes', () => {
    expect(withSpares(35, 8, { written: '8 spare nodes', count: 8, unit: 'node' })).toEqual({ total: 43, arithmetic: '35 + 8 = 43' });
    expect(withSpares(35, 8, { written: '12 spare gpus', count: 12, unit: 'gpu' }).total).toBe(37);
  });
});

describe('"how many nodes" with spares: the nodes that train, then the spares added', () => {
  const base = ask('how many nodes for 175B', options);
  const trained = (base.data as NodesOk).nodes;
  const perNode = (base.data as NodesOk).gpus / trained;

  it('neighbour: "how many nodes for 175B" says no spares', () => {
    expect(base.ok).toBe(true);
    expect(base.headline).not.toMatch(/spare/);
    expect(base.figures.map((f) => f.label)).not.toContain('Nodes with spares');
  });

  it.each([
    ['how many nodes for 175B with 5% of GPUs reserved', '5% of GPUs reserved', (n: number) => Math.ceil((n * 100) / 95), '(1 − 5%)'],
    ['how many nodes for 175B, keep 10% spare nodes', '10% spare nodes', (n: number) => Math.ceil((n * 10) / 9), '(1 − 10%)'],
    ['how many nodes for 175B with 8 spare nodes', '8 spare nodes', (n: number) => n + 8, '+ 8'],
    ['how many nodes for 175B with 5% headroom for failures', '5% headroom for failures', (n: number) => Math.ceil((n * 100) / 95), '(1 − 5%)'],
  ])('"%s"', (question, typed, totalOf, arithmetic) => {
    const q = parse(question);
    expect(q.intent).toBe('nodes');
    // Read, never a number or "failures" said not understood.
    expect(q.notRead ?? []).toEqual([]);
    const a = ask(question, options);
    // The nodes that train are the ones the same question without spares needs: spares take no step.
    expect((a.data as NodesOk).nodes).toBe(trained);
    expect(a.figures.find((f) => f.label === 'Time to train')).toEqual(base.figures.find((f) => f.label === 'Time to train'));
    const total = totalOf(trained);
    expect(a.headline).toContain(`with "${typed}", get ${total} nodes (${(total * perNode).toLocaleString('en-US')} GPUs): `);
    expect(a.headline).toContain(arithmetic);
    expect(a.headline).toContain(`= ${total}, ${total - trained} of them spare`);
    expect(a.figures.find((f) => f.label === 'Nodes with spares')?.value).toContain(`${trained} nodes training and ${total - trained} spare`);
  });

  it('"headroom for failures" says it was read as spare nodes, and the uptime to say for time lost instead', () => {
    const a = ask('how many nodes for 175B with 5% headroom for failures', options);
    expect(a.notes[0]).toContain('"5% headroom for failures" read as nodes held spare, to swap in for failed ones; for time lost to failures on the same nodes instead, say "at 95% uptime", which adds days, not nodes.');
  });

  it('an uptime stays an uptime: days on the wall clock, no spares', () => {
    const a = ask('how many nodes for 175B at 95% uptime', options);
    expect(a.headline).not.toMatch(/spare/);
    expect(a.notes.some((n) => n.startsWith('At 95% uptime, as asked'))).toBe(true);
  });
});

describe('spares where no cluster is sized, or that leave none to train', () => {
  it('"how long … on 64 nodes with 8 spare nodes": said not read, the 64 nodes all training', () => {
    const q = parse('how long to train 175B on 64 nodes with 8 spare nodes');
    expect(q.intent).toBe('time');
    expect(q.stated.nodes).toBe(64);
    expect(q.notRead).toContainEqual(expect.objectContaining({ phrase: '"8 spare nodes"', why: expect.stringMatching(/^spare nodes are added to how-many-nodes and cheapest answers/) }));
  });

  it('100% held spare is refused', () => {
    expect(parse('how many nodes for 175B with 100% of nodes reserved').problems).toContain('"100% of nodes reserved": a share held spare is above 0% and under 100% of the cluster (the rest trains)');
  });
});

/**
 * A count of nodes "reserved", or spare nodes no word adds ("on our 8 spare nodes"), is the cluster that trains, read as
 * "on 16 nodes" is: a reservation books capacity to train on. QA: "… using 16 nodes reserved on AWS in 30 days" was answered
 * 11 nodes training and 16 spare, 27 in all.
 */
describe('nodes reserved, or spare nodes put to work, are the cluster', () => {
  it('"can I train llama3-8b on 2T tokens using 16 nodes reserved on AWS in 30 days": its time on the 16 nodes', () => {
    const question = 'can I train llama3-8b on 2T tokens using 16 nodes reserved on AWS in 30 days';
    const q = parse(question);
    expect(q.intent).toBe('time');
    expect(q.stated.nodes).toBe(16);
    expect(q.notRead ?? []).toEqual([]);
    const a = ask(question, options);
    expect(a.headline).toMatch(/^Yes: Llama 3 8B on H100 SXM5 80GB: [\d.]+ days to train 2\.00T tokens on 16 nodes \(128 GPUs\), within the 30 days asked$/);
    expect(a.headline).not.toMatch(/spare/);
    expect(a.figures.map((f) => f.label)).not.toContain('Nodes with spares');
    expect(a.assumptions).toContain('"16 nodes reserved" read as the cluster that trains, 16 nodes: nodes reserved or spare, put to work; for spares held beside the nodes a plan sizes, say e.g. "with 8 spare nodes"');
  });

  it.each([
    ['how long to train llama3-8b on 1T tokens on our 8 spare nodes', 8],
    ['how long to train llama3-8b on 1T tokens, we have 8 spare nodes', 8],
    ['how long to train llama3-8b on 1T tokens using 16 reserved nodes', 16],
  ])('"%s": planned on %d nodes, none said spare', (question, nodes) => {
    const q = parse(question);
    expect(q.stated.nodes).toBe(nodes);
    expect(q.notRead ?? []).toEqual([]);
    const a = ask(question, options);
    expect(a.headline).toMatch(new RegExp(` to train 1\\.00T tokens on ${nodes} nodes \\(${nodes * 8} GPUs\\)$`));
  });

  it.each([
    ['how long to train llama3-8b on 1T tokens on 8 nodes in reserve', '8 nodes in reserve'],
    ['how long to train llama3-8b on 1T tokens using our 8 standby nodes', '8 standby nodes'],
    ['how many nodes for 175B on 8 hot spares', '8 hot spares'],
  ])('"%s": held back yet put to work, neither spares nor the cluster, said not read', (question, phrase) => {
    const q = parse(question);
    expect(q.stated.nodes).toBeUndefined();
    expect(q.spareNodes).toBeUndefined();
    expect(q.notRead).toContainEqual(expect.objectContaining({ phrase: `"${phrase}"`, why: expect.stringMatching(/^not read as spares or as the cluster: /) }));
  });

  it('neighbours: spares a word adds are added, in a count or a share', () => {
    expect(parse('how many nodes for 175B, keep 2 hot spares').notRead ?? []).toEqual([]);
    const base = (ask('how many nodes for 175B', options).data as NodesOk).nodes;
    expect(ask('how many nodes for 175B, keep 2 hot spares', options).headline).toContain(`with "2 hot spares", get ${base + 2} nodes`);
    expect(ask('how many nodes for 175B plus 4 spare nodes', options).headline).toContain(`with "4 spare nodes", get ${base + 4} nodes`);
    expect(parse('how many nodes for 175B with 5% of GPUs reserved').stated.nodes).toBeUndefined();
  });
});

/**
 * Nodes held back in words that say they do not train ("standby", "in reserve", "on standby", "hot spares", "as spares",
 * "… for failures") are spares as "with 8 spare nodes" is, a word adding them or not. QA: "with 8 standby nodes" and "8 nodes
 * in reserve" were said not read, and "keep 8 nodes on standby" was planned as a cluster of 8 nodes.
 */
describe('spares in other words: standby, in reserve, hot spares', () => {
  it.each([
    ['how many nodes for 175B with 8 standby nodes', '8 standby nodes', 8, 'node'],
    ['how many nodes for 175B, 8 nodes in reserve', '8 nodes in reserve', 8, 'node'],
    ['how many nodes for 175B with 8 nodes in reserve', '8 nodes in reserve', 8, 'node'],
    ['how many nodes for 175B, keep 8 nodes on standby', '8 nodes on standby', 8, 'node'],
    ['how many nodes for 175B plus 8 hot spares', '8 hot spares', 8, 'node'],
    ['how many nodes for 175B + 8 hot spares', '8 hot spares', 8, 'node'],
    ['how many nodes for 175B, 8 hot spares', '8 hot spares', 8, 'node'],
    ['how many nodes for 175B with 16 standby GPUs', '16 standby GPUs', 16, 'gpu'],
    ['how many nodes for 175B, 8 spare nodes for failures', '8 spare nodes for failures', 8, 'node'],
    ['how many nodes for 175B, 16 nodes reserved for failures', '16 nodes reserved for failures', 16, 'node'],
    ['how many nodes for 175B, 8 nodes as hot spares', '8 nodes as hot spares', 8, 'node'],
    ['cheapest way to train llama3-70b on 2T tokens keeping 4 nodes on hot standby', '4 nodes on hot standby', 4, 'node'],
  ])('"%s": %s spare', (question, typed, count, unit) => {
    const q = parse(question);
    // The spares, never the cluster that trains, and nothing said not read.
    expect(q.spareNodes).toEqual({ written: typed.toLowerCase(), count, unit });
    expect(q.stated.nodes).toBeUndefined();
    expect(q.stated.gpus).toBeUndefined();
    expect(q.notRead ?? []).toEqual([]);
  });

  it('the GPU named between the count and its nodes is read past: "8 hot spare H100 nodes"', () => {
    const q = parse('how many nodes for 175B with 8 hot spare H100 nodes');
    expect(q.spareNodes).toEqual({ written: '8 hot spare nodes', count: 8, unit: 'node' });
    expect(q.stated.gpu).toBe('h100-sxm');
    expect(q.notRead ?? []).toEqual([]);
  });

  it('added to the nodes that train as "with 8 spare nodes" is', () => {
    const trained = (ask('how many nodes for 175B with 8 spare nodes', options).data as NodesOk).nodes;
    for (const [question, typed] of [['how many nodes for 175B with 8 standby nodes', '8 standby nodes'], ['how many nodes for 175B, keep 8 nodes on standby', '8 nodes on standby']] as const) {
      const a = ask(question, options);
      expect((a.data as NodesOk).nodes).toBe(trained);
      expect(a.headline).toContain(`with "${typed}", get ${trained + 8} nodes`);
    }
  });

  it('neighbours: nodes reserved on a cloud and our spare nodes are still the cluster', () => {
    expect(parse('can I train llama3-8b on 2T tokens using 16 nodes reserved on AWS in 30 days').stated.nodes).toBe(16);
    const ours = parse('how long to train llama3-8b on 1T tokens on our 8 spare H100 nodes');
    expect(ours.stated.nodes).toBe(8);
    expect(ours.spareNodes).toBeUndefined();
    expect(ours.defaults.map((d) => d.text)).toContainEqual(expect.stringMatching(/^"8 spare nodes" read as the cluster that trains, 8 nodes/));
  });
});
