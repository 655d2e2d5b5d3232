import { describe, expect, it } from 'vitest';
import type { NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

describe('how long on fewer GPUs than a node: the GPUs named, as the best configuration plans them', () => {
  it.each([
    ['how long to train gpt3-126m on 1 gpu', 1],
    ['how long to train gpt3-126m on 300B tokens on 4 h100', 4],
    ['how long to train llama3-8b on 1T tokens on 2 a100', 2],
  ])('"%s" plans %d GPUs, not "not whole nodes"', (question, gpus) => {
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(true);
    expect((a.data as NodesOk).gpus).toBe(gpus);
    expect(a.headline).toMatch(new RegExp(` days?(?: \\([\\d.]+ years\\))? to train [\\d.]+[BT] tokens on ${gpus} GPUs?$`));
  });

  it('a model that fits on none of them is refused for the GPUs named, its closest in whole nodes', () => {
    const a = ask('how long to train 70b on 4 h100', { publicUrl: null });
    expect(a.ok).toBe(false);
    expect(a.headline).toContain('no configuration of 4 GPUs runs: out of memory');
    expect(a.configuration).toMatch(/ on \d+ × 8 H100 /);
  });

  it('GPUs past a node that fill no whole node are still refused with the multiples to ask', () => {
    // 12 on nodes of 8: ⌊12/8⌋ = 1 node (8 GPUs) or 2 nodes (16 GPUs).
    expect(ask('how long to train gpt3-126m on 12 h100', { publicUrl: null }).headline).toMatch(/12 GPUs do not fill whole nodes of 8 GPUs: ask for 8 \(1 node\) or 16 \(2 nodes\)/);
  });

  it.each([
    'how long to train llama3 70b on 2T tokens on 1.5k h100',
    'how long to train llama3 70b on 2T tokens on 1500 h100',
    'best config for llama3 70b on 1500 h100',
  ])('"%s": the nearest whole-node counts either side, as the best configuration gives them (QA: none given)', (question) => {
    // 1,500 / 8 = 187.5: 187 nodes (1,496 GPUs) or 188 (1,504).
    const a = ask(question, { publicUrl: null, today: '2026-11-28' });
    expect(a.ok).toBe(false);
    expect(a.headline).toContain('1,500 GPUs do not fill whole nodes of 8 GPUs: ask for 1,496 (187 nodes) or 1,504 (188 nodes)');
  });
});
