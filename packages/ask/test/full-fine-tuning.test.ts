import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { FULL_FINE_TUNING_AS_PRETRAINING, PLAIN_FINE_TUNING_AS_FULL } from '../src/answer/training-memory.ts';
import { FINE_TUNING_DECLINED } from '../src/scope.ts';

const options = { publicUrl: null, today: '2026-11-28' } as const;

/**
 * Full fine-tuning trains every weight, so its memory per GPU is pretraining's for the same model, batch, sequence length
 * and parallelism: 2 bytes of BF16 weights, 2 of gradients and 12 of Adam's FP32 master copy and two moments a parameter
 * (Rajbhandari et al. 2020, ZeRO §3.1), and the activations. So the answer is the pretraining memory answer, word for
 * word, with one assumption more saying so.
 */
describe('full fine-tuning memory is answered as pretraining memory; adapters stay declined', () => {
  it('"how much vram to full finetune a 7b with adam": the memory answer of "how much vram to train a 7b with adam", said as costed so', () => {
    const tuned = ask('how much vram to full finetune a 7b with adam', options);
    const pretrained = ask('how much vram to train a 7b with adam', options);
    expect(tuned.kind).toBe('answer');
    expect(tuned.intent).toBe('memory');
    expect(tuned.headline).toBe(pretrained.headline);
    expect(tuned.memoryPerGpuBytes).toBe(pretrained.memoryPerGpuBytes);
    expect(tuned.figures.find((f) => f.label === 'Memory by part')?.value).toMatch(/^weights .* · gradients .* · optimizer states .* · activations /);
    expect(tuned.assumptions).toContain(FULL_FINE_TUNING_AS_PRETRAINING);
    expect(pretrained.assumptions).not.toContain(FULL_FINE_TUNING_AS_PRETRAINING);
  });

  it.each([
    'how much memory for full-parameter fine-tuning of llama3 8b on 8 h100',
    'how much vram to fully fine-tune llama3 8b',
  ])('"%s" is answered too', (question) => {
    const a = ask(question, options);
    expect(a.kind).toBe('answer');
    expect(a.assumptions).toContain(FULL_FINE_TUNING_AS_PRETRAINING);
  });

  it.each([
    ['how much memory to fine tune llama3 8b on one h100', 'how much memory to train llama3 8b on one h100'],
    ['how much vram to finetune a 7b', 'how much vram to train a 7b'],
    ['memory for sft of llama3 8b on 8 h100', 'memory for training of llama3 8b on 8 h100'],
  ])('"%s", no method named, is full fine-tuning: the memory of "%s", said read so (QA: declined)', (question, pretraining) => {
    const tuned = ask(question, options);
    const pretrained = ask(pretraining, options);
    expect(tuned.kind).toBe('answer');
    expect(tuned.intent).toBe('memory');
    expect(tuned.headline).toBe(pretrained.headline);
    expect(tuned.assumptions).toContain(`${PLAIN_FINE_TUNING_AS_FULL}; ${FULL_FINE_TUNING_AS_PRETRAINING}`);
  });

  it.each([
    'how much vram to lora finetune a 7b',
    'how much vram to full fine-tune llama3 8b with qlora',
    'how much memory to dpo fine tune llama3 8b on one h100',
    'how long to full finetune llama3 8b on 1B tokens on 8 h100',
  ])('"%s" stays declined: an adapter, a preference tuning with a reference model, or no memory question', (question) => {
    expect(ask(question, options).headline).toBe(`I could not answer that: ${FINE_TUNING_DECLINED}.`);
  });
});
