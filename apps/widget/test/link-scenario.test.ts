import { runEstimate as runAny, validateScenario, type EstimateJson, type ScenarioInput } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VALUES, type FieldValues } from '../src/form/fields.ts';
import { dropConflicting, keptFromScenario, keptNote, withKept } from '../src/form/kept-fields.ts';
import { fitPrecisionToGpu, readScenario, scenarioFromFields } from '../src/form/scenario-from-fields.ts';
import { hasScenarioPart } from '../src/hash.ts';

const runEstimate = (s: unknown): EstimateJson => runAny(s) as EstimateJson;

/** What the widget estimates for a link: the form's scenario with the kept fields merged back. */
function widgetScenario(link: unknown): ScenarioInput {
  const v = validateScenario(link);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  const reading = readScenario(link as ScenarioInput, DEFAULT_VALUES);
  const parsed = scenarioFromFields(reading.values);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const { tokens: _t, ...training } = parsed.scenario.training; // the form's default token budget is not the link's
  return withKept({ ...parsed.scenario, training }, reading.kept);
}

/** The widget answers what the API (runEstimate, the code POST /v1/estimate runs) answers for the link. */
function expectSameAnswer(link: unknown): void {
  expect(runEstimate(widgetScenario(link))).toEqual(runEstimate(link));
}

