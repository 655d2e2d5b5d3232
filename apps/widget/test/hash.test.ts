import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { deadlineFromHash, scenarioFromHash, scenarioToHash, widgetHash } from '../src/hash.ts';

describe('scenario URL hash', () => {
  it('is "#scenario=" followed by the URI-encoded scenario JSON (the format chat links use)', () => {
    const custom = { model: { layers: 2, hiddenSize: 64, attentionHeads: 4, vocabSize: 100, seqLength: 16, name: 'a&b #1' }, cluster: { gpu: 'h100-sxm', nodes: 1 }, training: { globalBatchSize: 8 } };
    expect(scenarioToHash(custom)).toBe(`#scenario=${encodeURIComponent(JSON.stringify(custom))}`);
    expect(scenarioToHash(CONTRACT_EXAMPLE).startsWith('#scenario=%7B%22model%22%3A%22gpt3-175b%22')).toBe(true);
  });

  it('round-trips a scenario, including names with & and #', () => {
    const s = { ...CONTRACT_EXAMPLE, model: { layers: 2, hiddenSize: 64, attentionHeads: 4, vocabSize: 100, seqLength: 16, name: 'x&y=#z' } };
    expect(scenarioFromHash(scenarioToHash(s))).toEqual(s);
    expect(scenarioFromHash(scenarioToHash(CONTRACT_EXAMPLE).slice(1))).toEqual(CONTRACT_EXAMPLE);
  });

  it('reads the scenario part among other hash parts', () => {
    expect(scenarioFromHash(`#section-2&${scenarioToHash({ a: 1 }).slice(1)}&x=y`)).toEqual({ a: 1 });
  });

  it.each(['', '#', '#intro', '#scenario=', '#scenario=%7Bnot-json', '#scenario=%E0%A4%A'])('answers undefined for %j without throwing', (hash) => {
    expect(scenarioFromHash(hash)).toBeUndefined();
  });
});

describe("the widget's link", () => {
  it('is the scenario hash and the deadline, which the scenario contract has no field for', () => {
    expect(widgetHash(CONTRACT_EXAMPLE, 45)).toBe(`${scenarioToHash(CONTRACT_EXAMPLE)}&days=45`);
    expect(scenarioFromHash(widgetHash(CONTRACT_EXAMPLE, 45))).toEqual(CONTRACT_EXAMPLE);
    expect(deadlineFromHash(widgetHash(CONTRACT_EXAMPLE, 0.5))).toBe('0.5');
  });

  it('says a blank deadline, and tells it from a link without one (another tool built it)', () => {
    expect(deadlineFromHash(widgetHash(CONTRACT_EXAMPLE, undefined))).toBe('');
    expect(deadlineFromHash(scenarioToHash(CONTRACT_EXAMPLE))).toBeUndefined();
    expect(deadlineFromHash('#days=%E0%A4%A')).toBeUndefined();
  });
});
