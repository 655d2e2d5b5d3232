import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import { figure } from './support/serving.ts';

const options = { publicUrl: null } as const;

/** The line a context longer than the request's tokens is said in, up to the lengths it names. */
const UNCHANGED = /leaves the plan unchanged: a paged KV cache \(vLLM's PagedAttention, Kwon et al\. SOSP 2023; TensorRT-LLM's paged KV cache\) holds the tokens a request has, not the whole window/;

describe('a context is read beside a prompt, in the phrasings people use', () => {
  it.each([
    ['serve llama3-70b on H100 with 2,000-token prompts at a 32k context, 500 concurrent users at 50 ms per token', 2000, 32 * 1024],
    ['serve llama3-70b on H100 with 2k prompts and a 32k context window', 2048, 32 * 1024],
    ['serve llama3-70b on H100 with 2k prompts with a context of 8,192 tokens', 2048, 8192],
    ['serve llama3-70b on H100 with a 2k prompt and 3k output, max context 4k', 2048, 4096],
    ['serve llama3-70b with maximum context length: 16k, 1k prompts', 1024, 16 * 1024],
  ])('"%s": prompt %d, context %d', (question, prompt, context) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.notRead).toEqual([]);
    expect(q.stated.promptTokens).toBe(prompt);
    expect(q.stated.seqLength).toBe(context);
  });

  it('"a context of 8,192 tokens" is no budget of tokens to generate (QA: "Time to generate … 8.19k generated tokens")', () => {
    const question = 'serve llama3-70b on H100 with 2k prompts with a context of 8,192 tokens';
    expect(parse(question).stated.tokens).toBeUndefined();
    expect(figure(ask(question, options), 'Time to generate')).toBe('');
  });

  it('"context 2" is no 2-token context, and context parallelism stays CP', () => {
    expect(parse('serve llama3-8b on h100 with context 2').stated.seqLength).toBeUndefined();
    const cp = parse('train llama3-8b with context parallel 2 on 64 h100 at 32k');
    expect(cp.stated.context).toBe(2);
    expect(cp.stated.seqLength).toBe(32 * 1024);
  });
});

