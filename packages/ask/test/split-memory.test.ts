import { describe, expect, it } from 'vitest';
import { modelById } from '@trainplan/presets';
import { ask } from '../src/answer/answer.ts';

const GIB = 2 ** 30;

describe('a memory question with no layout or cluster says the split its figure is under, and one GPU\'s whole need', () => {
  it('"how much vram does a 7b model need to train with adam": per GPU under TP 8, and one GPU alone', () => {
    // QA: "17.9 GiB per GPU" led, under a TP 8 the headline never said.
    const a = ask('how much vram does a 7b model need to train with adam', { publicUrl: null });
    expect(a.headline).toMatch(/^Llama 2 7B on H100 SXM5 80GB: [\d.]+ GiB per GPU of 79\.6 GiB when split over 8 GPUs with TP 8 \(fits for training\); ([\d.]+) GiB on one GPU alone \(does not fit\)$/);
    // One GPU holds every state whole: mixed-precision Adam keeps at least 16 bytes a parameter (fp16 weights and
    // gradients, fp32 master weights, momentum and variance: Rajbhandari et al. 2020, §3.1), activations beside.
    const alone = Number(/([\d.]+) GiB on one GPU alone/.exec(a.headline)?.[1]) * GIB;
    expect(alone).toBeGreaterThan(16 * (modelById('llama2-7b')?.publishedParameters ?? 0));
  });

  it('a layout or a cluster stated: the headline as before', () => {
    expect(ask('memory for 70B with tp 8 pp 4 on A100 80GB', { publicUrl: null }).headline).toMatch(/GiB per GPU of 80\.0 GiB \(fits for training\)$/);
  });
});
