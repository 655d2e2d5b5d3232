import { runInference, type InferenceResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import { served } from './support/serving.ts';

/** The interactive service's first-token bound (MLPerf Inference's Llama 2 70B server scenario), in seconds. */
const INTERACTIVE_TTFT_SECONDS = 2;
/** Its bound on each next token, in seconds. */
const INTERACTIVE_TOKEN_SECONDS = 0.2;

describe('a serving question that bounds the time per token alone keeps the interactive first-token bound', () => {
  it.each([
    ['serve llama3-70b on h100 at 30 ms per token', 0.03],
    ['serve llama3-70b on 8 h100 at 40 tokens/s per user', 1 / 40],
    ['serve llama3-70b on 8 h100 with tpot under 50 ms', 0.05],
  ])('"%s": each token within %s s as asked, the first within 2 s, said among the assumptions', (question, maxTokenSeconds) => {
    const q = parse(question);
    expect(q.stated.maxFirstTokenSeconds).toBeUndefined();
    expect(q.parameters).toMatchObject({ maxTokenSeconds, maxFirstTokenSeconds: INTERACTIVE_TTFT_SECONDS });
    const said = q.defaults.find((d) => d.field === 'maxFirstTokenSeconds')?.text ?? '';
    expect(said).toMatch(/^first token within 2 s beside the [\d.]+ ms per token asked \(an interactive service, as MLPerf Inference's Llama 2 70B server scenario bounds it; /);
    expect(said).toMatch(/say e\.g\. "ttft under 5 s" for another first-token bound, or "offline" for throughput alone\)$/);
  });

  it('the plan is held to both bounds, and the headline names both', () => {
    const { a, data } = served('serve llama3-70b on 8 h100 at 30 ms per token');
    expect(data).toEqual(runInference({
      model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, precision: 'bf16', promptTokens: 2048, outputTokens: 512,
      maxDecodeSecondsPerToken: 0.03, maxPrefillSeconds: INTERACTIVE_TTFT_SECONDS, gpus: 8, batching: 'continuous',
    }));
    expect(data.best!.decodeStepSeconds).toBeLessThanOrEqual(0.03);
    expect(data.best!.prefillSeconds).toBeLessThanOrEqual(INTERACTIVE_TTFT_SECONDS);
    expect(a.headline).toMatch(/\(≤ 30\.0 ms per token, ≤ 2\.00 s to the first token\)$/);
  });

  it('at a request rate the assumed first-token bound holds the wait for a slot too, and says so', () => {
    const said = parse('serve llama3-70b at 10 qps at 50 ms per token').defaults.find((d) => d.field === 'maxFirstTokenSeconds')?.text;
    expect(said).toMatch(/^first token within 2 s, the wait for a slot included, beside the 50\.0 ms per token asked/);
  });

  it.each([
    ['serve llama3-70b on 8 h100 with ttft under 5 s and 30 ms per token', 5],
    ['serve llama3-70b on 8 h100 with ttft under 500 ms and 30 ms per token', 0.5],
  ])('"%s": a first-token bound asked is the one held (%s s), no default beside it', (question, maxFirstTokenSeconds) => {
    const q = parse(question);
    expect(q.parameters.maxFirstTokenSeconds).toBe(maxFirstTokenSeconds);
    expect(q.defaults.map((d) => d.field)).not.toContain('maxFirstTokenSeconds');
  });

  it('"offline" takes no first-token bound, with a per-token bound or without', () => {
    for (const question of ['offline batch inference of llama3-70b on 8 h100 at 200 ms per token', 'offline batch inference of llama3-70b on 8 h100']) {
      expect(parse(question).parameters.maxFirstTokenSeconds).toBeUndefined();
    }
  });
});

describe('where only the assumed first-token bound is missed, the answer says it was assumed and how to lift it', () => {
  const question = 'serve llama3-70b on 8 h100 at 50 ms per token with 100k prompts';

  it('the closest plan meets the per-token bound asked; the note says the 2 s was not asked and names a bound the closest meets', () => {
    const a = ask(question, { publicUrl: null });
    expect(a).toMatchObject({ kind: 'answer', ok: false });
    const closest = (a.data as Extract<InferenceResponseJson, { ok: true }>).closest!.point;
    expect(closest.decodeStepSeconds).toBeLessThanOrEqual(0.05);
    expect(closest.prefillSeconds).toBeGreaterThan(INTERACTIVE_TTFT_SECONDS);
    const note = a.notes[0] ?? '';
    expect(note).toMatch(/^The 2\.00 s bound on the first token is an interactive service's, assumed, not asked; the closest plan meets the 50\.0 ms per token asked: /);
    const seconds = Number(/"ttft under (\d+) s"/.exec(note)?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(closest.prefillSeconds);
    expect(seconds).toBeLessThan(closest.prefillSeconds + 1);
  });

  it('the bound it suggests, asked back, is planned', () => {
    const suggestion = /"(ttft under \d+ s)"/.exec(ask(question, { publicUrl: null }).notes[0] ?? '')?.[1];
    expect(suggestion).toBeDefined();
    expect(ask(`${question}, ${suggestion}`, { publicUrl: null })).toMatchObject({ kind: 'answer', ok: true });
  });

  it('a first-token bound the question asked is not called assumed when missed', () => {
    const a = ask('serve llama3-70b on 8 h100 at 50 ms per token with 100k prompts, ttft under 2 s', { publicUrl: null });
    expect(a.ok).toBe(false);
    expect(a.notes.join(' ')).not.toMatch(/assumed, not asked/);
  });
});

describe('a serving question that bounds the first token alone keeps the interactive bound per token', () => {
  it.each([
    ['serve llama3-70b on 8 h100 with ttft under 1 s', 1],
    ['serve llama3-70b on 8 h100, first token within 500 ms', 0.5],
  ])('"%s": the first token within %s s as asked, each next within 200 ms, said among the assumptions', (question, maxFirstTokenSeconds) => {
    const q = parse(question);
    expect(q.stated.maxTokenSeconds).toBeUndefined();
    expect(q.parameters).toMatchObject({ maxFirstTokenSeconds, maxTokenSeconds: INTERACTIVE_TOKEN_SECONDS });
    const said = q.defaults.find((d) => d.field === 'maxTokenSeconds')?.text ?? '';
    expect(said).toMatch(/^each token after the first within 200 ms beside the [\d.]+ m?s to the first token asked \(an interactive service, /);
  });

  it('the plan is held to both: each token within 200 ms', () => {
    const { data } = served('serve llama3-70b on 8 h100 with ttft under 1 s');
    expect(data.best!.decodeStepSeconds).toBeLessThanOrEqual(INTERACTIVE_TOKEN_SECONDS);
    expect(data.best!.prefillSeconds).toBeLessThanOrEqual(1);
  });

  it('"offline" takes no bound per token', () => {
    expect(parse('offline batch inference of llama3-70b on 8 h100 with ttft under 1 s').parameters.maxTokenSeconds).toBeUndefined();
  });

  describe('where only the assumed bound per token is missed (Llama 3.1 405B on 32 V100 held to TP 4)', () => {
    const question = 'serve llama3.1-405b on 32 v100 with tp 4 and ttft under 60 s';
    it('the note says the 200 ms was not asked and names a bound the closest plan meets, which, asked back, is planned', () => {
      const a = ask(question, { publicUrl: null });
      expect(a).toMatchObject({ kind: 'answer', ok: false });
      const closest = (a.data as Extract<InferenceResponseJson, { ok: true }>).closest!.point;
      expect(closest.prefillSeconds).toBeLessThanOrEqual(60);
      expect(closest.decodeStepSeconds).toBeGreaterThan(INTERACTIVE_TOKEN_SECONDS);
      const note = a.notes.find((n) => n.includes('assumed, not asked')) ?? '';
      expect(note).toMatch(/^The 200 ms bound per token is an interactive service's, assumed, not asked; the closest plan meets the 60\.0 s to the first token asked: /);
      const suggestion = /"(\d+ ms per token)"/.exec(note)?.[1];
      expect(Number(suggestion?.split(' ')[0]) / 1000).toBeGreaterThanOrEqual(closest.decodeStepSeconds);
      expect(ask(`${question}, ${suggestion}`, { publicUrl: null })).toMatchObject({ kind: 'answer', ok: true });
    });
  });
});