describe('a shared link counting GPUs (cluster.gpus)', () => {
  it('takes nodes and GPUs per node from the protocol: 4 A100s are 1 node of 4, not 1 of 8', () => {
    const link = { model: 'gpt3-1.3b', cluster: { gpu: 'a100-40gb', gpus: 4 }, training: { globalBatchSize: 64 } };
    const { values } = readScenario(link, DEFAULT_VALUES);
    expect([values.nodes, values['gpus-per-node']]).toEqual(['1', '4']);
    const e = runEstimate(widgetScenario(link));
    expect(e.ok && [e.resolved.nodes, e.resolved.gpusPerNode]).toEqual([1, 4]);
    expectSameAnswer(link);
  });

  it('shows a system id in cluster.gpu (dgx-h100) as its GPU, node size and network, and answers as the API', () => {
    const link = { model: 'llama3-8b', cluster: { gpu: 'dgx-h100', nodes: 2 }, training: { globalBatchSize: 64 }, parallelism: { tensor: 8 } };
    const { values } = readScenario(link, DEFAULT_VALUES);
    expect([values.gpu, values.nodes, values['gpus-per-node'], values.network]).toEqual(['h100-sxm', '2', '8', 'ndr-ib-8x']);
    expectSameAnswer(link);
  });

  it('counts GB200 trays of 4: 72 GPUs are 18 nodes, not 9', () => {
    const link = { model: 'llama3-70b', cluster: { gpu: 'gb200', gpus: 72 }, training: { globalBatchSize: 576 }, parallelism: { tensor: 4, pipeline: 2 } };
    const { values } = readScenario(link, DEFAULT_VALUES);
    expect([values.nodes, values['gpus-per-node']]).toEqual(['18', '']);
    expectSameAnswer(link);
    const fits = { ...link, model: 'llama3-8b', parallelism: { tensor: 4, pipeline: 1, recompute: 'full' } };
    expect(runEstimate(fits).ok).toBe(true);
    expectSameAnswer(fits);
  });

  it('says so when the GPUs do not fill whole nodes (the API refuses those too)', () => {
    const link = { model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb', gpus: 12 }, training: { globalBatchSize: 48 } };
    expect(readScenario(link, DEFAULT_VALUES).notes.join(' ')).toMatch(/12 GPUs do not fill whole nodes of 8/);
  });
});

describe("a link's fields the form has no input for", () => {
  const link = {
    model: { layers: 8, hiddenSize: 1024, attentionHeads: 16, vocabSize: 32000, seqLength: 2048, tiedEmbeddings: false, linearBias: false, normalization: 'rmsnorm', positionEmbedding: 'rotary', name: 'mine' },
    cluster: { gpu: 'h100-sxm', nodes: 2, communicationModel: 'closed-form', oversubscription: 2 },
    training: { globalBatchSize: 64, microBatchSize: 2, precision: 'bf16', attentionKernel: 'unfused', dropout: false, gradientAccumulation: 'fp32' },
    parallelism: { tensor: 2, pipeline: 4, virtualStages: 2, data: 2, zeroStage: 1, schedule: 'interleaved', overlapGradReduce: true, recompute: 'full', recomputeLayers: 2 },
  };

  it('are kept and merged back, so the widget answers what the API answers', () => {
    const kept = keptFromScenario(link as ScenarioInput);
    expect(kept).toEqual({
      'model.tiedEmbeddings': false, 'model.linearBias': false, 'model.normalization': 'rmsnorm', 'model.positionEmbedding': 'rotary', 'model.name': 'mine',
      'cluster.communicationModel': 'closed-form', 'cluster.oversubscription': 2,
      'training.attentionKernel': 'unfused', 'training.dropout': false, 'training.gradientAccumulation': 'fp32',
      'parallelism.data': 2, 'parallelism.zeroStage': 1, 'parallelism.schedule': 'interleaved', 'parallelism.overlapGradReduce': true, 'parallelism.recomputeLayers': 2,
    });
    expect(runEstimate(link).ok).toBe(true);
    expectSameAnswer(link);
    // Each one alone changes the answer: dropping it would be a silent change.
    const only = (path: string) => { const [section, key] = path.split('.') as [keyof typeof link, string]; return { ...link, [section]: Object.fromEntries(Object.entries(link[section]).filter(([k]) => k !== key)) }; };
    for (const path of ['model.tiedEmbeddings', 'parallelism.zeroStage', 'training.dropout', 'training.attentionKernel']) {
      expect((runEstimate(only(path)) as { stepTimeSeconds?: number; memory?: unknown }), path).not.toEqual(runEstimate(link));
    }
  });

  it('are listed in a visible note', () => {
    const note = keptNote(keptFromScenario(link as ScenarioInput));
    expect(note).toMatch(/^From the link, not editable here: /);
    for (const part of ['tiedEmbeddings false', 'zeroStage 1', 'attentionKernel unfused', 'dropout false', 'schedule interleaved', 'recomputeLayers 2', 'oversubscription 2']) expect(note).toContain(part);
    expect(keptNote({})).toBe('');
  });

  it('are dropped, with a note, only when the reader changes something that conflicts', () => {
    const kept = keptFromScenario(link as ScenarioInput);
    const values = readScenario(link as ScenarioInput, DEFAULT_VALUES).values;
    const change = (field: string, value: string) => dropConflicting(kept, field, { ...values, [field]: value } as FieldValues);
    expect(change('gbs', '128')).toEqual({ kept, note: '' });
    expect(change('layers', '16').kept).toHaveProperty(['model.tiedEmbeddings'], false);
    const preset = change('model', 'gpt3-1.3b');
    expect(Object.keys(preset.kept).some((p) => p.startsWith('model.'))).toBe(false);
    expect(preset.kept).toHaveProperty(['parallelism.zeroStage'], 1);
    expect(preset.note).toMatch(/Dropped from the link \(the model is no longer the link's custom shape\): .*tiedEmbeddings false/);
    const distopt = change('distopt', 'true');
    expect(distopt.kept).not.toHaveProperty(['parallelism.zeroStage']);
    expect(distopt.note).toContain('zeroStage 1');
    expect(change('tp', '4').kept).not.toHaveProperty(['parallelism.data']);
    expect(change('vp', '1').kept).not.toHaveProperty(['parallelism.schedule']);
    expect(change('recompute', 'selective').kept).not.toHaveProperty(['parallelism.recomputeLayers']);
    expect(Object.keys(change('auto', 'true').kept).every((p) => p.startsWith('model.'))).toBe(true);
  });

  it('a split counting the embedding and the loss goes with the pipeline depth it divides: kept for another v, dropped for another PP', () => {
    const split = {
      model: 'llama3.1-405b', cluster: { gpu: 'h100-sxm', nodes: 16 }, training: { globalBatchSize: 64 },
      parallelism: {
        tensor: 8, pipeline: 8, context: 2, virtualStages: 2, sequenceParallel: true, distributedOptimizer: true, recompute: 'full',
        embeddingInPipelineSplit: true, lossInPipelineSplit: true,
      },
    } as ScenarioInput;
    const kept = keptFromScenario(split);
    expect(kept).toMatchObject({ 'parallelism.embeddingInPipelineSplit': true, 'parallelism.lossInPipelineSplit': true });
    // Interleaving 126 layers on 8 stages runs only with both counted: the widget answers what the API does.
    expect(runEstimate(split).ok).toBe(true);
    expectSameAnswer(split);
    const values = readScenario(split, DEFAULT_VALUES).values;
    const change = (field: string, value: string) => dropConflicting(kept, field, { ...values, [field]: value } as FieldValues);
    expect(change('vp', '4').kept).toEqual(kept);
    const pp = change('pp', '12');
    expect(pp.kept).not.toHaveProperty(['parallelism.embeddingInPipelineSplit']);
    expect(pp.kept).not.toHaveProperty(['parallelism.lossInPipelineSplit']);
    expect(pp.note).toContain('embeddingInPipelineSplit true, lossInPipelineSplit true');
  });
});

describe('precision', () => {
  it("a V100 link without precision takes the protocol's default, fp16, as the API does", () => {
    const link = { model: 'gpt3-350m', cluster: { gpu: 'v100-32gb', nodes: 1 }, training: { globalBatchSize: 64 } };
    expect(readScenario(link, DEFAULT_VALUES).values.precision).toBe('fp16');
    expect(runEstimate(link).ok).toBe(true);
    expectSameAnswer(link);
    expect(readScenario({ ...link, cluster: { gpu: 'h100-sxm', nodes: 1 } }, DEFAULT_VALUES).values.precision).toBe('bf16');
  });

  it('switching the GPU to one without tensor cores for the precision switches it, says so, and comes back', () => {
    const v100 = fitPrecisionToGpu({ ...DEFAULT_VALUES, gpu: 'v100-32gb', precision: 'bf16' });
    expect(v100.values.precision).toBe('fp16');
    expect(v100.note).toMatch(/V100.*no BF16 tensor cores: precision switched from bf16 to fp16/);
    const back = fitPrecisionToGpu({ ...v100.values, gpu: 'a100-80gb' }, v100.switchedFrom);
    expect(back.values.precision).toBe('bf16');
    expect(back.switchedFrom).toBeUndefined();
    expect(fitPrecisionToGpu({ ...DEFAULT_VALUES, gpu: 'a100-80gb', precision: 'fp8' }).values.precision).toBe('bf16');
    expect(fitPrecisionToGpu({ ...DEFAULT_VALUES, gpu: 'h100-sxm', precision: 'fp8' })).toEqual({ values: { ...DEFAULT_VALUES, gpu: 'h100-sxm', precision: 'fp8' }, note: '' });
  });
});

describe('hasScenarioPart', () => {
  it('tells a link meant for the widget, readable or not, from other hashes', () => {
    expect(['#scenario=%7Bbad', '#x&scenario=', 'scenario=1'].map(hasScenarioPart)).toEqual([true, true, true]);
    expect(['', '#', '#intro', '#scenarios=1'].map(hasScenarioPart)).toEqual([false, false, false, false]);
  });
});
