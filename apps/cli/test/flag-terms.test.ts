import { describe, expect, it } from 'vitest';
import { flagLocator, proseInFlagTerms, type FlagsToRequest } from '../src/flag-terms.ts';
import type { FlagValues } from '../src/flags.ts';

/** The nodes request's shape: one-word fields (model, tokens, days, budget, nodes) beside dotted and camelCase ones. */
const nodesLike: FlagsToRequest = {
  flags: Object.fromEntries(['model', 'gpu', 'tokens', 'days', 'gpu-hours', 'budget', 'price', 'nodes', 'precision', 'memory-fraction']
    .map((name) => [name, { type: 'string' as const }])),
  requestFlags: ['model', 'gpu', 'tokens', 'days', 'gpu-hours', 'budget', 'price', 'nodes', 'precision', 'memory-fraction'],
  fromFlags: (v: FlagValues) => ({
    model: v.model, cluster: { gpu: v.gpu }, training: { precision: v.precision }, tokens: v.tokens, days: v.days,
    gpuHours: v['gpu-hours'], budget: v.budget, pricePerGpuHour: v.price, nodes: v.nodes, constraints: { memoryFraction: v['memory-fraction'] },
  }),
};
const { inFlagTerms, flagFor } = flagLocator(nodesLike);

describe('inFlagTerms', () => {
  it.each([
    // The planner's own messages (packages/protocol/src/search/nodes.ts): one-word fields listed or given.
    ['give nodes (days on that many nodes) or a goal (days, gpuHours, budget), not both',
      'give --nodes (days on that many nodes) or a goal (--days, --gpu-hours, --budget), not both'],
    ['give a deadline (days), a budget (gpuHours, or budget with pricePerGpuHour), or nodes',
      'give a deadline (--days), a budget (--gpu-hours, or --budget with --price), or --nodes'],
    // A field given a quoted value is the flag given that value (packages/planner/src/check-plan.ts).
    ['NVIDIA V100 SXM2 32GB has no BF16 tensor cores: use precision "fp16"', 'NVIDIA V100 SXM2 32GB has no BF16 tensor cores: use --precision fp16'],
    // A nested field named by its last segment (packages/search/src/memory-budget.ts).
    ['above the 24.0 GiB the search leaves usable (memoryFraction 0.3 of the GPU\'s 80.0 GiB)', 'above the 24.0 GiB the search leaves usable (--memory-fraction 0.3 of the GPU\'s 80.0 GiB)'],
    ['give cluster.gpu', 'give --gpu'],
    // A field as the subject of "applies" (packages/protocol/src/collective/run-collective.ts).
    ['budget applies only to the emulator (days)', '--budget applies only to the emulator (--days)'],
    // The object of "without" (packages/protocol/src/collective/run-collective.ts: "the closed form, without emulate, has no such limit").
    ['the closed form, without budget, has no such limit', 'the closed form, without --budget, has no such limit'],
  ])('rewrites the fields of %j', (message, expected) => {
    expect(inFlagTerms(message)).toBe(expected);
  });

  it.each([
    // The same words as English nouns, from the planner's messages (packages/search/src/capacity*.ts, preset-ids.ts).
    'a budget in money needs a price',
    'the deadline can be met but not within the budget: no cluster size searched stays within the budget',
    'no cluster of up to 128 nodes meets the deadline: the fastest found takes 40.0 days on 128 nodes',
    'unknown model "gpt3-176b"; known: gpt3-175b',
    '1,000 tokens are less than one optimizer step, a global batch of 1,536 × 2,048 = 3,145,728 tokens (training takes whole steps)',
    'tensor × pipeline × context does not divide the GPUs',
    // A word that is a field of another command's request, not this one's.
    'give either gpus or top',
  ])('leaves English alone: %j', (message) => {
    expect(inFlagTerms(message)).toBe(message);
  });

  it('a last segment two flags share names neither (the message cannot say which)', () => {
    const { inFlagTerms: terms } = flagLocator({
      flags: { a: { type: 'string' }, b: { type: 'string' } }, requestFlags: ['a', 'b'],
      fromFlags: (v) => ({ x: { maxSize: v.a }, y: { maxSize: v.b } }),
    });
    expect(terms('raise maxSize, or x.maxSize')).toBe('raise maxSize, or --a');
  });

  it('flagFor finds the flag of a path, and of any item of the list a flag fills', () => {
    const { flagFor: listFlag } = flagLocator({ flags: { nodes: { type: 'string' } }, requestFlags: ['nodes'], fromFlags: (v) => ({ nodes: [v.nodes] }) });
    expect(flagFor('constraints.memoryFraction')).toBe('--memory-fraction');
    expect(listFlag('nodes[3]')).toBe('--nodes');
    expect(listFlag('nodes')).toBe('--nodes');
  });
});

describe('proseInFlagTerms', () => {
  it('rewrites the prose of an answer at any depth (messages, whys, reasons, warnings) and nothing else', () => {
    const answer = {
      ok: false, reason: 'does-not-fit', message: 'give budget, or days',
      points: [{ nodes: 16, label: 'days', reason: 'needs more (memoryFraction)' }],
      closest: { why: 'give nodes', estimate: { warnings: ['memoryFraction 0.9 keeps 10%'], resolved: { model: 'gpt3-175b' } } },
    };
    expect(proseInFlagTerms(answer, inFlagTerms)).toEqual({
      ok: false, reason: 'does-not-fit', message: 'give --budget, or --days',
      points: [{ nodes: 16, label: 'days', reason: 'needs more (--memory-fraction)' }],
      closest: { why: 'give --nodes', estimate: { warnings: ['--memory-fraction 0.9 keeps 10%'], resolved: { model: 'gpt3-175b' } } },
    });
  });
});
