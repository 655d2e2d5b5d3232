import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

describe('the network between nodes', () => {
  it.each([
    ['train llama3-70b on 256 A100 40GB over RoCE', 'roce-400g-8x'],
    ['llama3-70b on 64 a100 over HDR infiniband', 'hdr-ib-8x'],
    ['llama3-70b on 64 h100 over NDR IB', 'ndr-ib-8x'],
    ['llama3-70b on 64 v100 with edr-ib-4x network', 'edr-ib-4x'],
    ['llama3-70b on 64 a100 over 200 Gbps HDR', 'hdr-ib-8x'],
  ])('%s is planned on %s, said so', (question, network) => {
    const q = parse(question);
    expect(q.stated.network).toBe(network);
    expect(q.defaults.find((d) => d.field === 'network')?.text).toContain(network);
  });
  it('the preset named reaches the plan', () => {
    const a = ask('how long to train llama3-8b on 1T tokens on 64 v100 with edr-ib-4x network', { publicUrl: null });
    expect(a.scenario?.cluster.network).toBe('edr-ib-4x');
  });
  it.each([
    ['llama3-70b on 64 h100 with only 100 Gbps networking per node', '100 Gbps networking per node'],
    ['llama3-70b on 64 h100 200Gbps ethernet', '200Gbps ethernet'],
    ['llama3-70b on 64 h100 1 NIC per node', '1 NIC per node'],
    ['llama3-70b on 64 h100 over 100G RoCE', '100G RoCE'],
  ])('%s: not read, and the network planned said among the assumptions', (question, phrase) => {
    const a = ask(`how long to train ${question}`, { publicUrl: null });
    expect(a.notes[0]).toMatch(new RegExp(`^Not read: the network "${phrase}" \\(`));
    expect(a.assumptions).toContain('the network between nodes taken as ndr-ib-8x: 8 × NDR InfiniBand 400 Gb/s (DGX H100/H200/B200) (the network named is not modelled)');
    expect(a.scenario?.cluster.network).toBe('ndr-ib-8x');
  });
});
