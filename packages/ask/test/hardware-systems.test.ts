import { describe, expect, it } from 'vitest';
import { parse } from '../src/parse.ts';

describe('system preset ids and machine names are read as the system, never the GPU inside them', () => {
  it.each([
    ['48 jean-zay-a100 nodes', 'jean-zay-a100', 'a100-80gb'],
    ['48 Jean Zay nodes', 'jean-zay-a100', 'a100-80gb'],
    ['48 jean zay a100 nodes', 'jean-zay-a100', 'a100-80gb'],
    ['48 dgx-a100-80gb nodes', 'dgx-a100-80gb', 'a100-80gb'],
    ['48 azure-ndm-a100-v4 nodes', 'azure-ndm-a100-v4', 'a100-80gb'],
    ['48 dgx-h100 nodes', 'dgx-h100', 'h100-sxm'],
  ])('"%s" is 48 nodes of %s', (cluster, system, gpu) => {
    const q = parse(`how long to train bloom-176b on 366B tokens on ${cluster}`);
    expect(q.stated).toMatchObject({ system, gpu, nodes: 48 });
    expect(q.notRead ?? []).toEqual([]);
  });

  it('the QA question plans BLOOM\'s own run on 48 Jean Zay nodes, nothing left unread', () => {
    const q = parse('how long to train bloom-176b on 366B tokens on 48 jean-zay-a100 nodes with tp 4 pp 12 and full recompute and global batch 2048');
    expect(q.problems).toEqual([]);
    expect(q.parameters).toMatchObject({ system: 'jean-zay-a100', nodes: 48, tensor: 4, pipeline: 12, recompute: 'full', globalBatchSize: 2048 });
    expect(q.defaults.map((d) => d.text).join(' ')).not.toContain('128 nodes');
  });

  it('"Jean Zay" alone says which partition it was read as (it has V100 and H100 partitions too)', () => {
    expect(parse('how long to train bloom-176b on 366B tokens on 48 Jean Zay nodes').defaults.map((d) => d.text)).toContain(
      'Jean Zay read as its A100 partition\'s node, jean-zay-a100 (8 × A100 SXM4 80GB, 4 Omni-Path 100 Gb/s links a node), on which BLOOM trained (BigScience 2022)',
    );
  });
});
