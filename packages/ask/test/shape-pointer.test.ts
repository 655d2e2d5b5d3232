import { describe, expect, it } from 'vitest';
import { modelById } from '@trainplan/presets';
import { runEstimate, type EstimateJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';

const OPTIONS = { publicUrl: null, today: '2026-11-28' } as const;

/** The JSON keys a refusal names as the model object's: those in `"model": {…}`, then the optional ones after it. */
function namedFields(headline: string): { required: string[]; optional: string[] } {
  const m = /"model": \{([^}]*)\}, optional ([^)]*)\)/.exec(headline);
  const keys = (list: string | undefined): string[] => [...(list ?? '').matchAll(/"(\w+)"/g)].map((k) => k[1] ?? '');
  return { required: keys(m?.[1]), optional: keys(m?.[2]) };
}

/**
 * A refusal of a model no preset has (or no model at all) points at the one way to plan any decoder's shape: the model object
 * of a scenario given to `trainplan estimate --input`, with its fields as the wire spells them (QA: refusals named only preset
 * ids and sizes). The fields are checked by planning a scenario built of exactly the ones named, with Llama 3.2 1B's values.
 */
describe('a refused model points at the model object of `trainplan estimate --input`, in fields the planner reads', () => {
  const shape = modelById('llama3.2-1b')!.shape as unknown as Record<string, unknown>;

  it.each([
    'how long to train falcon 40b on 64 h100',
    'how long to train gpt2 on 64 h100',
    'how long to train foo-13q on 8 h100',
    'how many nodes for nemotron 30b',
    'how long to train T5-11B on 1T tokens on 64 H100',
  ])('"%s"', (question) => {
    const a = ask(question, OPTIONS);
    expect(a.kind).toBe('refusal');
    expect(a.headline).toContain('`trainplan estimate --input`');
    const { required, optional } = namedFields(a.headline);
    expect(required.length).toBeGreaterThan(0);
    const model = Object.fromEntries([...required, ...optional].map((k) => [k, shape[k]]));
    const answer = runEstimate({
      model, cluster: { gpu: 'h100-sxm', gpusPerNode: 8, nodes: 1 }, training: { globalBatchSize: 8, microBatchSize: 1, precision: 'bf16' },
    }) as EstimateJson;
    // An unknown field, or a required one left out, would be refused as invalid.
    expect(answer.ok).toBe(true);
    // Without any one of the required fields the model object is refused: each is needed, none is a name the wire ignores.
    for (const field of required) {
      const without = Object.fromEntries(Object.entries(model).filter(([k]) => k !== field));
      expect((runEstimate({ model: without, cluster: { gpu: 'h100-sxm', gpusPerNode: 8, nodes: 1 }, training: { globalBatchSize: 8 } }) as EstimateJson).ok).toBe(false);
    }
  });

  it('a preset the question names is planned, with no such pointer', () => {
    const a = ask('how long to train llama3-8b on 1T tokens on 64 h100', OPTIONS);
    expect(a.ok).toBe(true);
    expect(a.headline).not.toContain('estimate --input');
  });
});
