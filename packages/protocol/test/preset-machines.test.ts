import { describe, expect, it } from 'vitest';
import { GPU_IDS, NETWORK_IDS } from '@trainplan/presets';
import { runEstimate, type EstimateJson } from '../src/index.ts';

/**
 * Every machine the presets can describe gets an answer, never an internal error: each GPU on each
 * fabric, 1 to 8 GPUs per node, 1 to 4 nodes. A100s two to a node on eight NDR NICs once tripped the
 * collectives' bandwidth bound (busbw 371 GB/s against NVLink's 300), a 500 over HTTP.
 */
describe('every preset GPU on every preset fabric, 1–8 GPUs per node, 1–4 nodes', () => {
  it.each(GPU_IDS.flatMap((gpu) => NETWORK_IDS.map((network) => [gpu, network] as const)))('%s on %s', (gpu, network) => {
    for (const gpusPerNode of [1, 2, 3, 4, 8]) {
      for (const nodes of [1, 2, 4]) {
        const scenario = { model: 'gpt3-126m', cluster: { gpu, nodes, gpusPerNode, network }, training: { globalBatchSize: 48 } };
        const answer = runEstimate(scenario) as EstimateJson;
        // An answer either way: an estimate, or a refusal that names its field (a machine the fabric cannot have).
        if (answer.ok) expect(answer.stepTimeSeconds, JSON.stringify(scenario)).toBeGreaterThan(0);
        else expect(answer.issues?.length ?? 0, JSON.stringify(scenario)).toBeGreaterThan(0);
      }
    }
  });
});
