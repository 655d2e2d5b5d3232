import type { InferenceResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

type Served = Extract<InferenceResponseJson, { ok: true }>;
const answer = (question: string) => ask(question, { publicUrl: null });
const best = (question: string) => (answer(question).data as Served).best!;

describe('DP and CP stated in a serving question are answered, never dropped', () => {
  it.each([
    ['serve llama3-70b on 8 h100 with dp 0', 'DP (data parallelism) must be at least 1'],
    ['serve llama3-70b on 8 h100 with cp 0', 'CP (context parallelism) must be at least 1'],
  ])('"%s" is refused: %s', (question, words) => {
    expect(answer(question)).toMatchObject({ kind: 'refusal', headline: `I could not answer that: ${words}.` });
  });

  it('CP above 1: the plan has none, and the answer says serving is planned as TP × PP', () => {
    const a = answer('serve llama3-70b on 8 h100 with cp 2');
    expect(a.ok).toBe(true);
    expect(a.notes).toContain('CP 2 asked: a serving replica is planned as TP × PP only (context parallelism is not modelled for serving), so this plan has none.');
  });

  it('a DP the plan\'s replicas do not make: the answer names a TP × PP that does, which, asked back, makes that many replicas', () => {
    const question = 'serve llama3-70b on 8 h100 with dp 2';
    const first = answer(question);
    expect(8 / best(question).gpus).not.toBe(2);
    const note = first.notes.find((n) => n.startsWith('DP 2 asked')) ?? '';
    const layout = /"(tp \d+ pp \d+)"/.exec(note)?.[1];
    expect(layout).toBeDefined();
    const again = `${question}, ${layout}`;
    expect(8 / best(again).gpus).toBe(2);
    expect(answer(again).notes.some((n) => n.startsWith('DP 2 asked'))).toBe(false);
  });

  it('a DP with no GPU count: the GPUs that many replicas of the plan take, which, asked back, holds them', () => {
    const a = answer('serve llama3-70b with dp 2');
    const replica = (a.data as Served).best!.gpus;
    expect(a.notes).toContain(`DP 2 asked: give the GPUs ("on ${2 * replica} GPUs") for 2 replicas of this plan.`);
  });

  it('a DP beside a request rate: the load sets the replicas, and the answer says how many it took', () => {
    const a = answer('serve llama3-70b on h100 at 20 requests/s with dp 3');
    const load = (a.data as Served).best!.load!;
    expect(load.replicas).not.toBe(3);
    expect(a.notes).toContain(`DP 3 asked: at a request rate the replicas are what the load needs, here ${load.replicas} replicas.`);
  });
});
