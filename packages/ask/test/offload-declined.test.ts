import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const OPTIONS = { publicUrl: null, today: '2026-11-28' } as const;

/**
 * CPU and NVMe offload move weights, gradients or optimizer state off the GPU; the planner keeps them all in GPU memory. A
 * question asking with offload is declined saying so, never answered "does not fit" on GPU memory alone nor planned as ZeRO-3
 * with the offload unsaid (QA: all six phrasings below were).
 */
describe('offload is declined as not modelled', () => {
  it.each([
    'how much memory to train llama3-70b with ZeRO-Infinity on 8 H100',
    'how much memory to train llama3-70b with ZeRO-Offload on 8 H100',
    'how much memory to train llama3-70b with CPU offload on 8 H100',
    'how much memory to train llama3-70b with optimizer offload to CPU on 8 H100',
    'how much memory to train llama3-70b with NVMe offload on 8 H100',
    'how much memory to train llama3-70b with FSDP and CPU offload on 8 H100',
    'how much memory to train llama3-70b on 8 H100 if we offload the optimizer states to the cpu',
    'how long to train llama3-70b on 8 h100 with offloading',
  ])('"%s"', (question) => {
    const q = parse(question, OPTIONS);
    expect(q.problems).toHaveLength(1);
    expect(q.problems[0]).toMatch(/^CPU and NVMe offload \(ZeRO-Offload, ZeRO-Infinity, FSDP's CPU offload\) are not modelled: trainplan keeps the weights, gradients, optimizer state and activations in GPU memory/);
    expect(q.problems[0]).toContain('ZeRO stages 1–3');
    const a = ask(question, OPTIONS);
    expect(a.kind).toBe('refusal');
    expect(a.headline).not.toContain('does not fit');
  });

  it.each([
    ['how much memory to train llama3-70b with ZeRO-3 on 64 H100', { zeroStage: 3 }],
    ['how much memory to train llama3-70b with FSDP on 64 H100', { zeroStage: 3 }],
    ['how long to train llama3-8b on 1T tokens on 64 H100 after loading the checkpoint', { model: 'llama3-8b' }],
    ['how long to train llama3-8b on 1T tokens on 64 H100 once the data download is done', { model: 'llama3-8b' }],
  ])('"%s" is planned: no offload named', (question, stated) => {
    const q = parse(question, OPTIONS);
    expect(q.problems.join(' ')).not.toContain('offload');
    expect(q.stated).toMatchObject(stated);
  });
});
