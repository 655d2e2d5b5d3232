import { describe, expect, it } from 'vitest';
import { runCollective, runEstimate, type EstimateJson } from '../src/index.ts';
import { gpuById, networkById, systemById } from '@trainplan/presets';
import { fabricFor } from '../src/fabric-cache.ts';
import { scenarioWith } from './support/scenarios.ts';

const issuesOf = (a: EstimateJson | EstimateJson[]) => (Array.isArray(a) ? a : [a]).flatMap((x) => (x.ok ? [] : x.issues ?? []));

describe('what a cluster may not ask of its presets', () => {
  it('refuses more GPUs per node than the system\'s NVLink domain, which would price them all at NVLink speed', () => {
    const answer = runEstimate(scenarioWith((s) => { s.cluster = { gpu: 'a100-80gb', gpusPerNode: 1024, nodes: 1 }; }));
    expect(issuesOf(answer)).toEqual([expect.objectContaining({ path: 'cluster.gpusPerNode', message: expect.stringContaining('8 GPUs per node') })]);
  });

  it('accepts fewer GPUs per node than the system holds', () => {
    const answer = runEstimate(scenarioWith((s) => { s.model = 'gpt3-350m'; s.cluster = { gpu: 'h100-sxm', gpusPerNode: 4, nodes: 4 }; }));
    expect(answer).toMatchObject({ ok: true });
  });

  it('refuses an NVLink-domain fabric (GB200 NVL72) under a GPU that is not built into it, for estimates and collectives', () => {
    const estimate = runEstimate(scenarioWith((s) => { s.cluster = { gpu: 'v100-32gb', nodes: 72, network: 'nvl72' }; s.training = { globalBatchSize: 512, precision: 'fp16' }; }));
    expect(issuesOf(estimate).map((i) => i.path)).toEqual(['cluster.network']);
    expect(issuesOf(estimate)[0]!.message).toContain('gb200');
    const collective = runCollective({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 2, network: 'nvl72' });
    expect(collective).toMatchObject({ ok: false });
    expect(JSON.stringify(collective)).toContain('"path":"network"');
  });

  it('keeps NVL72 for the GB200 it belongs to', () => {
    const answer = runEstimate(scenarioWith((s) => { s.model = 'gpt3-350m'; s.cluster = { gpu: 'gb200', nodes: 18, network: 'nvl72' }; s.training = { globalBatchSize: 576 }; }));
    expect(answer).toMatchObject({ ok: true });
  });

  it('answers fewer GPUs than a node holds as one partly used node, not a fraction of a node', () => {
    const answer = runEstimate(scenarioWith((s) => { s.model = 'gpt3-350m'; s.cluster = { gpu: 'a100-80gb', gpus: 4 }; s.training = { globalBatchSize: 64 }; }));
    expect(answer).toMatchObject({ ok: true, resolved: { nodes: 1, gpusPerNode: 4, gpus: 4 } });
  });
});

describe('the GB200 NVL72 fabric as resolved for a plan', () => {
  it('is one 72-GPU node with one NIC per GPU (18 trays × 4 NICs)', () => {
    const gpu = gpuById('gb200')!;
    const system = systemById('gb200-nvl72')!;
    const fabric = fabricFor(gpu, system, networkById('nvl72')!, 72);
    expect(fabric.gpusPerNode).toBe(72);
    expect(fabric.nicsPerNode).toBe(72);
  });
});
