import { describe, expect, it } from 'vitest';
import { runEstimate, type ScenarioInput, type EstimateJson } from '@trainplan/protocol';
import { formatBytes } from '@trainplan/units';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/**
 * "With fp8 weights" keeps the weights themselves in FP8 (training.fp8Params, lexicon/fp8-params.ts). QA: it planned FP8
 * arithmetic beside 16-bit weights and their FP8 copies (38.3 GiB a GPU), the weights' format dropped unsaid.
 */
const BASE = 'how long to train llama3-70b on 2T tokens on 64 H100 nodes with tp 8 pp 4';

describe('FP8 weights are planned', () => {
  it.each(['with fp8 weights', 'in fp8 with fp8 params', 'with --fp8-param-gather', 'fp8_params', 'keeping the weights in fp8'])('"%s": FP8, with fp8Params', (phrase) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.stated).toMatchObject({ precision: 'fp8', fp8Params: true, tensor: 8, pipeline: 4 });
    expect(q.intent).toBe('time');
  });

  it("the answer's memory is the API's with fp8Params on the bot's FP8 scenario, below FP8 with 16-bit weights", () => {
    const copies = ask(`${BASE} in fp8`, { publicUrl: null });
    const weights = ask(`${BASE} with fp8 weights`, { publicUrl: null });
    const own = copies.scenario as ScenarioInput;
    const api = runEstimate({ ...own, training: { ...own.training, fp8Params: true } }) as EstimateJson;
    expect(weights.scenario?.training.fp8Params).toBe(true);
    expect(api.ok && weights.memoryPerGpuBytes).toBe(api.ok && api.memory.totalBytes);
    expect(weights.memoryPerGpuBytes).toBeLessThan(copies.memoryPerGpuBytes ?? 0);
    expect(weights.configuration).toMatch(/ · FP8 weights · FP8 on /);
  });

  it('beside another precision named, the precision is planned and the FP8 weights said not read; served, they are the precision', () => {
    const q = parse(`${BASE} in bf16 with fp8 weights`);
    expect(q.stated.precision).toBe('bf16');
    expect(q.stated.fp8Params).toBeUndefined();
    expect(q.notRead).toEqual([{ phrase: '"with fp8 weights"', why: 'FP8 weights need FP8 arithmetic, and the plan is in BF16 as asked; say "fp8" for both' }]);
    // Served, "fp8 weights" are the serving precision itself, with no training setting said.
    const served = parse('serve llama3-70b on 8 h100 with fp8 weights');
    expect(served.intent).toBe('serving');
    expect(served.parameters.precision).toBe('fp8');
    expect(served.notRead ?? []).toEqual([]);
  });

  it('FP8 against BF16 with FP8 weights: the FP8 plan keeps them, the BF16 plan its own 16-bit weights (no refusal)', () => {
    const fp8 = ask(`${BASE} with fp8 weights`, { publicUrl: null });
    const bf16 = ask(`${BASE} in bf16`, { publicUrl: null });
    expect(fp8.scenario?.training.fp8Params).toBe(true);
    const compared = ask(`is fp8 faster than bf16 for ${BASE.replace('how long to train ', '')} with fp8 weights`, { publicUrl: null });
    expect(compared.headline).toMatch(new RegExp(`FP8: .*memory per GPU ${formatBytes(fp8.memoryPerGpuBytes ?? 0)} .*; BF16: .*memory per GPU ${formatBytes(bf16.memoryPerGpuBytes ?? 0)} `));
  });

  it('a search plans them: its plan keeps the weights in FP8', () => {
    const a = ask('how long to train llama3-8b on 1T tokens on 4 H100 nodes with fp8 weights', { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.scenario?.training).toMatchObject({ precision: 'fp8', fp8Params: true });
  });

});
