import { CONTRACT_EXAMPLE, validateScenario } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { formatCountExact } from '@trainplan/units';
import { DEFAULT_VALUES, type FieldValues } from '../src/form/fields.ts';
import { fieldsFromScenario, scenarioFromFields } from '../src/form/scenario-from-fields.ts';

describe('scenarioFromFields', () => {
  it("turns the default fields into the contract's example scenario, with the token budget", () => {
    const r = scenarioFromFields(DEFAULT_VALUES);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const { tokens, ...training } = r.scenario.training;
    expect({ ...r.scenario, training, cluster: { ...r.scenario.cluster } }).toEqual({ ...CONTRACT_EXAMPLE, cluster: { gpu: 'a100-80gb', nodes: 128 } });
    expect(tokens).toBe(300e9);
    expect(r.budget).toEqual({ tokens: 300e9, deadlineDays: 30 });
    expect(validateScenario(r.scenario).ok).toBe(true);
  });

  it.each([
    ['tp', '0', 'at least 1'], ['tp', 'abc', 'not a number'], ['tp', '2.5', 'whole number'], ['nodes', '', 'required'],
    ['gbs', '2000000000', 'at most'], ['tokens', '3 parsecs', 'not a count'], ['tokens', '1.5', 'a whole number, got 1.5'], ['gpu', 'tpu-v5', 'unknown gpu'], ['days', '-1', 'at least'],
  ])('names the field when %s is %j', (field, value, message) => {
    const r = scenarioFromFields({ ...DEFAULT_VALUES, [field]: value });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toEqual([{ field, message: expect.stringContaining(message) }]);
  });

  it.each([['nodes', '0x10'], ['nodes', '0b101'], ['tp', '0o10'], ['days', '0x1e']])('refuses %s written %j (not decimal notation), instead of reading it as another number', (field, value) => {
    const r = scenarioFromFields({ ...DEFAULT_VALUES, [field]: value });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toEqual([{ field, message: `not a number: "${value}"` }]);
  });

  it('states the token budget\'s bounds as counts, not as 1000000000000000', () => {
    const r = scenarioFromFields({ ...DEFAULT_VALUES, tokens: '1e30' });
    expect(!r.ok && r.issues).toEqual([{ field: 'tokens', message: 'at most 1000T, got 1e30' }]);
  });

  it('groups the other bounds by thousands as every figure it shows (QA: "at most 10000000, got 1e30" beside the prompt), decimals kept', () => {
    const said = (field: string, value: string) => { const r = scenarioFromFields({ ...DEFAULT_VALUES, [field]: value }); return !r.ok && r.issues[0]?.message; };
    expect(said('gbs', '1e30')).toBe('at most 1,000,000,000, got 1e30');
    expect(said('tp', '64001')).toBe('at most 64,000, got 64001');
    expect(said('days', '0.001')).toBe('at least 0.01, got 0.001');
  });

  it('reads thousands separators as a reader writes a count (1,024 nodes, a batch of 1,536), but not a misplaced comma', () => {
    const r = scenarioFromFields({ ...DEFAULT_VALUES, nodes: '1,024', gbs: '1,536' });
    expect(r.ok && [r.scenario.cluster.nodes, r.scenario.training.globalBatchSize]).toEqual([1024, 1536]);
    const comma = scenarioFromFields({ ...DEFAULT_VALUES, nodes: '1,24' });
    expect(!comma.ok && comma.issues).toEqual([{ field: 'nodes', message: 'not a number: "1,24"' }]);
  });

  it('still reads decimal notation: signs, decimals, exponents and spaces around', () => {
    const r = scenarioFromFields({ ...DEFAULT_VALUES, nodes: ' 1e2 ', days: '.5', tp: '+8' });
    expect(r.ok && [r.scenario.cluster.nodes, r.budget.deadlineDays, r.scenario.parallelism?.tensor]).toEqual([100, 0.5, 8]);
  });

  it('reads a custom shape only when the model is "custom", and leaves optional fields to the contract defaults', () => {
    const r = scenarioFromFields({ ...DEFAULT_VALUES, model: 'custom', layers: '32', 'hidden-size': '4096', heads: '32', vocab: '32000', seq: '4096', gated: 'true', 'kv-heads': '8', ffn: '' });
    expect(r.ok && r.scenario.model).toEqual({ layers: 32, hiddenSize: 4096, attentionHeads: 32, vocabSize: 32000, seqLength: 4096, gatedMlp: true, kvHeads: 8, name: 'custom' });
    // Custom-shape fields are ignored (even when wrong) while a preset is chosen.
    expect(scenarioFromFields({ ...DEFAULT_VALUES, layers: 'x' }).ok).toBe(true);
  });

  // As the CLI reads --seq-length (8k = 8,192 tokens, k = 1,024 and M = 1,024 k): 8 × 1,024 = 8,192, 32 × 1,024 =
  // 32,768, 1.5 × 1,024 = 1,536, 1 × 1,024² = 1,048,576; a token budget's k stays 1,000 (its own field).
  it.each([['8k', 8192], ['8K', 8192], ['32 k', 32_768], ['1.5k', 1536], ['1M', 1_048_576], ['8192', 8192], ['8,192', 8192]])(
    'reads a sequence length of %j as %d tokens, the binary k and M of context lengths (QA: "not a number: \"8k\"")', (seq, tokens) => {
      const r = scenarioFromFields({ ...DEFAULT_VALUES, seq });
      expect(r.ok && r.scenario.training.seqLength).toBe(tokens);
    },
  );

  it.each([['8x', 'not a number: "8x"'], ['k', 'not a number: "k"'], ['0.1k', 'a whole number, got 0.1k'], ['10M', 'at most 10,000,000, got 10M']])(
    'still names a sequence length that is no length: %j', (seq, message) => {
      const r = scenarioFromFields({ ...DEFAULT_VALUES, seq });
      expect(!r.ok && r.issues).toEqual([{ field: 'seq', message }]);
    },
  );

  it('accepts token budgets with suffixes', () => {
    const r = scenarioFromFields({ ...DEFAULT_VALUES, tokens: '1.5T' });
    expect(r.ok && r.budget.tokens).toBe(1.5e12);
  });
});

