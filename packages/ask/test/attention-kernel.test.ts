import { describe, expect, it } from 'vitest';
import { runEstimate, type ScenarioInput, type EstimateJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/**
 * The attention kernel and dropout stated are planned (lexicon/attention-kernel.ts, dropout.ts), as the API models them.
 * QA: "without flash attention" was said not modelled while the planner models training.attentionKernel "unfused", and
 * "with dropout" said not modelled while it models training.dropout.
 */
const BASE = 'how long to train llama3-70b on 2T tokens on 64 H100 nodes with tp 8 pp 4';

/** The API's estimate of the bot's own scenario for BASE with `training` fields added. */
function apiWith(training: Record<string, unknown>) {
  const own = ask(BASE, { publicUrl: null }).scenario as ScenarioInput;
  const result = runEstimate({ ...own, training: { ...own.training, ...training } }) as EstimateJson;
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe('the attention kernel stated is planned', () => {
  it.each([
    ['without flash attention', 'unfused'], ['no flash attention', 'unfused'], ['no flash-attn', 'unfused'], ['w/o FA2', 'unfused'],
    ['with unfused attention', 'unfused'], ['eager attention', 'unfused'], ['with flash attention', 'flash'], ['using flash attention 2', 'flash'],
  ])('"%s" is the %s kernel, nothing said not read', (phrase, kernel) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.stated).toMatchObject({ attentionKernel: kernel, tensor: 8, pipeline: 4 });
    expect(q.notRead ?? []).toEqual([]);
  });

  it("unfused: the answer's step is the API's with attentionKernel \"unfused\", slower than flash; the configuration says it", () => {
    const a = ask(`${BASE} without flash attention`, { publicUrl: null });
    expect(a.scenario?.training.attentionKernel).toBe('unfused');
    expect(a.stepTimeSeconds).toBe(apiWith({ attentionKernel: 'unfused' }).stepTimeSeconds);
    expect(a.stepTimeSeconds).toBeGreaterThan(ask(`${BASE} with flash attention`, { publicUrl: null }).stepTimeSeconds ?? Infinity);
    expect(a.configuration).toContain(' · unfused attention · ');
  });

  it('flash on a V100, which cannot run it: the protocol\'s refusal is said, never the unfused kernel planned unsaid', () => {
    const a = ask('how long to train llama3-8b on 1T tokens on 8 V100 nodes with tp 8 with flash attention', { publicUrl: null });
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/cannot run FlashAttention/);
  });

  it('a search plans it: its plan has the unfused kernel', () => {
    const a = ask('how long to train llama3-8b on 1T tokens on 4 H100 nodes without flash attention', { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.scenario?.training.attentionKernel).toBe('unfused');
  });
});

describe('dropout stated is planned', () => {
  it.each([
    ['with dropout', true], ['dropout 0.1', true], ['with attention dropout', true], ['without dropout', false], ['dropout=0', false], ['no dropout', false],
  ])('"%s" is dropout %s', (phrase, dropout) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.stated.dropout).toBe(dropout);
    expect(q.notRead ?? []).toEqual([]);
  });

  it("with dropout: the answer's memory is the API's with dropout on Llama 3 (trained without), above the plan without", () => {
    const a = ask(`${BASE} with dropout`, { publicUrl: null });
    expect(a.scenario?.training.dropout).toBe(true);
    expect(a.memoryPerGpuBytes).toBe(apiWith({ dropout: true }).memory.totalBytes);
    expect(a.memoryPerGpuBytes).toBeGreaterThan(ask(BASE, { publicUrl: null }).memoryPerGpuBytes ?? Infinity);
  });

  it('"no dropout" on a model sized in GPT style (trained with it) turns its own off', () => {
    const a = ask('how long to train a 30b model on 1T tokens on 16 h100 nodes with tp 8 pp 1 no dropout', { publicUrl: null });
    expect(a.scenario?.training.dropout).toBe(false);
  });
});
