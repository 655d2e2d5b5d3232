import { esc } from './markup.ts';

/**
 * The value axis under a one-bar chart: 0 at the left, the bar's full length at the right, and between them
 * the axis's title with the unit the ends are in. `end` is a formatted quantity ("29.6 s", "80.0 GiB"), whose
 * unit is moved into the title: `title('s')` → "step time (s)", with "29.6" at the end.
 */
export function barScale(end: string, title: (unit: string) => string): string {
  const space = end.indexOf(' ');
  const [value, unit] = space < 0 ? [end, ''] : [end.slice(0, space), end.slice(space + 1)];
  return `<div class="scale"><span class="end">0</span><span class="axis-title" data-axis="x">${esc(title(unit))}</span><span class="end">${esc(value)}</span></div>`;
}