describe('fieldsFromScenario', () => {
  it('gives back the fields a scenario came from', () => {
    const custom = { ...DEFAULT_VALUES, model: 'custom', layers: '4', 'hidden-size': '256', heads: '8', 'kv-heads': '', ffn: '', vocab: '1000', seq: '512', gated: 'false', tp: '2', pp: '2', vp: '2', sp: 'true', distopt: 'true', network: 'ndr-ib-8x', gpu: 'h100-sxm', tokens: '1000000000' };
    for (const values of [DEFAULT_VALUES, { ...DEFAULT_VALUES, tokens: '300000000000' }, custom] as FieldValues[]) {
      const r = scenarioFromFields(values);
      if (!r.ok) throw new Error('expected valid fields');
      const back = fieldsFromScenario(r.scenario, { ...DEFAULT_VALUES, days: values['days'] ?? '' });
      expect(scenarioFromFields(back)).toEqual(r);
    }
  });

  it("shows a link's token budget as a reader writes it (2T, 1.5T, 300B), not as 2000000000000", () => {
    const at = (tokens: number) => fieldsFromScenario({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536, tokens } }, DEFAULT_VALUES).tokens;
    expect([at(2e12), at(1.5e12), at(300e9), at(1_234_567), at(999)]).toEqual(['2T', '1.5T', '300B', '1234567', '999']);
  });

  it.each([2e12, 1.5e12, 300e9, 1.25e9, 7e6, 1_234_567, 999, 1, 1e15, 123_456_789_012])('writes %d so that it reads back exactly', (n) => {
    const r = scenarioFromFields({ ...DEFAULT_VALUES, tokens: formatCountExact(n) });
    expect(r.ok && r.budget.tokens).toBe(n);
  });

  it('converts a link that counts GPUs into nodes', () => {
    expect(fieldsFromScenario({ model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb', gpus: 64 }, training: { globalBatchSize: 64 } }, DEFAULT_VALUES).nodes).toBe('8');
  });
});
