import { runInference, type InferencePointJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { figure, served, type Served } from './support/serving.ts';

const options = { publicUrl: null } as const;

/** Llama 3 8B drafting for Llama 3 70B with the γ and α the bot assumes (speculative.ts: 4 tokens, 0.7 accepted). */
const LLAMA3_8B_DRAFT = { draftModel: 'llama3-8b', draftTokens: 4, acceptanceRate: 0.7 };

/** The request the bot says it sends, with its defaults (2,048 + 512 tokens, ≤ 200 ms a token, ≤ 2 s to the first, BF16), for the planner apart from the bot. */
const request = (extra: Record<string, unknown>) => ({
  model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, precision: 'bf16', promptTokens: 2048, outputTokens: 512,
  maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2, batching: 'continuous', speculative: LLAMA3_8B_DRAFT, ...extra,
});

/** One speculating replica of a shape at one batch, with the bounds; undefined where it plans none within them. */
function replicaAt(x: Pick<InferencePointJson, 'tensor' | 'pipeline' | 'gpus'>, batch: number): InferencePointJson | undefined {
  const a = runInference(request({ tensor: [x.tensor], pipeline: [x.pipeline], batches: [batch], gpus: x.gpus }));
  return a.ok ? a.best : undefined;
}

describe('"serve llama3-70b on H100 to 500 concurrent users with speculative decoding using llama3-8b as the draft": 500 in all', () => {
  const question = 'serve llama3-70b on H100 to 500 concurrent users with speculative decoding using llama3-8b as the draft';

  it('one replica holding all 500 does not serve them (what the bot answered), several replicas of one stage do', () => {
    // QA: "does not fit for serving (TP 8 · PP 1: batch 500 does not fit (the largest that fits is 477)". The planner agrees.
    const single = runInference(request({ batches: [500] })) as Served;
    expect(single.best).toBeUndefined();
    const { a, data } = served(question);
    expect(a.ok).toBe(true);
    const x = data.best!;
    const replicas = x.replicas!;
    expect(x.pipeline).toBe(1);
    expect(replicas).toBeGreaterThan(1);
    // The fullest replica at ⌈500 / r⌉, the others at ⌊500 / r⌋: both keep the bounds when the planner is asked apart.
    expect(replicas * x.batch).toBeGreaterThanOrEqual(500);
    expect(replicas * (x.batch - 1)).toBeLessThan(500);
    expect(replicaAt(x, x.batch)).toBeDefined();
    expect(replicaAt(x, Math.floor(500 / replicas))).toBeDefined();
    const upTo = 500 % replicas === 0 ? '' : 'up to ';
    expect(a.headline).toMatch(new RegExp(`^Llama 3 70B with a Llama 3 8B draft on H100 SXM5 80GB: ${replicas * x.gpus} GPUs serve 500 concurrent requests as ${replicas} replicas of TP ${x.tensor} · PP 1 at ${upTo}${x.batch} concurrent requests each: `));
  });

  it('says the 500 as the service\'s, spread over replicas of one pipeline stage with the draft, in the configuration, figures and assumptions', () => {
    const { a, data } = served(question);
    const x = data.best!;
    expect(a.configuration).toBe(`TP ${x.tensor} · PP 1 · batch ${x.batch} · ${x.replicas} replicas · BF16 · 2,048 prompt tokens + 512 output tokens · speculative: Llama 3 8B draft, γ 4, α 0.7`);
    expect(figure(a, 'Concurrent requests')).toMatch(new RegExp(`^${x.batch} per replica( at most)? \\(\\d+ fit in memory\\), 500 in all on the ${x.replicas} replicas$`));
    expect(figure(a, 'Speculative decoding')).toMatch(/^Llama 3 8B \(TP \d\) drafts 4 tokens a step, each kept with probability 0\.7: /);
    expect(a.assumptions).toContain('500 concurrent requests in all, spread over the replicas as a load balancer spreads sessions, each replica at ⌈500 / replicas⌉ or fewer (say "per replica" for one replica\'s batch)');
    expect(a.assumptions.join('\n')).toMatch(/a replica is one pipeline stage, as vLLM runs it/);
  });

  it('says the plan without the draft beside: the users\' plan the same question without speculation answers, and the GPUs each takes', () => {
    const { a, data } = served(question);
    const plain = ask('serve llama3-70b on H100 to 500 concurrent users', options);
    // "Llama 3 70B on H100 SXM5 80GB: 8 GPUs serve 500 concurrent requests as 1 replica of TP 4 · PP 2: 118 ms per token, …"
    const plan = /: (\d+) GPUs serve (500 concurrent requests as .*?) \(≤/.exec(plain.headline);
    expect(plan).not.toBeNull();
    const withDraft = data.best!.replicas! * data.best!.gpus;
    const note = a.notes.find((n) => n.startsWith('Without speculative decoding: ')) ?? '';
    expect(note).toContain(`Without speculative decoding: ${plan![1]} GPUs serve ${plan![2]}: ${withDraft} GPUs with speculation, ${plan![1]} without; speculation pays while decoding is memory-bound`);
  });
});

describe('the other speculating users questions', () => {
  it('where the GPUs named hold too few within the bound, the closest spread is said, and the plan without a draft beside it', () => {
    const a = ask('serve llama3-70b on 16 H100 to 500 concurrent users with speculative decoding at 50 ms per token', options);
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/^Llama 3 70B with a Llama 3\.2 1B draft on 16 × H100 SXM5 80GB: no plan serves 500 concurrent requests on the 16 GPUs within ≤ 50\.0 ms per token, ≤ 2\.00 s to the first token: /);
    expect(a.configuration).toMatch(/^closest to the bounds, missing them: TP \d · PP 1 · batch \d+ · \d+ replicas · .* · speculative: Llama 3\.2 1B draft, γ 4, α 0\.7$/);
    // Without a draft 500 at 50 ms a token take more than 16 H100 too (the same question unspeculated says so).
    expect(ask('serve llama3-70b on 16 H100 to 500 concurrent users at 50 ms per token', options).ok).toBe(false);
    expect(a.notes).toContain('Without speculative decoding no plan serves 500 concurrent requests on the 16 GPUs within ≤ 50.0 ms per token, ≤ 2.00 s to the first token either; '
      + 'speculation pays while decoding is memory-bound (a small batch reads the weights and KV cache once for γ + 1 tokens) and loses once a large batch makes it compute-bound (γ + 1 tokens cost γ + 1 times the FLOPs).');
  });

  it('"64 concurrent requests per replica" with speculation is one replica\'s batch, as before', () => {
    const { a, data } = served('serve llama3-70b on 8 h100 with 64 concurrent requests per replica with speculative decoding');
    expect(data.frontier.every((x) => x.batch === 64)).toBe(true);
    const replicas = 8 / data.best!.gpus;
    expect(a.assumptions).toContain(`64 concurrent requests taken per replica: ${64 * replicas} on the 8 GPUs`);
    expect(a.assumptions.join('\n')).not.toMatch(/in all, spread/);
    expect(a.notes.join('\n')).toMatch(/^Without speculative decoding: TP \d · PP \d \(\d replicas?\) serves [\d,.]+ tokens\/s per GPU at 64 concurrent requests/m);
  });
});
