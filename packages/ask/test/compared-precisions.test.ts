import { describe, expect, it } from 'vitest';
import type { SearchResponseJson } from '@trainplan/protocol';
import { gpuById } from '@trainplan/presets';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

type SearchOk = Extract<SearchResponseJson, { ok: true }>;
const line = (a: ReturnType<typeof ask>, label: string): string => a.figures.find((f) => f.label === label)?.value ?? '';
const CLUSTER = 'for llama3-70b on 512 H100 2T tokens';

describe('two precisions named, or FP8 asked about, are both planned side by side', () => {
  it.each([
    [`does fp8 help ${CLUSTER}`, 'fp8', 'bf16'],
    [`is fp8 faster than bf16 ${CLUSTER}`, 'fp8', 'bf16'],
    [`compare bf16 vs fp8 ${CLUSTER}`, 'bf16', 'fp8'],
    ['train llama3-70b on 512 H100 2T tokens in bf16 and fp8', 'bf16', 'fp8'],
  ])('"%s": %s beside %s', (question, first, second) => {
    const q = parse(question);
    expect(q.stated.precision).toBe(first);
    expect(q.stated.comparedPrecisions).toEqual([second]);
  });

  it('each precision\'s line has its own time, MFU and memory, as each planned alone', () => {
    const a = ask(`is fp8 faster than bf16 ${CLUSTER}`, { publicUrl: null });
    expect(a.headline).toMatch(/^FP8 vs BF16 for Llama 3 70B on H100 SXM5 80GB: FP8: .*; BF16: /);
    const alone = (precision: string): SearchOk => ask(`train llama3-70b on 512 H100 2T tokens in ${precision}`, { publicUrl: null }).data as SearchOk;
    for (const [label, precision] of [['FP8', 'fp8'], ['BF16', 'bf16']] as const) {
      const best = alone(precision).best;
      expect(line(a, label)).toContain(`${Math.round((best.days ?? 0) * 10) / 10}`.replace(/\.0$/, ''));
      expect(line(a, label)).toMatch(/MFU [\d.]+%/);
      expect(line(a, label)).toMatch(/memory per GPU [\d.]+ GiB of [\d.]+ GiB/);
    }
  });

  it('one precision asked, with no comparison word, is planned alone', () => {
    expect(parse(`train llama3-70b on 512 H100 2T tokens in fp8`).stated.comparedPrecisions).toBeUndefined();
    // A GPU without FP8 has nothing to compare "does fp8 help" with but its refusal: no 16-bit plan is slipped in unasked.
    expect(parse('does bf16 help for llama3-70b on 512 H100').stated.comparedPrecisions).toBeUndefined();
  });
});

describe('an FP8 plan\'s MFU says its denominator', () => {
  it('"30.1% of the FP8 peak (60.2% of the BF16 peak)": the BF16 figure is the FP8 one scaled by the peaks', () => {
    const a = ask('train llama3-70b on 512 H100 2T tokens in fp8', { publicUrl: null });
    const mfu = (a.data as SearchOk).best.estimate.mfu;
    const peaks = gpuById('h100-sxm')?.peakFlops;
    const ratio = (peaks?.fp8 ?? 0) / (peaks?.bf16 ?? 1);
    const m = /^([\d.]+)% of the FP8 peak \(([\d.]+)% of the BF16 peak\)$/.exec(line(a, 'MFU'));
    expect(m).not.toBeNull();
    expect(Number(m?.[1])).toBeCloseTo(mfu * 100, 1);
    expect(Number(m?.[2])).toBeCloseTo(mfu * ratio * 100, 1);
    expect(a.headline).toContain('% MFU of the FP8 peak (');
  });

  it('a BF16 plan\'s MFU is the BF16 peak\'s, said as before', () => {
    expect(line(ask('train llama3-70b on 512 H100 2T tokens', { publicUrl: null }), 'MFU')).toMatch(/^[\d.]+%$/);
  });
});
