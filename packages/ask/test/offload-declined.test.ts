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
    // Model state said to live in host memory, or the model moved there, with no method named.
    'how much memory to train llama3-70b on 8 H100 with the optimizer states kept in cpu memory',
    'how much memory to serve llama3-70b on 1 H100 if we offload the model to cpu',
    'how much memory to train llama3-70b on 8 H100 with activation offloading',
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

  /**
   * QA: each was declined as ZeRO-Offload, naming no weights, gradients, optimizer state or activations moved off the GPU:
   * traffic sent to another region, and checkpoints written to disk, are no model state kept in host memory.
   */
  it.each([
    ['how many H100 to serve llama3-8b at 1000 requests/s and offload traffic to a second region', { model: 'llama3-8b', requestsPerSecond: 1000 }],
    ['how many H100 to serve llama3-8b at 1000 requests/s with offload of overflow traffic', { model: 'llama3-8b', requestsPerSecond: 1000 }],
    ['how many H100 nodes to train a 70B model on 2T tokens in 30 days and offload checkpoints to disk', { model: 'llama3-70b', tokens: 2e12, deadlineSeconds: 30 * 86_400 }],
  ])('"%s" is answered: the offload moves no model state', (question, stated) => {
    const q = parse(question, OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject(stated);
    expect((q.notRead ?? []).map((n) => n.why).join(' ')).not.toContain('ZeRO-Offload');
    const a = ask(question, OPTIONS);
    expect(a.ok).toBe(true);
    expect(a.headline).not.toContain('offload');
  });

  it('a bare "with offloading" is planned in GPU memory and said not read, never declined nor dropped unsaid', () => {
    const question = 'how long to train llama3-70b on 64 h100 with offloading';
    const q = parse(question, OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.notRead).toEqual([{
      phrase: '"with offloading"',
      why: 'it names no weights, gradients, optimizer state or activations moved off the GPU; offloading those (ZeRO-Offload, FSDP\'s CPU offload) is not modelled, and this plan keeps them all in GPU memory',
    }]);
    expect(ask(question, OPTIONS).kind).toBe('answer');
  });
});
