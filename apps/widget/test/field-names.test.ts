import { runEstimate, runInference, validateScenario, type EstimateJson, type InferenceResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { labelledIssue } from '../src/form/field-names.ts';
import { DEFAULT_VALUES, FIELDS } from '../src/form/fields.ts';
import { issueAt } from '../src/form/issue-fields.ts';
import { scenarioFromFields } from '../src/form/scenario-from-fields.ts';
import { inferenceRequestFromFields, SERVING_PATHS, servingFieldForPath } from '../src/serving/request-from-fields.ts';
import { SERVING_DEFAULTS, SERVING_FIELDS } from '../src/serving/serving-fields.ts';

/** A request field's wire name: camelCase, as the protocol's messages write them for API callers. */
const WIRE_NAME = /\b[a-z]+[A-Z][A-Za-z]*\b/;
const label = (name: string) => [...FIELDS, ...SERVING_FIELDS].find((f) => f.name === name)!.label;

/** The estimator's issues for the form's `values` over its defaults: the schema's first, then the estimate's. */
function estimatorIssues(values: Record<string, string>) {
  const r = scenarioFromFields({ ...DEFAULT_VALUES, ...values });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const valid = validateScenario(r.scenario);
  if (!valid.ok) return valid.issues;
  const e = runEstimate(r.scenario) as EstimateJson;
  if (e.ok) throw new Error(`expected ${JSON.stringify(values)} to be refused`);
  return e.issues ?? [];
}

/** The serving element's issues for `values` over its defaults, mapped as it maps runInference's (trainplan-serving.ts). */
function servingIssues(values: Record<string, string>) {
  const r = inferenceRequestFromFields({ ...SERVING_DEFAULTS, ...values });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const answer = runInference(r.request) as InferenceResponseJson;
  if (answer.ok) throw new Error(`expected ${JSON.stringify(values)} to be refused`);
  return { raw: answer.issues, shown: answer.issues.map((i) => labelledIssue({ field: servingFieldForPath(i.path), message: i.message }, SERVING_FIELDS, SERVING_PATHS)) };
}

const CUSTOM = { model: 'custom', layers: '24', 'hidden-size': '2048', heads: '16', vocab: '51200' };

describe('the estimator says the protocol\'s issues in its own labels and marks every field they name', () => {
  it('a hidden size that is no multiple of the heads: “Attention heads” named, and marked with “Hidden size”', () => {
    const raw = estimatorIssues({ ...CUSTOM, 'hidden-size': '1000', heads: '96' });
    // The premise: the schema says it in wire names, at model.hiddenSize alone.
    expect(raw[0]!.message).toMatch(/attentionHeads/);
    const [shown] = raw.map(issueAt);
    expect(shown!.fields).toEqual(['hidden-size', 'heads']);
    expect(shown!.message).not.toMatch(WIRE_NAME);
    expect(shown!.message).toContain(`must be a multiple of “${label('heads')}” (96)`);
    expect(shown!.message).toContain(`“${label('hidden-size')}” / “${label('heads')}”`);
  });

  it('an FFN size t does not divide: on the FFN size as well as on Tensor (t)', () => {
    const raw = estimatorIssues({ ...CUSTOM, ffn: '7' });
    const ffn = raw.map(issueAt).find((i) => i.message.includes('FFN size 7'));
    // Filed by the planner under parallelism.tensor; the message names the FFN size in words.
    expect(raw.find((i) => i.message.includes('FFN size 7'))!.path).toBe('parallelism.tensor');
    expect(ffn!.fields).toEqual(['tp', 'ffn']);
  });

  it('an issue naming no other field stays on its own field, its words as they were', () => {
    const raw = estimatorIssues({ tp: '128', gbs: '1536' });
    expect(raw.map(issueAt).map((i) => i.message)).toEqual(raw.map((i) => i.message));
  });
});

describe('the serving element says the protocol\'s issues in its own labels and marks every field they name', () => {
  it('a shared prefix longer than the prompt: “at most “Prompt (tokens)” (2,048)”, on both fields', () => {
    const { raw, shown } = servingIssues({ 'shared-prefix': '4096' });
    expect(raw[0]!.message).toMatch(/promptTokens/);
    expect(shown[0]!.message).toContain(`at most “${label('prompt')}” (2,048)`);
    expect(shown[0]!.fields).toEqual(['shared-prefix', 'prompt']);
  });

  it('a request rate with static batching: “or leave “Requests/s” out”, on Requests/s and Batching', () => {
    const { raw, shown } = servingIssues({ batching: 'static', rate: '5' });
    expect(raw[0]!.message).toMatch(/requestsPerSecond/);
    expect(shown[0]!.message).toMatch(new RegExp(`give “${label('batching')}” continuous, or leave “Requests/s” out`));
    expect(new Set(shown[0]!.fields)).toEqual(new Set(['rate', 'batching']));
  });

  it('FP8 weights on an A100: the remedy names “Precision” and “KV cache”, both marked', () => {
    const { raw, shown } = servingIssues({ gpu: 'a100-80gb', precision: 'fp8' });
    expect(raw.map((i) => i.message).join(' ')).toMatch(/kvCachePrecision "fp8"/);
    const fp8 = shown.find((i) => i.message.includes('FP8 tensor cores'))!;
    expect(fp8.message).toContain(`(“${label('precision')}” bf16, “${label('kv-cache')}” fp8)`);
    expect(fp8.message).not.toMatch(WIRE_NAME);
    expect(new Set(fp8.fields)).toEqual(new Set(['precision', 'kv-cache']));
  });
});
