/** Horizontal bars in unicode block elements, to an eighth of a cell. */
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'] as const;
const FULL = '█';

export const DEFAULT_BAR_WIDTH = 30;

/**
 * A bar `fraction` of `width` cells long. The fraction is clamped to [0, 1]; a positive fraction
 * too small to draw still shows a sliver, so "small" never looks like "none".
 */
export function bar(fraction: number, width: number = DEFAULT_BAR_WIDTH): string {
  if (!Number.isFinite(fraction) || fraction <= 0 || width <= 0) return '';
  const eighths = Math.max(1, Math.round(Math.min(1, fraction) * width * 8));
  return FULL.repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] ?? '');
}
