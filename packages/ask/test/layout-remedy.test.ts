import { pipelineSplit } from '@trainplan/model';
import { modelById } from '@trainplan/presets';
import type { EstimateJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

describe('a layout that does not divide the GPUs is refused with the fix, which then answers', () => {
  it.each([
    // Llama 2 7B's 32 key/value heads split over TP 16 (Llama 3 8B's 8 do not: below).
    ['step time of llama2-7b on 8 H100 with tp 16', 'TP can be at most 8 on 8 GPUs ("with tp 8"), or ask on 16 GPUs', 'tp 16', ['tp 8', 'tp 16 on 16 gpus']],
    ['step time of llama3-8b on 8 H100 with tp 3', 'TP must divide the 8 GPUs: TP 2 does ("with tp 2")', 'tp 3', ['tp 2']],
    ['step time of llama3-8b on 8 H100 with pp 16', 'PP can be at most 8 on 8 GPUs ("with pp 8"), or ask on 128 GPUs', 'pp 16', ['pp 8']],
    ['step time of llama3-8b on 8 H100 with tp 4 pp 4', 'give a TP × PP × CP that divides the 8 GPUs (e.g. "tp 8 pp 1"), or ask on 16 GPUs', 'tp 4 pp 4', ['tp 8 pp 1']],
  ])('"%s": %s', (question, remedy, asked, fixes) => {
    const a = ask(question, { publicUrl: null });
    expect(a.kind).toBe('refusal');
    expect(a.headline.endsWith(`; ${remedy}`)).toBe(true);
    // Each fix the refusal gives, asked in its words, is answered.
    for (const fix of fixes) {
      const fixed = ask(question.replace('on 8 H100 ', fix.includes(' on ') ? '' : 'on 8 H100 ').replace(asked, fix), { publicUrl: null });
      expect(fixed.ok).toBe(true);
    }
  });
});

/** The rules a layout that does not fit the GPUs or the model's layers breaks. */
const LAYOUT_RULES = ['gpus-indivisible', 'too-many-stages', 'pipeline-split', 'heads-indivisible'];
function layoutIssues(question: string): string[] {
  const result = ask(question, { publicUrl: null }).data as EstimateJson;
  return result.ok ? [] : (result.issues ?? []).flatMap((i) => (i.rule !== undefined && LAYOUT_RULES.includes(i.rule) ? [i.rule] : []));
}

describe('a remedy suggests only sizes the model takes', () => {
  const layers = modelById('gpt3-175b')!.shape.layers;

  it('PP past the GPUs on GPT-3: the PP suggested is a Megatron split of its layers that divides the GPUs, never PP 64 for 96 layers', () => {
    const a = ask('step time of gpt3-175b on 64 H100 with pp 128', { publicUrl: null });
    const pipeline = Number(/\("with pp (\d+)"\)/.exec(a.headline)?.[1]);
    expect(pipeline).toBeLessThanOrEqual(layers);
    expect(pipelineSplit(layers, pipeline)).toBeDefined();
    expect(64 % pipeline).toBe(0);
    expect(layoutIssues(`step time of gpt3-175b on 64 H100 with pp ${pipeline}`)).toEqual([]);
    // PP 128 has more stages than GPT-3 has layers: no cluster runs it, so none is offered.
    expect(a.headline).not.toMatch(/or ask on/);
  });

  it('TP × PP on 1,024 GPUs: the layout suggested divides them, with a PP no deeper than the layers, and runs', () => {
    const a = ask('step time of gpt3-175b on 128 a100 nodes with tp 8 pp 7', { publicUrl: null });
    const suggested = /\(e\.g\. "([^"]+)"\)/.exec(a.headline)?.[1] ?? '';
    const pipeline = Number(/pp (\d+)/.exec(suggested)?.[1]);
    expect(pipeline).toBeLessThanOrEqual(layers);
    expect(layoutIssues(`step time of gpt3-175b on 128 a100 nodes with ${suggested}`)).toEqual([]);
  });

  it('TP 16 past 8 GPUs for Llama 3 8B, whose 8 key/value heads TP 16 does not split: TP 8, and no larger cluster offered', () => {
    expect(layoutIssues('step time of llama3-8b with tp 16 on 16 gpus')).toContain('heads-indivisible');
    const a = ask('step time of llama3-8b on 8 H100 with tp 16', { publicUrl: null });
    expect(a.headline.endsWith('; TP can be at most 8 on 8 GPUs ("with tp 8")')).toBe(true);
  });
});