describe('a context longer than the prompt and output leaves the plan unchanged, and says so', () => {
  const question = 'serve llama3-70b on H100 with 2,000-token prompts at a 32k context, 500 concurrent users at 50 ms per token';

  it('the plan is the one without the context: same headline, configuration and figures', () => {
    const a = ask(question, options);
    const without = ask('serve llama3-70b on H100 with 2,000-token prompts, 500 concurrent users at 50 ms per token', options);
    expect(a.ok).toBe(true);
    expect(a.headline).toBe(without.headline);
    expect(a.configuration).toBe(without.configuration);
    expect(a.configuration).toContain('2,000 prompt tokens + 512 output tokens');
    expect(a.figures).toEqual(without.figures);
  });

  it('one line names the 32,768-token context, the 2,000 + 512 tokens it holds, why paging leaves the plan so, and Llama 3 70B\'s trained 8,192', () => {
    const lines = ask(question, options).assumptions.filter((l) => /32,768-token context/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^the 32,768-token context asked holds each request's 2,000 prompt \+ 512 output tokens and /);
    expect(lines[0]).toMatch(UNCHANGED);
    // Llama 3 70B's preset records no context window: its 8,192 is said as the length it was trained at, no more.
    expect(lines[0]).toMatch(/; 8,192 tokens is the sequence length Llama 3 70B was trained at, and no longer context window is recorded for it: whether it attends over the whole window asked is not said here$/);
    expect(lines[0]).not.toMatch(/long-context variant/);
  });

  it('a window within the context window a preset records is no long-context variant (QA: Llama 3.1 70B serves 131,072, not its trained 8,192)', () => {
    const said = ask('serve llama3.1-70b on 8 H200 with 4k prompts at a 128k context', options).assumptions.join('\n');
    expect(said).toContain("the 131,072-token context asked holds each request's 4,096 prompt + 512 output tokens");
    expect(said).not.toMatch(/8,192/);
    expect(said).not.toMatch(/long-context variant/);
    // Past the recorded window it is said, against that window.
    expect(ask('serve llama3.1-70b on 8 H200 with 4k prompts at a 256k context', options).assumptions.join('\n'))
      .toMatch(/; a window past Llama 3\.1 70B's 131,072-token context window takes a long-context variant of it$/m);
  });

  it('a learned position table has no rows past its last: GPT-3 175B\'s 2,048 positions at a 4k context', () => {
    expect(ask('serve gpt3-175b on 16 H100 with 1k prompts at a 4k context', options).assumptions.join('\n'))
      .toMatch(/; GPT-3 175B has 2,048 learned positions and none past them: a window past them takes a variant trained at that length$/m);
  });

  it.each([
    ['serve llama3-70b on H100 with 2k prompts and a 32k context window', 32_768, 2048],
    ['serve llama3-70b on H100 with 2k prompts with a context of 8,192 tokens', 8192, 2048],
  ])('"%s": said too', (q, context, prompt) => {
    const said = ask(q, options).assumptions.join('\n');
    expect(said).toContain(`the ${context.toLocaleString('en-US')}-token context asked holds each request's ${prompt.toLocaleString('en-US')} prompt + 512 output tokens`);
    expect(said).toMatch(UNCHANGED);
  });

  it('a context within the model\'s own length says nothing of a long-context variant', () => {
    expect(ask('serve llama3-70b on H100 with 2k prompts with a context of 8,192 tokens', options).assumptions.join('\n')).not.toMatch(/long-context variant/);
  });

  it('a context alone is filled by the prompt, as before: no line saying it leaves the plan unchanged', () => {
    const a = ask('serve llama3-70b on H100 at a 32k context', options);
    expect(a.configuration).toContain(`${(32_768 - 512).toLocaleString('en-US')} prompt tokens + 512 output tokens`);
    expect(a.assumptions.join('\n')).not.toMatch(UNCHANGED);
  });

  it('a prompt filling the window is said to be the worst case, with how to plan typical requests (QA: 197 requests of 7,680 tokens, unsaid)', () => {
    const a = ask('serve llama3-70b on 8 H100 with a max context of 8k', options);
    expect(a.configuration).toContain('7,680 prompt tokens + 512 output tokens');
    expect(a.assumptions).toContain('a 7,680-token prompt (the 8,192-token context asked, less the 512 generated: '
      + 'the worst case, every request filling the window; say a prompt length to plan typical requests)');
  });
});

describe('a prompt and output past the context are never planned past it', () => {
  it('"max context 4k" with a 2k prompt and 3k output is refused: 2,048 + 3,072 = 5,120 tokens', () => {
    const a = ask('serve llama3-70b on H100 with a 2k prompt and 3k output, max context 4k', options);
    expect(a.ok).toBe(false);
    expect(a.headline).toBe('I could not answer that: a 2,048-token prompt and 3,072 output tokens are 5,120 tokens, past the 4,096-token context asked: '
      + 'a request holds its prompt and the tokens it generates within its context (vLLM\'s max_model_len refuses one past it); say a shorter prompt or output, or a longer context.');
  });

  it('with no output length given, the default 512 is cut to the context less the prompt: 2,304 − 2,048 = 256, said', () => {
    const question = 'serve llama3-70b on H100 with a 2k prompt, max context 2.25k';
    expect(parse(question).parameters.outputTokens).toBe(256);
    const a = ask(question, options);
    expect(a.ok).toBe(true);
    expect(a.configuration).toContain('2,048 prompt tokens + 256 output tokens');
    expect(a.assumptions).toContain('256 generated tokens per request: the 2,304-token context asked less the 2,048-token prompt (no output length given; 512 otherwise, which would overrun it)');
  });

  it('a prompt as long as the context is refused: nothing is left to generate', () => {
    expect(ask('serve llama3-70b on H100 with a 4k prompt, max context 4k', options).headline)
      .toMatch(/^I could not answer that: the 4,096-token prompt fills the 4,096-token context asked, leaving no room for the tokens it generates: /);
  });

  it('an output longer than the context is refused as the output\'s, the prompt being the default', () => {
    expect(ask('serve llama3-70b on H100 with 2k output tokens, max context 1k', options).headline)
      .toMatch(/^I could not answer that: the 2,048 output tokens asked are longer than the 1,024-token context asked, leaving no room for a prompt: .*; say fewer output tokens or a longer context\.$/);
  });

  it('a context too short for a prompt and a generated token, no lengths given, is refused as the context\'s, no default prompt named', () => {
    const a = ask('serve llama3-8b on one H100 with max context 1 token', options);
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/^I could not answer that: the 1-token context asked has no room for a prompt and a token generated: .*; say a longer context\.$/);
    expect(a.headline).not.toContain('2,048');
  });
});

/**
 * A context with neither length given keeps the default 512 generated tokens and fills the rest with the prompt wherever that
 * leaves a prompt of 512 tokens or more (a context of 1,024 or more), as 1k (512 + 512) and 2k (1,536 + 512) were planned
 * before a 4 : 1 split changed them to 819 + 205 and 1,638 + 410 (QA). Below 1,024 the context less 512 would leave a prompt
 * shorter than the output, none at 512: there the defaults' 2,048 : 512 (4 : 1) split is taken, said. QA: "serve llama3-8b on
 * one H100 with max context 512" was refused for "the 2,048-token prompt (none given)", a length the question never gave.
 */
describe('a short context with no lengths given cuts the default lengths to fit it', () => {
  it.each([
    // 1,024 − 512 = 512: the shortest prompt the rule keeps.
    ['serve llama3-8b on one H100 with a 1k context', 1024, 512],
    ['serve llama3-8b on one H100 with a 2k context', 2048, 1536],
    ['serve llama3-8b on one H100 with max context 2560', 2560, 2048],
    ['serve llama3-8b on one H100 with max context 4k', 4096, 3584],
  ])('"%s": %d tokens hold the 512 generated and a %d-token prompt, the rest', (question, context, prompt) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.parameters).toMatchObject({ seqLength: context, promptTokens: prompt, outputTokens: 512 });
    const a = ask(question, options);
    expect(a.ok).toBe(true);
    expect(a.configuration).toContain(`${prompt.toLocaleString('en-US')} prompt tokens + 512 output tokens`);
    expect(a.assumptions).toContain(`a ${prompt.toLocaleString('en-US')}-token prompt (the ${context.toLocaleString('en-US')}-token context asked, less the 512 generated: `
      + 'the worst case, every request filling the window; say a prompt length to plan typical requests)');
  });

  it.each([
    // 512 × 512 / 2,560 = 102.4 → 102 generated, 410 prompt.
    ['serve llama3-8b on one H100 with max context 512', 512, 410, 102],
    ['serve llama3-70b on H100 with max context 512', 512, 410, 102],
    // 1,023 / 5 = 204.6 → 205 generated, 818 prompt: 1,023 − 512 = 511 would be a prompt under 512.
    ['serve llama3-8b on one H100 with max context 1023', 1023, 818, 205],
    // 513 / 5 = 102.6 → 103 generated, 410 prompt, never a 1-token prompt beside 512 generated.
    ['serve llama3-8b on one H100 with max context 513', 513, 410, 103],
    ['serve llama3-8b on one H100 at a context of 256 tokens', 256, 205, 51],
  ])('"%s": %d tokens split 4 : 1, a %d-token prompt and %d generated', (question, context, prompt, output) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.parameters).toMatchObject({ seqLength: context, promptTokens: prompt, outputTokens: output });
    expect(prompt + output).toBe(context);
    const a = ask(question, options);
    expect(a.ok).toBe(true);
    expect(a.configuration).toContain(`${prompt.toLocaleString('en-US')} prompt tokens + ${output} output tokens`);
    expect(a.assumptions).toContain(`a ${prompt.toLocaleString('en-US')}-token prompt (the ${context.toLocaleString('en-US')}-token context asked, split 4 : 1 as the default 2,048-token prompt and 512 generated tokens are, `
      + 'since less the 512 generated it would leave a prompt under 512 tokens: the worst case, every request filling the window; say a prompt length to plan typical requests)');
    expect(a.assumptions).toContain(`${output} generated tokens per request (the ${context.toLocaleString('en-US')}-token context asked less the ${prompt.toLocaleString('en-US')}-token prompt; no output length given)`);
  });

  it('a length stated keeps the rule for it: an output given leaves the prompt the rest', () => {
    expect(parse('serve llama3-8b on one H100 with max context 512 and 100 output tokens').parameters).toMatchObject({ promptTokens: 412, outputTokens: 100 });
  });
});
