/**
 * The width of every chart that draws text (pipeline, scaling, time–cost, serving frontier), in viewBox units. Their
 * text is 10 units (styles.ts, `.axis` and `.mb`), so it is 10 × (drawn width / CHART_VIEWBOX_WIDTH) px on screen. The
 * narrowest column a chart is drawn in is 278 px (a 320 px phone's page: its 8 px margins, the element's 12 px padding
 * and 1 px border each side): at 270 units the text is 10.3 px there (320 units drew it at 8.7 px, 400 at 6.9 px).
 */
export const CHART_VIEWBOX_WIDTH = 270;

/**
 * The widest a chart is drawn, in CSS px (styles.ts caps each at it): its 10-unit text is then 14 px (10 × 378 / 270),
 * where the whole results column at 1280 px drew it at 30 px.
 */
export const CHART_MAX_WIDTH_PX = 378;

/**
 * The viewBox width for a chart drawn `px` CSS px wide (its whole column): at least CHART_VIEWBOX_WIDTH, and wider
 * where its text would pass 14 px, so that a chart drawn at 100% of a wide column keeps 14 px text (the scaling chart:
 * capped at CHART_MAX_WIDTH_PX it stayed 350 px wide in a 1,384 px embed).
 */
export const viewBoxWidthFor = (px: number): number => Math.max(CHART_VIEWBOX_WIDTH, Math.ceil((px * CHART_VIEWBOX_WIDTH) / CHART_MAX_WIDTH_PX));

/**
 * A 10-unit character's width, for keeping labels apart before the browser draws them: DejaVu Sans's digits
 * (0.636 em), the widest of the fonts `system-ui` falls back to on Linux; most letters are narrower.
 */
export const CHAR_WIDTH = 6.4;

/** About how wide `text` is drawn at 10 units, in viewBox units. */
export const textWidth = (text: string): number => text.length * CHAR_WIDTH;
