/** Escapes text for HTML and SVG markup: every chart interpolates through this. */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Rounds a coordinate to 0.01 px so the markup stays small. */
export const px = (x: number): string => String(Math.round(x * 100) / 100);

/**
 * A colour for series index i that stays distinct over many series (golden-angle hues), at `lightness` percent: the
 * pipeline chart's forward boxes at FORWARD_LIGHTNESS, its backward ones paler at BACKWARD_LIGHTNESS. Both are light
 * enough for its black micro-batch numbers (styles.ts, `.mb`) at 4.5:1 or more on every hue, in either theme (the
 * fill is opaque, so the page's background does not show through): the darkest is blue, hsl(240 65% 65%) =
 * rgb(108, 108, 224), of relative luminance 0.193 and 4.86:1 against black (WCAG 2.2, 1.4.3). White numbers on
 * 55% boxes, the backward ones at 55% opacity, were 1.4–2.3:1 (QA).
 */
export const hue = (i: number, lightness: number): string => `hsl(${Math.round((i * 137.508) % 360)} 65% ${lightness}%)`;

export const FORWARD_LIGHTNESS = 65;
export const BACKWARD_LIGHTNESS = 82;
