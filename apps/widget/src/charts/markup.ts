/** Escapes text for HTML and SVG markup: every chart interpolates through this. */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Rounds a coordinate to 0.01 px so the markup stays small. */
export const px = (x: number): string => String(Math.round(x * 100) / 100);

/** A colour for series index i that stays distinct over many series (golden-angle hues). */
export const hue = (i: number): string => `hsl(${Math.round((i * 137.508) % 360)} 65% 55%)`;
