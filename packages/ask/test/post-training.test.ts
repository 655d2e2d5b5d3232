import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const OPTIONS = { publicUrl: null, today: '2026-11-28' } as const;

/**
 * RLHF by PPO or GRPO, and a reward model's training, are declined with the other fine-tuning runs: each step holds a policy, a
 * reference and a reward model (and PPO a value model) and generates samples, which no pretraining plan counts. QA: "how long
 * to run PPO on llama3-8b with a 8B reward model on 16 H100" was answered as 15T tokens of Llama 3 8B pretraining.
 */
describe('PPO, GRPO and reward models are declined as fine-tuning runs, never planned as pretraining', () => {
  it.each([
    'how long to run PPO on llama3-8b with a 8B reward model on 16 H100',
    'how long to run GRPO on llama3-8b on 16 H100',
    'how long to train a reward model on llama3-8b on 16 H100',
    'how long to train llama3-8b on 16 H100 with reward model training',
    'how long to train the 8B reward model on 16 H100',
    'how long for RLAIF of llama3-8b on 16 H100',
    // Memory too: PPO's is not full fine-tuning's (a reward, reference and value model besides the policy).
    'how much memory for PPO on llama3-8b on 8 h100',
  ])('"%s"', (question) => {
    const q = parse(question, OPTIONS);
    expect(q.problems).toHaveLength(1);
    expect(q.problems[0]).toMatch(/^fine-tuning runs \(LoRA, QLoRA, DPO, RLHF with PPO or GRPO, reward models, a run's time\) are not modelled, only pretraining/);
    const a = ask(question, OPTIONS);
    expect(a.kind).toBe('refusal');
    expect(a.scenario).toBeUndefined();
  });

  it('full fine-tuning\'s memory is still answered, as pretraining\'s', () => {
    const a = ask('how much memory to full fine-tune llama3-8b on 8 h100', OPTIONS);
    expect(a.ok).toBe(true);
  });

  it('a word holding "ppo" is no PPO', () => {
    expect(parse('how long to train llama3-8b on 1T tokens on 64 h100 to support opposition research', OPTIONS).problems).toEqual([]);
  });

  it('a reward model mentioned, not trained, leaves the pretraining question planned (QA: declined as fine-tuning)', () => {
    const question = 'how long to train llama3-8b on 1T tokens on 64 H100; reward model comes later';
    const q = parse(question, OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject({ model: 'llama3-8b', tokens: 1e12, gpus: 64 });
    expect(ask(question, OPTIONS).kind).toBe('answer');
  });
});
