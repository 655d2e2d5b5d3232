import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

// QA (High): "how many H100 to serve llama3.1-405b at 50 requests/s with 8k prompts" answered "21,426,400 GPUs serve 50 requests/s
// as 1,339,150 replicas of TP 8 · PP 2 at 1 concurrent request each, 0% loaded": the assumed 2 s first-token bound, the prompt's
// prefill alone 1.99 s of it. The protocol now tries TP 16 across two nodes there, and the bot says its plan.
describe('a rate whose first-token bound the prefill nearly fills, asked of the bot', () => {
  it('the headline is a plan whose replicas are at least half loaded, and a note says why it spans nodes', () => {
    const a = ask('how many H100 to serve llama3.1-405b at 50 requests/s with 8k prompts', { publicUrl: null });
    expect(a.kind).toBe('answer');
    if (a.kind !== 'answer') return;
    const loaded = /, (\d+)% loaded: /.exec(a.headline);
    expect(Number(loaded?.[1])).toBeGreaterThanOrEqual(50);
    expect(a.headline).toMatch(/ replicas of TP 16 · PP \d+ at [\d,]+ concurrent requests each/);
    expect(a.notes).toContainEqual(expect.stringMatching(/^within one NVLink domain \(TP ≤ 8\) the first-token bound binds: the prefill alone takes [\d.]+ s of its 2\.00 s/));
  });
});
