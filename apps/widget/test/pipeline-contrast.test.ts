import { CONTRACT_EXAMPLE, runEstimate, type EstimateOk } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { BACKWARD_LIGHTNESS, FORWARD_LIGHTNESS, hue } from '../src/charts/markup.ts';
import { pipelineSection } from '../src/element/results.ts';
import { STYLES } from '../src/element/styles.ts';

// WCAG 2.2's contrast ratio (Understanding SC 1.4.3, "relative luminance"): sRGB channels linearised, weighted
// 0.2126 R + 0.7152 G + 0.0722 B, and (L1 + 0.05) / (L2 + 0.05), the lighter over the darker.
const linear = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
const luminance = ([r, g, b]: readonly number[]) => 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
const contrast = (a: readonly number[], b: readonly number[]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

/** CSS Color 4's hsl() → sRGB, each channel rounded to 8 bits as a browser paints it. */
function hslToRgb(h: number, s: number, l: number): number[] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => { const k = (n + h / 30) % 12; return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)); };
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255));
}
const parseHsl = (css: string) => {
  const [h, s, l] = css.match(/^hsl\((\d+) (\d+)% (\d+)%\)$/)!.slice(1).map(Number);
  return hslToRgb(h!, s! / 100, l! / 100);
};

/** The micro-batch numbers' fill, as the stylesheet gives it (`.mb`): one colour in both themes. */
const numberFill = (): number[] => {
  const hex = STYLES.match(/\.mb\{[^}]*fill:#([0-9a-f]{3}|[0-9a-f]{6})[;}]/)![1]!;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
};

describe('the pipeline chart\'s micro-batch numbers', () => {
  it('measures contrast as WCAG does: black on white 21:1, and the darkest box, blue, worked out by hand', () => {
    expect(contrast([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 6);
    // hsl(240 65% 65%): a = 0.65 × min(0.65, 0.35) = 0.2275; R = G = 0.65 − a = 0.4225 → 108, B = 0.65 + a = 0.8775 → 224.
    expect(hslToRgb(240, 0.65, 0.65)).toEqual([108, 108, 224]);
    // Linearised 0.1499, 0.1499 and 0.7454: L = 0.2126 × 0.1499 + 0.7152 × 0.1499 + 0.0722 × 0.7454 = 0.1929; (0.1929 + 0.05) / 0.05 = 4.86.
    expect(contrast([0, 0, 0], [108, 108, 224])).toBeCloseTo(4.86, 2);
  });

  it('stand 4.5:1 or more against every box colour, forward and backward, on every hue, in light and dark alike (QA: white on pale boxes, 1.4–2.3:1)', () => {
    const text = numberFill();
    // Opaque fills (no fill-opacity over the theme's background): the ratio does not depend on the theme.
    expect(STYLES).not.toMatch(/\.op[^{]*\{[^}]*opacity/);
    for (const lightness of [FORWARD_LIGHTNESS, BACKWARD_LIGHTNESS]) {
      for (let i = 0; i < 360; i += 1) {
        const box = parseHsl(hue(i, lightness));
        expect(contrast(text, box), `${hue(i, lightness)}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('stand 4.5:1 or more on each box the default plan numbers (GPT-3 175B, p = 8: the boxes the QA measured)', () => {
    const html = pipelineSection(runEstimate(CONTRACT_EXAMPLE) as EstimateOk);
    const numbered = [...html.matchAll(/<rect class="op (fwd|bwd)" fill="(hsl\([^)]+\))"[^>]*>.*?<\/rect><text [^>]*class="mb">(\d+)<\/text>/g)];
    expect(numbered.length).toBeGreaterThan(8);
    for (const [, kind, fill, n] of numbered) expect(contrast(numberFill(), parseHsl(fill!)), `${kind} ${n}`).toBeGreaterThanOrEqual(4.5);
    // Forward boxes solid, backward ones paler, as the caption says.
    expect(html).toContain('Solid: forward; pale: backward');
    expect(BACKWARD_LIGHTNESS).toBeGreaterThan(FORWARD_LIGHTNESS);
  });
});
