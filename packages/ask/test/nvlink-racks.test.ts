import { describe, expect, it } from 'vitest';
import type { NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

// A GB200 NVL72 rack is 18 trays (nodes) of 4 GPUs sharing one 72-GPU NVLink domain: a GB200 buyer counts racks.
describe('nodes on GB200 NVL72 are counted in racks (NVLink domains) too', () => {
  it('"how many gb200 nvl72 racks to train 8b on 1t tokens in 10 days" leads with the racks the GPUs fill', () => {
    const a = ask('how many gb200 nvl72 racks to train llama 3 8b on 1t tokens in 10 days', { publicUrl: null });
    const data = a.data as NodesOk;
    expect(data.ok).toBe(true);
    // Racks = ⌈GPUs / 72⌉ (the search's nvlinkDomains), the last holding what is left; a tray (node) holds 4 GPUs.
    const racks = Math.ceil(data.gpus / 72);
    const last = data.gpus - (racks - 1) * 72;
    const partly = last === 72 ? '' : racks === 1 ? `; the rack holding ${last}` : `; the last rack holding ${last}`;
    const nodes = `${data.nodes.toLocaleString('en-US')} node${data.nodes === 1 ? '' : 's'} of 4 GPUs`;
    expect(a.headline).toContain(`: ${racks.toLocaleString('en-US')} rack${racks === 1 ? '' : 's'} (${nodes}, ${data.gpus.toLocaleString('en-US')} GPUs${partly}) train${racks === 1 ? 's' : ''} `);
  });

  it('"how many gb200 nvl72 racks to train llama3 405b on 15T tokens in 90 days" leads with racks, not nodes (QA: racks only in brackets)', () => {
    const a = ask('how many gb200 nvl72 racks to train llama3 405b on 15T tokens in 90 days', { publicUrl: null, today: '2026-11-28' });
    const data = a.data as NodesOk;
    expect(data.ok).toBe(true);
    expect(data.gpus).toBe(data.nodes * 4);
    expect(a.headline).toMatch(/: [\d,]+ racks \([\d,]+ nodes of 4 GPUs, [\d,]+ GPUs(?:; the last rack holding \d+)?\) train /);
    const racks = Number(/: ([\d,]+) racks/.exec(a.headline)?.[1]?.replace(/,/g, ''));
    expect(racks).toBe(Math.ceil(data.gpus / 72));
    expect(a.headline).not.toContain('NVLink domain');
  });

  it('a GB200 question asking no racks still counts nodes first, the domains in brackets', () => {
    const a = ask('how many gb200 nodes to train llama 3 8b on 1t tokens in 10 days', { publicUrl: null });
    expect(a.headline).toMatch(/: [\d,]+ nodes? \([\d,]+ GPUs in \d+ NVLink domains? of 72 GPUs/);
  });

  it('says nothing of domains where a node is its own (H100)', () => {
    const a = ask('how many h100 nodes to train llama 3 8b on 1t tokens in 10 days', { publicUrl: null });
    expect(a.headline).not.toContain('NVLink domain');
    expect(a.headline).toMatch(/\d+ nodes \([\d,]+ GPUs\) train/);
  });
});
