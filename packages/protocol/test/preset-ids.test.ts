import { describe, expect, it } from 'vitest';
import { runEstimate } from '../src/index.ts';
import { didYouMean, presetIdIssues } from '../src/preset-ids.ts';
import { runCollective } from '../src/collective/run-collective.ts';

const scenario = (model: string, gpu = 'h100-sxm') => ({ model, cluster: { gpu, nodes: 8 }, training: { globalBatchSize: 64 }, parallelism: { tensor: 8, pipeline: 8 } });
const issueOf = (a: ReturnType<typeof runEstimate>) => (!Array.isArray(a) && !a.ok ? a.issues?.[0]?.message : undefined);

describe('an unknown preset id suggests the ids it was likely meant as', () => {
  it.each([
    ['gpt3-175B', 'gpt3-175b'], ['gpt-3-175b', 'gpt3-175b'], ['llama3.1-70B', 'llama3.1-70b'], ['llama3-405b', 'llama3-70b or llama3.1-405b'],
  ])('model "%s": did you mean %s?', (typed, meant) => {
    expect(issueOf(runEstimate(scenario(typed)))).toMatch(new RegExp(`^unknown model "${typed.replaceAll('.', '\\.')}" \\(did you mean ${meant.replaceAll('.', '\\.')}\\?\\); known: `));
  });

  it('a GPU the typed id begins is meant before one a slip away: "h100" is h100-sxm, not h200', () => {
    expect(issueOf(runEstimate(scenario('gpt3-175b', 'h100')))).toMatch(/^unknown GPU "h100" \(did you mean h100-sxm, h100-pcie or h100-pcie-8x\?\); known: /);
    expect(issueOf(runEstimate(scenario('gpt3-175b', 'h100-sxn')))).toMatch(/^unknown GPU "h100-sxn" \(did you mean h100-sxm\?\); known: /);
  });

  it('nothing near, or too many alike: no suggestion', () => {
    expect(issueOf(runEstimate(scenario('bert-large')))).toMatch(/^unknown model "bert-large"; known: /);
    expect(didYouMean('gpt3', ['gpt3-126m', 'gpt3-350m', 'gpt3-760m', 'gpt3-1.3b'])).toBe('');
  });

  it('the collective request suggests too, unless the id is of the other kind (a system given as a GPU says so instead)', () => {
    const slip = runCollective({ op: 'all-reduce', gpu: 'h10-sxm', nodes: 2 });
    expect(!slip.ok && slip.issues?.[0]?.message).toMatch(/^unknown GPU "h10-sxm" \(did you mean h100-sxm\?\); known: /);
    const system = runCollective({ op: 'all-reduce', gpu: 'dgx-h100', nodes: 2 });
    expect(!system.ok && system.issues?.[0]?.message).toMatch(/^unknown GPU "dgx-h100"; known: .*; "dgx-h100" is a system: give it as system$/);
  });
});

describe('the unknown ids of a scenario that did not validate', () => {
  const raw = { model: 'gpt3-175', cluster: { gpu: 'h100-sx', network: 'ndr-ib-8z', nodes: 8 } };

  it('are each named, with what each was likely meant as', () => {
    expect(presetIdIssues(raw).map((i) => [i.path, /\(did you mean (.*)\?\)/.exec(i.message)?.[1]])).toEqual([
      ['model', 'gpt3-175b'], ['cluster.gpu', 'h100-sxm'], ['cluster.network', 'ndr-ib-8x'],
    ]);
  });

  it('leave out a path a schema issue already names, its suggestion not sought (QA: a 60 KB model id, already too long, was compared with every preset id)', () => {
    expect(presetIdIssues(raw, ['model', 'cluster.network']).map((i) => i.path)).toEqual(['cluster.gpu']);
    expect(presetIdIssues(raw, ['cluster.gpu']).map((i) => i.path)).toEqual(['model', 'cluster.network']);
  });
});
