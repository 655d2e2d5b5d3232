import { runEstimate as runAny, runSearch, type EstimateJson, type ScenarioInput } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { searchRequestFor } from '../src/compute/search-requests.ts';
import { DEFAULT_VALUES, FIELDS, FP8_PARAMS, type FieldValues } from '../src/form/fields.ts';
import { issueAt } from '../src/form/issue-fields.ts';
import { dropConflicting, withKept } from '../src/form/kept-fields.ts';
import { fitPrecisionToGpu, readScenario, scenarioFromFields } from '../src/form/scenario-from-fields.ts';
import { withSearched } from '../src/form/searched-fields.ts';

const runEstimate = (s: ScenarioInput): EstimateJson => runAny(s) as EstimateJson;
/** A scenario as a link writes FP8 weights (not through the form's option). */
const withFp8Params = (s: ScenarioInput): ScenarioInput => ({ ...s, training: { ...s.training, fp8Params: true } });

/** GPT-3 175B on 128 DGX H100 (t 8, p 8) with the distributed optimizer, in `precision`. */
const H100: FieldValues = { ...DEFAULT_VALUES, gpu: 'h100-sxm', distopt: 'true' };
const at = (precision: string, values: FieldValues = H100): ScenarioInput => {
  const r = scenarioFromFields({ ...values, precision });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
};

describe('the Precision select\'s FP8-weights option (training.fp8Params)', () => {
  it('is offered, and maps to precision fp8 with fp8Params (plain fp8 states no fp8Params)', () => {
    const precision = FIELDS.find((f) => f.name === 'precision')!;
    expect(precision.options?.map(([value]) => value)).toEqual(['bf16', 'fp16', 'fp8', FP8_PARAMS]);
    expect(at(FP8_PARAMS).training).toMatchObject({ precision: 'fp8', fp8Params: true });
    expect(at('fp8').training.precision).toBe('fp8');
    expect(at('fp8').training).not.toHaveProperty('fp8Params');
  });

  it("reads a link's fp8 with fp8Params back as the option, not as a kept field; beside another precision it stays kept", () => {
    const link = at(FP8_PARAMS);
    const reading = readScenario(link, DEFAULT_VALUES);
    expect(reading.values.precision).toBe(FP8_PARAMS);
    expect(reading.kept).toEqual({});
    // The form's scenario for the link is the link's own.
    expect(at(reading.values.precision!, reading.values)).toEqual(link);
    // fp8Params false says what the other options say: nothing to keep.
    const plain = { ...link, training: { ...link.training, fp8Params: false } };
    expect(readScenario(plain, DEFAULT_VALUES)).toMatchObject({ values: { precision: 'fp8' }, kept: {} });
    // Beside bf16 (the protocol refuses it): kept, so the widget answers what the API answers, until the reader picks a precision.
    const odd = { ...link, training: { ...link.training, precision: 'bf16' as const } };
    const kept = readScenario(odd, DEFAULT_VALUES);
    expect(kept).toMatchObject({ values: { precision: 'bf16' }, kept: { 'training.fp8Params': true } });
    expect(withKept(at('bf16', kept.values), kept.kept).training.fp8Params).toBe(true);
    expect(dropConflicting(kept.kept, 'precision', { ...kept.values, precision: 'fp8' }).kept).toEqual({});
  });

  it('is fp8 to the GPU switch: kept on an H100, switched to the default on an A100 (no FP8 tensor cores), and back', () => {
    const h100 = { ...H100, precision: FP8_PARAMS };
    expect(fitPrecisionToGpu(h100)).toEqual({ values: h100, note: '' });
    const a100 = fitPrecisionToGpu({ ...h100, gpu: 'a100-80gb' });
    expect(a100.values.precision).toBe('bf16');
    expect(a100.switchedFrom).toBe(FP8_PARAMS);
    expect(a100.note).toMatch(/A100.* no FP8 tensor cores: precision switched from fp8-params to bf16/);
    const back = fitPrecisionToGpu({ ...a100.values, gpu: 'h100-sxm' }, a100.switchedFrom);
    expect(back.values.precision).toBe(FP8_PARAMS);
    expect(back.switchedFrom).toBeUndefined();
  });

  it('drops the 16-bit copy: weights per GPU are 2 bytes per matrix parameter of the stage fewer than plain fp8', () => {
    const fp8 = runEstimate(at('fp8'));
    const fp8Params = runEstimate(at(FP8_PARAMS));
    expect(fp8.ok && fp8Params.ok).toBe(true);
    if (!fp8.ok || !fp8Params.ok) return;
    // By hand: GPT-3 175B (h = 12,288, FFN 4h, 96 heads, no gated MLP) has 3h² (QKV) + h² (out) + 4h² + 4h² (MLP)
    // = 12h² weight matrix parameters per layer; p = 8 stages of 96 / 8 = 12 layers, split t = 8 ways. Plain fp8 keeps
    // Transformer Engine's FP8 copy and transpose (2 bytes) beside each 16-bit weight; fp8Params keeps only those.
    const h = 12_288;
    const copyBytes = (2 * 12 * 12 * h * h) / 8; // 5,435,817,984 B, 5.06 GiB
    expect(fp8.memory.weightsBytes - fp8Params.memory.weightsBytes).toBeCloseTo(copyBytes, 0);
    expect(fp8Params.memory.weightsBytes).toBeLessThan(fp8.memory.weightsBytes);
  });

  it("without the distributed optimizer, shows the protocol's refusal beside Precision and the Distributed optimizer box, which it names", () => {
    const e = runEstimate(withFp8Params(at('fp8', { ...H100, distopt: 'false' })));
    expect(e.ok).toBe(false);
    if (e.ok) return;
    const issues = (e.issues ?? []).map(issueAt);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.fields).toEqual(['precision', 'distopt']);
    expect(issues[0]!.message).toContain('“Distributed optimizer”');
  });

  it('searches with FP8 weights ("Auto"): the request carries fp8Params and the plan found has them, with the distributed optimizer', () => {
    const scenario = withFp8Params(at('fp8', { ...H100, distopt: 'false' }));
    const request = searchRequestFor(scenario) as { training: Record<string, unknown> };
    expect(request.training).toMatchObject({ precision: 'fp8', fp8Params: true });
    const result = runSearch(request);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.best.scenario.training.fp8Params).toBe(true);
    expect(result.best.scenario.parallelism?.distributedOptimizer).toBe(true);
    // Written into the form: the search's choices, the precision still FP8 weights.
    const values = withSearched({ ...H100, distopt: 'false', precision: FP8_PARAMS }, result.best.scenario);
    expect(values).toMatchObject({ precision: FP8_PARAMS, distopt: 'true' });
  });
});
