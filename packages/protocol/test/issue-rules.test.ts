import { describe, expect, it } from 'vitest';
import { CONTRACT_EXAMPLE, estimateJsonSchema, runEstimate, validateEstimate, type EstimateJson } from '../src/index.ts';
import { checkJsonSchema } from './support/json-schema-check.ts';

/** The contract example (GPT-3 175B on 128 × 8 A100, t 8 · p 8 · d 16, batch 1,536 of 1) with some fields replaced. */
const refused = (training: object, parallelism: object = {}): EstimateJson => {
  const answer = runEstimate({
    ...CONTRACT_EXAMPLE,
    training: { ...CONTRACT_EXAMPLE.training, ...training },
    parallelism: { ...CONTRACT_EXAMPLE.parallelism, ...parallelism },
  }) as EstimateJson;
  if (answer.ok) throw new Error('expected a refusal');
  return answer;
};

describe('a refusal names the planner rule behind each issue (extension FieldIssue.rule)', () => {
  it('a global batch that d × micro-batch does not divide: batch-indivisible, at training.globalBatchSize', () => {
    const answer = refused({ globalBatchSize: 1000 });
    expect(answer).toMatchObject({ reason: 'indivisible', issues: [{ path: 'training.globalBatchSize', rule: 'batch-indivisible' }] });
  });
  it('a tensor × pipeline × context that does not divide the GPUs: indivisible, gpus-indivisible, as a data degree that does not', () => {
    // t 3 on 1,024 GPUs: the data degree is derived, so resolving the scenario finds it, before the planner's checks.
    expect(refused({}, { tensor: 3 })).toMatchObject({ reason: 'indivisible', issues: [{ path: 'parallelism', rule: 'gpus-indivisible' }] });
    expect(refused({}, { data: 15 })).toMatchObject({ reason: 'indivisible', issues: [{ path: 'parallelism.data', rule: 'gpus-indivisible' }, { rule: 'batch-indivisible' }] });
  });
  it('in an array, the rule stays with its prefixed path', () => {
    const answers = runEstimate([CONTRACT_EXAMPLE, { ...CONTRACT_EXAMPLE, training: { ...CONTRACT_EXAMPLE.training, globalBatchSize: 1000 } }]) as EstimateJson[];
    expect(answers[1]).toMatchObject({ issues: [{ path: '[1].training.globalBatchSize', rule: 'batch-indivisible' }] });
  });
  it('a schema issue (a field out of range) has no rule: only the planner\'s checks name one', () => {
    const answer = refused({ microBatchSize: 0 });
    expect(answer.ok).toBe(false);
    for (const issue of (answer as { issues?: object[] }).issues ?? []) expect(issue).not.toHaveProperty('rule');
  });
  it('the published schema and the validator accept it', () => {
    const answer = refused({ globalBatchSize: 1000 });
    expect(checkJsonSchema(estimateJsonSchema, JSON.parse(JSON.stringify(answer)))).toEqual([]);
    expect(validateEstimate(answer)).toEqual({ ok: true, value: answer });
  });
});
