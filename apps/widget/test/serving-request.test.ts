import { MODEL_IDS } from '@trainplan/presets';
import { inferenceRequestJsonSchema, runInference } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { inferenceRequestFromFields, servingFieldForPath } from '../src/serving/request-from-fields.ts';
import { SERVING_DEFAULTS, SERVING_FIELDS, SERVING_FIELD_NAMES } from '../src/serving/serving-fields.ts';
import { FIELDS } from '../src/form/fields.ts';

const request = (values: Record<string, string> = {}) => {
  const r = inferenceRequestFromFields({ ...SERVING_DEFAULTS, ...values });
  if (!r.ok) throw new Error(`expected a request: ${JSON.stringify(r.issues)}`);
  return r.request;
};
const spec = (name: string) => SERVING_FIELDS.find((f) => f.name === name)!;
const schema = (property: string) => inferenceRequestJsonSchema.properties![property]!;

describe('the serving form → an inference request', () => {
  it("asks for the bare element's example with continuous batching (the protocol's default is static), and runInference takes it", () => {
    const r = request();
    expect(r).toEqual({ model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous' });
    expect(runInference(r).ok).toBe(true);
  });

  it('leaves blank optional fields out, so the protocol\'s defaults apply (precision by GPU, no GPU count, no bounds, whole prompts)', () => {
    const r = request({ precision: '', 'kv-cache': '', price: '', gpus: ' ', rate: ' ', 'max-token-ms': '', 'max-ttft': '', 'prefill-chunk': '', 'shared-prefix': '', 'gpu-memory': '' });
    for (const key of ['precision', 'kvCachePrecision', 'pricePerGpuHour', 'gpus', 'requestsPerSecond', 'maxDecodeSecondsPerToken', 'maxPrefillSeconds', 'prefillChunkTokens', 'sharedPrefixTokens', 'gpuMemoryUtilization']) {
      expect(r).not.toHaveProperty(key);
    }
  });

  it('a prefill chunk goes to the request; runInference prices it on every point, and refuses it beside the field with static batching', () => {
    const r = request({ 'prefill-chunk': '512' });
    expect(r.prefillChunkTokens).toBe(512);
    const a = runInference(r);
    if (!a.ok) throw new Error(a.message);
    expect(a.best?.prefillChunkTokens).toBe(512);
    const stat = runInference(request({ 'prefill-chunk': '512', batching: 'static' }));
    if (stat.ok) throw new Error('expected static batching to refuse a chunk');
    expect(stat.issues.map((i) => servingFieldForPath(i.path))).toEqual(['prefill-chunk']);
  });

  it('a shared prefix and a memory fraction go to the request; runInference refuses each beside its field', () => {
    const r = request({ 'shared-prefix': '1024', 'gpu-memory': '0.9' });
    expect(r).toMatchObject({ sharedPrefixTokens: 1024, gpuMemoryUtilization: 0.9 });
    const a = runInference(r);
    if (!a.ok) throw new Error(a.message);
    expect(a.best?.sharedPrefixTokens).toBe(1024);
    expect(a.best?.usableBytesPerGpu).toBeCloseTo(0.9 * a.best!.capacityBytes, 0);
    const stat = runInference(request({ 'shared-prefix': '1024', batching: 'static' }));
    if (stat.ok) throw new Error('expected static batching to refuse a shared prefix');
    expect(stat.issues.map((i) => servingFieldForPath(i.path))).toEqual(['shared-prefix']);
    const long = runInference(request({ 'shared-prefix': '4096' }));
    if (long.ok) throw new Error('expected a prefix longer than the prompt to be refused');
    expect(long.issues.map((i) => servingFieldForPath(i.path))).toEqual(['shared-prefix']);
  });

  it('a KV cache format goes to the request as kvCachePrecision: FP8 holds nearly twice the sequences; a BF16 cache on a V100 is refused beside the field', () => {
    const r = request({ 'kv-cache': 'fp8' });
    expect(r.kvCachePrecision).toBe('fp8');
    const [fp8, plain] = [runInference(r), runInference(request())];
    if (!fp8.ok || !plain.ok) throw new Error('expected answers');
    const widest = (a: typeof fp8) => a.byShape.find((s) => s.tensor === 8 && s.pipeline === 1);
    const [w8, w16] = [widest(fp8), widest(plain)];
    if (!w8?.ok || !w16?.ok) throw new Error('TP 8 serves Llama 3 70B');
    // Each sequence's cache halves; an iteration's activations, counted in memory since 2026-11-28, do not: nearly twice.
    expect(w8.largestBatch.maxBatch).toBeGreaterThan(1.9 * w16.largestBatch.maxBatch);
    expect(w8.largestBatch.maxBatch).toBeLessThanOrEqual(2 * w16.largestBatch.maxBatch + 1);
    expect(spec('kv-cache').options?.map(([value]) => value).sort()).toEqual(['', ...schema('kvCachePrecision').enum as string[]].sort());
    const v100 = runInference(request({ model: 'llama2-7b', gpu: 'v100-32gb', precision: 'fp16', 'kv-cache': 'bf16' }));
    if (v100.ok) throw new Error('expected a BF16 cache on a V100 to be refused');
    expect(v100.issues.map((i) => servingFieldForPath(i.path))).toEqual(['kv-cache']);
  });

  it('a request rate goes to the request as requestsPerSecond; runInference gives every point its load, and refuses the rate beside the field with static batching', () => {
    const r = request({ rate: '20.5', 'max-token-ms': '50' });
    expect(r.requestsPerSecond).toBe(20.5);
    const a = runInference(r);
    if (!a.ok) throw new Error(a.message);
    expect(a.best?.load?.requestsPerSecond).toBe(20.5);
    for (const p of a.frontier) expect(p.load?.requestsPerSecond).toBe(20.5);
    const stat = runInference(request({ rate: '20', batching: 'static' }));
    if (stat.ok) throw new Error('expected static batching to refuse a rate');
    expect(stat.issues.map((i) => ({ field: servingFieldForPath(i.path), message: i.message })))
      .toEqual([{ field: 'rate', message: expect.stringMatching(/^a request rate is served by continuous batching/) }]);
  });

  it('sends the bound per token typed in ms in seconds (50 ms is 0.05 s) and the first-token bound in seconds', () => {
    const r = request({ 'max-token-ms': '50', 'max-ttft': '2', gpus: '16', precision: 'fp8', batching: 'static' });
    expect(r.maxDecodeSecondsPerToken).toBeCloseTo(0.05, 12);
    expect(r.maxPrefillSeconds).toBe(2);
    expect(r).toMatchObject({ gpus: 16, precision: 'fp8', batching: 'static' });
    expect(runInference(r).ok).toBe(true);
  });

  it('reads prompt, output, chunk and prefix lengths as the CLI does: 2k is 2 × 1,024 = 2,048 tokens, 1M is 1,024² = 1,048,576', () => {
    const r = request({ prompt: '2k', output: '0.5k', batching: 'continuous', 'prefill-chunk': '1k', 'shared-prefix': '1k' });
    expect(r).toMatchObject({ promptTokens: 2048, outputTokens: 512, prefillChunkTokens: 1024, sharedPrefixTokens: 1024 });
    expect(request({ prompt: '1M' }).promptTokens).toBe(1_048_576);
  });

  it.each([
    ['prompt', '0', 'at least 1'], ['prompt', '', 'required'], ['output', 'abc', 'not a number'], ['output', '1.5', 'whole number'],
    ['gpus', '0', 'at least 1'], ['prefill-chunk', '0', 'at least 1'], ['shared-prefix', '0', 'at least 1'], ['gpu-memory', '1.5', 'at most 1'],
    ['gpu-memory', '0', 'more than 0'], ['max-token-ms', '0', 'more than 0, got 0'], ['max-ttft', '-1', 'more than 0'],
    ['rate', '0', 'more than 0, got 0'], ['rate', '-5', 'more than 0'], ['rate', 'many', 'not a number'], ['rate', '1000001', 'at most 1,000,000, got 1000001'],
    ['batching', 'dynamic', 'unknown batching'], ['gpu', 'tpu-v5', 'unknown gpu'], ['model', 'gpt-5', 'unknown model'],
  ])('names the field when %s is %j', (field, value, message) => {
    const r = inferenceRequestFromFields({ ...SERVING_DEFAULTS, [field]: value });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toEqual([{ field, message: expect.stringContaining(message) }]);
  });

  it("checks the request schema's bounds in each field's own unit (ms per token: the schema's seconds × 1000)", () => {
    expect(spec('prompt').max).toBe(schema('promptTokens').maximum);
    expect(spec('output').max).toBe(schema('outputTokens').maximum);
    expect(spec('gpus').max).toBe(schema('gpus').maximum);
    expect(spec('prefill-chunk').max).toBe(schema('prefillChunkTokens').maximum);
    expect(spec('shared-prefix').max).toBe(schema('sharedPrefixTokens').maximum);
    expect(spec('gpu-memory').max).toBe(schema('gpuMemoryUtilization').maximum);
    expect(spec('rate').max).toBe(schema('requestsPerSecond').maximum);
    expect(spec('rate').above).toBe(schema('requestsPerSecond').exclusiveMinimum);
    expect(spec('price').max).toBe(schema('pricePerGpuHour').maximum);
    expect(spec('price').above).toBe(schema('pricePerGpuHour').exclusiveMinimum);
    expect(spec('max-ttft').max).toBe(schema('maxPrefillSeconds').maximum);
    expect(spec('max-token-ms').max).toBe(schema('maxDecodeSecondsPerToken').maximum! * 1000);
    // One past the bound is refused beside the field, in its unit, before the protocol sees it.
    const over = inferenceRequestFromFields({ ...SERVING_DEFAULTS, 'max-token-ms': String(spec('max-token-ms').max! + 1) });
    expect(!over.ok && over.issues[0]?.message).toMatch(/^at most 3,600,000, got/);
  });
});

describe("the protocol's issues, shown beside the serving form's fields", () => {
  it.each([
    ['precision', { precision: 'fp8', cluster: { gpu: 'a100-80gb' } }],
    ['gpu', { cluster: { gpu: 'tpu-v5' } }],
    ['model', { model: 'gpt-5' }],
    ['prompt', { promptTokens: 0 }],
    ['output', { outputTokens: 0 }],
    ['gpus', { gpus: 0 }],
    ['rate', { requestsPerSecond: 0 }],
    ['rate', { requestsPerSecond: 2e6 }],
    ['max-token-ms', { maxDecodeSecondsPerToken: 0 }],
    ['max-ttft', { maxPrefillSeconds: 0 }],
    ['batching', { batching: 'dynamic' }],
  ])('runInference\'s issue for a bad %s lands on that field', (field, change) => {
    const a = runInference({ ...request(), ...change });
    if (a.ok) throw new Error('expected an invalid answer');
    expect(a.issues.length).toBeGreaterThan(0);
    for (const issue of a.issues) expect(servingFieldForPath(issue.path)).toBe(field);
  });

  it("gives '' for a path no field shows (the status line says it)", () => {
    expect(servingFieldForPath('cluster.network')).toBe('');
    expect(SERVING_FIELD_NAMES).not.toContain('');
  });
});

/** Llama 3 70B's shape as a reader types it (Meta's config.json: 80 layers, 8,192 wide, 64 heads, 8 KV heads, FFN 28,672, 128,256 tokens). */
const LLAMA_SHAPE = {
  model: 'custom', layers: '80', 'hidden-size': '8192', heads: '64', 'kv-heads': '8', ffn: '28672', vocab: '128256', gated: 'true', seq: '8192',
};
const answer = (values: Record<string, string>) => {
  const a = runInference(request(values));
  if (!a.ok) throw new Error(a.message);
  return a;
};

describe('a custom model shape in the serving form', () => {
  it('sends the shape typed, as the model object of the request schema', () => {
    expect(request(LLAMA_SHAPE).model).toEqual({
      layers: 80, hiddenSize: 8192, attentionHeads: 64, kvHeads: 8, ffnHiddenSize: 28672, vocabSize: 128256, seqLength: 8192, gatedMlp: true, name: 'custom',
    });
  });

  it("leaves a blank KV heads and FFN size to the protocol's defaults, and a blank sequence length is prompt + output (2,048 + 512)", () => {
    const r = request({ ...LLAMA_SHAPE, 'kv-heads': '', ffn: ' ', seq: '', gated: 'false' });
    expect(r.model).toEqual({ layers: 80, hiddenSize: 8192, attentionHeads: 64, vocabSize: 128256, seqLength: 2560, gatedMlp: false, name: 'custom' });
    // The context fits the sequence length, so the protocol has no context warning to give.
    expect(answer({ ...LLAMA_SHAPE, seq: '' }).warnings?.join(' ') ?? '').not.toMatch(/sequence length/);
    // A length the reader states shorter than the context is warned of: the form's shapes take learned positions (the
    // contract's default, as the README says), a table with none past the length, which the warning names.
    expect(answer({ ...LLAMA_SHAPE, seq: '2048' }).warnings?.join(' ')).toMatch(/longer than the custom model's 2,048 learned positions: as published it has none past them/);
  });

  it('reaches the answer: at TP 8 · PP 1, 8 KV heads hold 1/8 of the KV cache per sequence that 64 (blank: one per head) hold', () => {
    const kvPerSequence = (values: Record<string, string>) => {
      const shape = answer(values).byShape.find((s) => s.tensor === 8 && s.pipeline === 1);
      if (!shape?.ok) throw new Error('expected TP 8 · PP 1 to serve the shape');
      return shape.largestBatch.kvCacheBytesPerGpu / shape.largestBatch.batch;
    };
    expect(kvPerSequence({ ...LLAMA_SHAPE, 'kv-heads': '' }) / kvPerSequence(LLAMA_SHAPE)).toBeCloseTo(8, 9);
  });

  it.each([
    ['layers', '', 'required'], ['layers', '0', 'at least 1'], ['hidden-size', 'abc', 'not a number'], ['heads', '1.5', 'whole number'],
    ['kv-heads', '0', 'at least 1'], ['ffn', '-4', 'at least 1'], ['vocab', '', 'required'], ['seq', '0', 'at least 1'],
  ])('names the field when %s is %j', (field, value, message) => {
    const r = inferenceRequestFromFields({ ...SERVING_DEFAULTS, ...LLAMA_SHAPE, [field]: value });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toEqual([{ field, message: expect.stringContaining(message) }]);
  });

  it.each([
    // 8,192 / 60 heads is no whole head size (8 KV heads left out: they would not divide 60 either).
    ['hidden-size', { heads: '60', 'kv-heads': '' }, 'must be a multiple of attentionHeads (60)'],
    ['kv-heads', { 'kv-heads': '6' }, 'must divide attentionHeads (64)'],
  ])("runInference's refusal of the shape lands on %s", (field, change, message) => {
    const a = runInference(request({ ...LLAMA_SHAPE, ...change }));
    if (a.ok) throw new Error('expected an invalid answer');
    expect(a.issues.map((i) => ({ field: servingFieldForPath(i.path), message: i.message }))).toEqual([{ field, message: expect.stringContaining(message) }]);
  });

  it.each([
    ['model.layers', 'layers'], ['model.hiddenSize', 'hidden-size'], ['model.attentionHeads', 'heads'], ['model.kvHeads', 'kv-heads'],
    ['model.ffnHiddenSize', 'ffn'], ['model.vocabSize', 'vocab'], ['model.seqLength', 'seq'],
  ])('shows the protocol\'s issue at %s beside %s', (path, field) => {
    expect(servingFieldForPath(path)).toBe(field);
  });

  it("ignores the shape's fields under a preset, even unreadable ones: the preset's request is unchanged", () => {
    const r = request({ ...LLAMA_SHAPE, model: 'llama3-70b', layers: '', heads: 'abc', seq: '0' });
    expect(r).toEqual({ model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous' });
  });

  it("offers the estimator's shape fields (the same specs), each shown only with the custom shape, and its \"custom shape…\" option", () => {
    const custom = SERVING_FIELDS.filter((f) => f.customOnly);
    expect(custom.map((f) => f.name)).toEqual(['layers', 'hidden-size', 'heads', 'kv-heads', 'ffn', 'vocab', 'gated', 'seq']);
    for (const f of custom.filter((c) => c.name !== 'seq')) expect(f).toBe(FIELDS.find((e) => e.name === f.name));
    expect(spec('model').options?.at(-1)).toEqual(['custom', 'custom shape…']);
    expect(FIELDS.find((f) => f.name === 'model')?.options?.at(-1)).toEqual(['custom', 'custom shape…']);
  });
});

/** A Llama 3.2 1B draft for the bare element's Llama 3 70B, as the reader picks it. */
const DRAFT = { 'draft-model': 'llama3.2-1b' };
/** The request schema's own bounds of speculative's fields. */
const speculativeSchema = (property: string) => schema('speculative').properties![property]!;

describe('speculative decoding in the serving form', () => {
  it('a draft model sends speculative as the draft, γ and α typed; runInference then speculates on every point, one pipeline stage each', () => {
    const r = request({ ...DRAFT, 'draft-tokens': '6', acceptance: '0.8' });
    expect(r).toEqual({ ...request(), speculative: { draftModel: 'llama3.2-1b', draftTokens: 6, acceptanceRate: 0.8 } });
    const a = answer({ ...DRAFT, 'draft-tokens': '6', acceptance: '0.8' });
    expect(a.frontier.length).toBeGreaterThan(0);
    for (const p of [a.best!, ...a.frontier]) expect(p.speculation).toMatchObject({ draftTokens: 6, acceptanceRate: 0.8 });
    // The form gives no pipeline degrees, and the protocol tries only PP 1 when speculating.
    expect(a.byShape.map((s) => s.pipeline)).toEqual(a.byShape.map(() => 1));
  });

  it('a draft model alone drafts 4 tokens accepted with chance 0.7 (the fields\' starting values)', () => {
    expect(SERVING_DEFAULTS).toMatchObject({ 'draft-model': '', 'draft-tokens': '4', acceptance: '0.7' });
    expect(request(DRAFT).speculative).toEqual({ draftModel: 'llama3.2-1b', draftTokens: 4, acceptanceRate: 0.7 });
  });

  it.each([
    ['γ and α filled', { 'draft-tokens': '8', acceptance: '0.9' }],
    ['γ and α unreadable', { 'draft-tokens': 'abc', acceptance: '2' }],
    ['γ and α blank', { 'draft-tokens': '', acceptance: ' ' }],
    ['a blank draft given as spaces', { 'draft-model': ' ', 'draft-tokens': '0' }],
  ])('a blank draft model sends no speculation at all, %s: the request is the bare one', (_, values) => {
    expect(request({ 'draft-model': '', ...values })).toEqual(request());
  });

  it.each([
    ['draft-tokens', '0', 'at least 1, got 0'], ['draft-tokens', '17', 'at most 16, got 17'], ['draft-tokens', '2.5', 'a whole number'],
    ['draft-tokens', '', 'required'], ['acceptance', '0', 'more than 0, got 0'], ['acceptance', '1.2', 'at most 1, got 1.2'],
    ['acceptance', '-0.5', 'more than 0'], ['acceptance', 'high', 'not a number: "high"'], ['acceptance', '', 'required'],
    ['draft-model', 'llama-1b', 'unknown draft model "llama-1b"'], ['draft-model', 'custom', 'unknown draft model "custom"'],
  ])('with a draft model, names the field when %s is %j', (field, value, message) => {
    const r = inferenceRequestFromFields({ ...SERVING_DEFAULTS, ...DRAFT, [field]: value });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toEqual([{ field, message: expect.stringContaining(message) }]);
  });

  it("checks the request schema's bounds of γ (1–16) and α (above 0, at most 1)", () => {
    expect([spec('draft-tokens').min, spec('draft-tokens').max]).toEqual([speculativeSchema('draftTokens').minimum, speculativeSchema('draftTokens').maximum]);
    expect([spec('draft-tokens').min, spec('draft-tokens').max]).toEqual([1, 16]);
    expect([spec('acceptance').above, spec('acceptance').max]).toEqual([speculativeSchema('acceptanceRate').exclusiveMinimum, speculativeSchema('acceptanceRate').maximum]);
    expect([spec('acceptance').above, spec('acceptance').max]).toEqual([0, 1]);
  });

  it('offers "none" and then every model preset as a draft (no custom shape), γ and α shown only with one', () => {
    expect(spec('draft-model').options).toEqual([['', 'none'], ...MODEL_IDS.map((id) => [id, id])]);
    expect(MODEL_IDS).toContain('llama3.2-1b');
    expect(SERVING_FIELDS.filter((f) => f.shownWith === 'draft-model').map((f) => f.name)).toEqual(['draft-tokens', 'acceptance']);
  });
});

describe("the protocol's speculative issues, shown beside the serving form's fields", () => {
  const speculative = { draftModel: 'llama3.2-1b', draftTokens: 4, acceptanceRate: 0.7 };
  it.each([
    ['draft-model', { draftModel: 'llama-1b' }, /^unknown model "llama-1b" \(did you mean/],
    ['draft-tokens', { draftTokens: 17 }, /^expected an integer ≤ 16, got 17$/],
    ['draft-tokens', { draftTokens: undefined }, /missing required field/],
    ['acceptance', { acceptanceRate: 0 }, /^expected a number > 0, got 0$/],
    ['acceptance', { acceptanceRate: undefined }, /missing required field/],
  ])('runInference\'s issue for %s (%j) lands on that field', (field, change, message) => {
    const a = runInference({ ...request(), speculative: { ...speculative, ...change } });
    if (a.ok) throw new Error('expected an invalid answer');
    expect(a.issues.map((i) => ({ field: servingFieldForPath(i.path), message: i.message }))).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  it.each([
    ['speculative.draftModel', 'draft-model'], ['speculative.draftTokens', 'draft-tokens'], ['speculative.acceptanceRate', 'acceptance'], ['speculative', 'draft-model'],
  ])("shows the protocol's issue at %s beside %s", (path, field) => {
    expect(servingFieldForPath(path)).toBe(field);
  });
});
