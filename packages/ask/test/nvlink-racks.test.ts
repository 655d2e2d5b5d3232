import { describe, expect, it } from 'vitest';
import type { NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

// A GB200 NVL72 rack is 18 trays (nodes) of 4 GPUs sharing one 72-GPU NVLink domain: a GB200 buyer counts racks.
describe('nodes on GB200 NVL72 are counted in racks (NVLink domains) too', () => {
  it('"how many gb200 nvl72 racks to train 8b on 1t tokens in 10 days" names the domains the GPUs fill', () => {
    const a = ask('how many gb200 nvl72 racks to train llama 3 8b on 1t tokens in 10 days', { publicUrl: null });
    const data = a.data as NodesOk;
    expect(data.ok).toBe(true);
    const racks = Math.ceil(data.gpus / 72);
    const last = data.gpus - (racks - 1) * 72;
    const partly = racks === 1 ? `, holding ${last}` : `, the last holding ${last}`;
    const domains = `${racks} NVLink domain${racks === 1 ? '' : 's'} of 72 GPUs${last === 72 ? '' : partly}`;
    expect(a.headline).toContain(`${data.nodes.toLocaleString('en-US')} node${data.nodes === 1 ? '' : 's'} (${data.gpus.toLocaleString('en-US')} GPUs in ${domains}) train`);
  });

  it('says nothing of domains where a node is its own (H100)', () => {
    const a = ask('how many h100 nodes to train llama 3 8b on 1t tokens in 10 days', { publicUrl: null });
    expect(a.headline).not.toContain('NVLink domain');
    expect(a.headline).toMatch(/\d+ nodes \([\d,]+ GPUs\) train/);
  });
});
