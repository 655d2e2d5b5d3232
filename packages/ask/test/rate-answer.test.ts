import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

describe('a cluster\'s price with no model is what it costs to run (rate), not "I didn\'t understand"', () => {
  it('per day and per hour of 128 H100 nodes at $2/GPU-hour: 1024 GPUs × 24 h × $2', () => {
    const a = ask('what does it cost per day to run 128 H100 nodes at $2/GPU-hour');
    expect(a).toMatchObject({ intent: 'rate', ok: true });
    expect(a.headline).toBe('128 nodes (1,024 GPUs) of H100 SXM5 80GB at $2/GPU-hour: $49.2k a day, $2.05k an hour');
    expect(a.figures.map((f) => f.label)).toEqual(['Per hour', 'Per day', 'Per week', 'Per 30 days']);
    expect(a.figures[3]!.value).toBe('$1.47M: 737k GPU-hours');
    expect(a.notes.at(-1)).toMatch(/^Name a model and tokens /);
  });

  it.each([
    ['how much per hour for 64 H200 nodes at $3/gpu-hour', /^64 nodes \(512 GPUs\) of H200 SXM 141GB at \$3\/GPU-hour: \$36\.9k a day, \$1\.54k an hour$/],
    ['what does 1024 H100 cost a month at 2.5 per gpu-hr', /^1,024 GPUs of H100 SXM5 80GB at 2\.50\/GPU-hour: 61\.4k a day, 2\.56k an hour \(in the currency given\)$/],
  ])('"%s"', (question, headline) => {
    expect(ask(question).headline).toMatch(headline);
  });

  it.each([
    ['what does it cost per day to run 0 H100 nodes at $2/GPU-hour', 'the node count must be at least 1 node'],
    ['cost per day of 0 H100 GPUs at $2/GPU-hour', 'the GPU count must be at least 1 GPU'],
    ['cost per day to run 16 H100 nodes of 0 gpus at $2/gpu-hour', 'GPUs per node must be at least 1'],
  ])('"%s" is refused as the protocol refuses an empty cluster ("%s"), not priced at $0', (question, words) => {
    const a = ask(question);
    expect(a).toMatchObject({ kind: 'refusal', ok: false, headline: `I could not answer that: ${words}.` });
    expect(a.figures).toEqual([]);
  });

  it('a model named keeps the training answer (its time and cost on those nodes)', () => {
    expect(parse('what does it cost to train llama3-70b on 2T tokens on 128 H100 nodes at $2/GPU-hour').intent).toBe('time');
    expect(parse('what does 128 H100 nodes cost a day').intent).toBe('help');
  });
});

describe('"how many GPU-hours" is answered in GPU-hours', () => {
  it('with no cluster, the fewest any cluster spends (the cheapest), not a default 128 nodes\' own', () => {
    const q = parse('how many GPU-hours for llama3-70b on 15T tokens');
    expect(q.intent).toBe('cheapest');
    expect(q.parameters.nodes).toBeUndefined();
  });

  it('on a stated cluster, that cluster\'s (time)', () => {
    expect(parse('how many GPU-hours to train llama3-70b on 15T tokens on 128 nodes').intent).toBe('time');
  });

  it('with a deadline and no price, the headline gives the GPU-hours', () => {
    expect(ask('how many GPU-hours to train 70b on 2T tokens in 30 days').headline)
      .toMatch(/^Cheapest for Llama 3 70B on H100 SXM5 80GB: [\d,]+ nodes \([\d,]+ GPUs\) train 2\.00T tokens in [\d.]+ days for \d+k GPU-hours \(deadline 30 days\)$/);
  });
});
