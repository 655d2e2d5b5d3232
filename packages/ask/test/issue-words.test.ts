import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { issuesWords, refusalWords } from '../src/answer/issue-words.ts';

describe('a protocol\'s refusal is worded for the chat user, never in wire field names', () => {
  it.each([
    ['serve llama 3 70b at 0 qps', 'a request rate must be above 0 requests/s'],
    ['serve llama3-70b with 3M qps', 'a request rate must be at most 1,000,000 requests/s (3,000,000 asked)'],
    ['serve llama3-70b with 0 ms per token', 'a time per output token must be above 0 s'],
    ['serve llama3-70b with ttft under 0 s', 'a time to first token must be above 0 s'],
    ['serve llama3-70b with 0 token prompts', 'a prompt must be at least 1 token'],
    ['serve llama3-70b with concurrency 0', 'the concurrent requests must be at least 1 per replica'],
    ['serve llama3-70b with tp 2048', 'TP (tensor parallelism) must be at most 1,024 (2,048 asked)'],
    ['serve llama3-70b on 100000 h100', 'the GPU count must be at most 65,536 GPUs (100,000 asked)'],
  ])('"%s": "%s"', (question, words) => {
    const a = ask(question);
    expect(a.ok).toBe(false);
    expect(a.headline).toBe(`I could not answer that: ${words}.`);
  });

  it.each([
    ['step time of llama3-8b on 8 h100 with tp 0', 'Llama 3 8B on H100 SXM5 80GB: TP (tensor parallelism) must be at least 1'],
    ['how long to train llama3-8b on 0 nodes', 'Llama 3 8B on H100 SXM5 80GB: the node count must be at least 1 node'],
    ['all-reduce 0 GB on 64 h100', 'all-reduce of 0 B on 64 × H100 SXM5 80GB: a message size must be at least 1 byte'],
    // The protocol's upper bound carries its unit ("≤ 1,099,511,627,776 bytes (1.00 TiB)"); a petabyte is read, not dropped for the default 1 GB.
    ['all-reduce 2 PB on 64 h100', 'all-reduce of 2.00 PB on 64 × H100 SXM5 80GB: a message size must be at most 1,099,511,627,776 bytes (2,000,000,000,000,000 asked)'],
    ['best config for llama3-8b on 8 h100 with seq 0', 'Llama 3 8B on H100 SXM5 80GB on 8 GPUs: a sequence length must be at least 1 token'],
    ['mfu of llama3-8b on 0 gpus', 'Llama 3 8B on H100 SXM5 80GB on 0 GPUs: the GPU count must be at least 1 GPU'],
    ['memory of llama3-8b with tp 0', 'Llama 3 8B on H100 SXM5 80GB: TP (tensor parallelism) must be at least 1'],
  ])('training and collectives too: "%s"', (question, headline) => {
    const a = ask(question);
    expect(a.headline).toBe(headline);
    // Not said twice, and no value the bot derived from the bad one ("global batch … got Infinity").
    expect(a.notes.join(' ')).not.toMatch(/must be|Infinity|NaN/);
  });

  it('a field with no words is named by its path in lower-case words; a message that is no range keeps its text under the field\'s name', () => {
    expect(issuesWords([{ path: 'model.layers', message: 'expected an integer ≥ 1, got 0' }])).toEqual(['model layers: expected an integer ≥ 1, got 0']);
    expect(issuesWords([{ path: 'constraints.someNewSizes[0]', message: 'expected an integer ≥ 1, got 0' }])).toEqual(['constraints some new sizes: expected an integer ≥ 1, got 0']);
    expect(issuesWords([{ path: 'sharedPrefixTokens', message: 'prefix caching applies to continuous batching' }])).toEqual(['a shared prefix: prefix caching applies to continuous batching']);
    expect(issuesWords([{ path: 'training.globalBatchSize', message: 'expected an integer from 1 to 1,000,000,000, got 1.5' }]))
      .toEqual(['a global batch must be a whole number, from 1 to 1,000,000,000 sequences']);
  });

  it('a field the bot left out, as it could derive none from a bad one, is not said beside the bad one; said alone, it is', () => {
    const zero = { path: 'nodes', message: 'expected an integer ≥ 1, got 0' };
    const missing = { path: 'training.globalBatchSize', message: 'missing required field: expected an integer from 1 to 1,000,000,000' };
    const neither = { path: 'cluster.nodes', message: 'give either cluster.nodes or cluster.gpus, got neither' };
    expect(issuesWords([missing, zero, neither])).toEqual(['the node count must be at least 1 node']);
    expect(issuesWords([missing])).toEqual(['a global batch: missing required field: expected an integer from 1 to 1,000,000,000']);
  });

  it('a layout that does not divide (indivisible) is said in words too, each field once: no wire path in a chat answer', () => {
    const issues = [
      { path: 'parallelism.tensor', message: '64 attention heads do not split evenly over 3 tensor-parallel ranks' },
      { path: 'parallelism.data', message: 'tensor × pipeline × context × data = 8×4×1×4 = 128, but the cluster has 64 GPUs' },
    ];
    const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    expect(refusalWords({ reason: 'indivisible', message, issues })).toBe(
      'TP (tensor parallelism): 64 attention heads do not split evenly over 3 tensor-parallel ranks; '
      + 'DP (data parallelism): tensor × pipeline × context × data = 8×4×1×4 = 128, but the cluster has 64 GPUs',
    );
  });

  it('an out-of-memory failure keeps its message', () => {
    expect(refusalWords({ reason: 'out-of-memory', message: 'needs 90 GiB', issues: [{ path: 'nodes', message: 'x' }] })).toBe('needs 90 GiB');
  });
});

describe('an indivisible layout asked in chat', () => {
  it.each(['memory for 70b with tp 3', 'estimate 70b with tp 8 pp 4 dp 4 on 64 h100'])('"%s" names no wire path and says each issue once', (question) => {
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(false);
    expect(a.headline).not.toMatch(/parallelism\.\w+:/);
    for (const note of a.notes) expect(a.headline).not.toContain(note);
  });

  it('a pipeline depth that does not run, said in a fitting note, is worded too', () => {
    const a = ask('mfu of llama3 70b with tp 4 pp 4 vp 5 on 256 h100 with mbs 2', { publicUrl: null });
    expect(a.notes.some((n) => n.includes('still does not run (virtual pipeline stages: '))).toBe(true);
    for (const note of a.notes) expect(note).not.toMatch(/parallelism\.\w+:/);
  });
});
