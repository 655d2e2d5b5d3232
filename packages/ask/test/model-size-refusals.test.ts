import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

const options = { publicUrl: null } as const;

/**
 * The largest model that fits or serves on GPUs is no question answered here, and the compute-optimal size (a budget's) no
 * answer to it: refused plainly, pointing at a named model to check. QA: both got a refusal saying "not answered here …
 * leave the tokens out for the compute-optimal size", which contradicts itself for a question of memory.
 */
describe('the largest model that fits or serves: refused, a named model suggested', () => {
  it.each([
    'largest model that fits on one H100',
    'biggest model I can serve on 8 H100',
    "what's the largest model I can run on 8 H100",
  ])('"%s"', (question) => {
    const a = ask(question, options);
    expect(a.kind).toBe('refusal');
    expect(a.headline).toBe('I could not answer that: the largest model that fits on GPUs, to train or to serve, is not answered here: '
      + 'I plan a model you name; name one to check it, e.g. "does llama3-70b fit on 8 H100" or "serve llama3-70b on 8 H100".');
    expect(a.headline).not.toMatch(/compute-optimal|budget/);
  });
});

/**
 * A size asked of a budget with its tokens fixed is not the compute-optimal size: refused as that, pointing at the questions
 * that are answered. QA: "how big a model can we train on 10T tokens with 256 H100" got a bare "I didn't understand".
 */
describe('a size asked with the tokens fixed: the model-size refusal, whatever the wording', () => {
  it.each([
    'how big a model can we train on 10T tokens with 256 H100',
    'we have 2M gpu hours of h100, how big a model can we train on 10T tokens?',
  ])('"%s"', (question) => {
    const a = ask(question, options);
    expect(a.kind).toBe('refusal');
    expect(a.headline).toMatch(/^I could not answer that: how big a model a budget trains is not answered here: I plan a model you name; /);
    expect(a.headline).toContain('or leave the tokens out for the compute-optimal size a budget trains');
    expect(a.headline).not.toMatch(/didn't understand/);
  });

  it('neighbour: an unreadable question is still not understood', () => {
    expect(ask('how blorp a flarn on 10T tokens', options).headline).toMatch(/^I didn't understand /);
  });
});
