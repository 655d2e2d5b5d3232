/// <reference lib="dom" />
/**
 * The element's stylesheet, inside its shadow root: its rules do not leak into the host page, and the page's rules
 * match nothing inside it, but they do match the element itself, and a page rule matching it (`*{color:#e8e8e8}` on a
 * dark docs site, `*{font-size:30px;line-height:3}`) beats `:host` and is inherited by everything inside. So the text
 * colour and the font (its size and line height with it) are set on the inner root, `.tp`, where only this sheet
 * reaches (QA: light text on the white box on such a page); what stays on `:host` (display, background, border,
 * padding, width) such a rule can still override. Themeable through CSS custom properties set on the element or any ancestor:
 * --trainplan-bg, --trainplan-fg, --trainplan-muted, --trainplan-border, --trainplan-accent,
 * --trainplan-error, --trainplan-font, --trainplan-radius, and the series colours
 * --trainplan-compute, --trainplan-recompute, --trainplan-tp, --trainplan-cp, --trainplan-bubble,
 * --trainplan-pp, --trainplan-dp, --trainplan-optimizer, --trainplan-weights, --trainplan-gradients,
 * --trainplan-optimizer-state, --trainplan-activations, --trainplan-other, and serving's --trainplan-kv-cache.
 * Light and dark follow prefers-color-scheme unless theme="light" or theme="dark" is set; each sets `color-scheme` too, so
 * that the native controls (checkboxes, selects, scroll bars) follow the theme, not the page's (QA: light checkboxes on
 * the dark theme). Placeholders take --_muted: Chromium's own grey, rgb(117, 117, 117), is 3.5:1 on the dark theme's
 * fields (#1e2127), under WCAG's 4.5:1; the muted greys are 6.0:1 (#5b6470 on #fff) and 6.3:1 (#9aa3ad on #1e2127) by
 * WCAG 2.2's relative luminance (the browser test computes it). The text inputs' and selects' borders take --_muted too
 * (WCAG 2.2 1.4.11 Non-text Contrast, 3:1 for a component's boundary): in --_border, #d5d9de on #fff and #353a42 on
 * #1e2127, they were 1.4:1 (QA); in --_muted they are 6.0:1 and 6.3:1 (6.9:1 on the dark background), and the field's
 * fill may equal the page's. --_border stays for the box and the fieldsets, which only group. Stale results (an
 * error in the form, an answer on its way) keep their full colours, under a dashed outline and "Results for the last
 * valid scenario." (WCAG 1.4.3 Contrast (Minimum): they are still read; dimmed to 45% opacity, their text fell to
 * 2.8:1 and the grey labels to 1.97:1, QA). The live regions (.status, .note, .warnings, .msg) are
 * never display:none: a region absent from the accessibility tree until it is filled is often not announced (QA);
 * empty, their margins are zero, so they take no room, as display:none did. The status says progress ("Estimating…",
 * `.busy`) in the muted colour and errors in the error colour. Each series class sets only
 * --_series, which one rule paints as a bar's fill and a legend swatch's background (106 B of the gzip budget, against
 * both properties spelled out per class).
 *
 * The pipeline, time–cost and serving charts share one viewBox width and are drawn at most CHART_MAX_WIDTH_PX
 * wide, so their 10-unit text is 10 px or more in a 320 px phone's column and 14 px at most (charts/chart-size.ts);
 * the scaling chart fills its column, its viewBox widened to keep the text at 14 px at most (viewBoxWidthFor).
 */
import { CHART_MAX_WIDTH_PX } from '../charts/chart-size.ts';

let shared: CSSStyleSheet | undefined;

/**
 * The stylesheet as a constructable CSSStyleSheet (adoptedStyleSheets), which a strict Content Security
 * Policy (`style-src 'self'`, no 'unsafe-inline') does not block the way it blocks a <style> element;
 * one sheet shared by every instance. `undefined` where the browser has no constructable stylesheets.
 */
export function constructedStyles(): CSSStyleSheet | undefined {
  if (shared) return shared;
  try {
    // No typeof checks: where ShadowRoot or CSSStyleSheet is missing this throws a ReferenceError, and where a
    // CSSStyleSheet cannot be constructed a TypeError, both caught below (undefined, as those checks returned).
    if (!('adoptedStyleSheets' in ShadowRoot.prototype)) return undefined;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
    shared = sheet;
    return sheet;
  } catch {
    return undefined;
  }
}

const LIGHT = `--_bg:var(--trainplan-bg,#fff);--_fg:var(--trainplan-fg,#1b1f24);--_muted:var(--trainplan-muted,#5b6470);
--_border:var(--trainplan-border,#d5d9de);--_accent:var(--trainplan-accent,#2563eb);--_error:var(--trainplan-error,#b42318);--_idle:#eceef1;--_field:#fff;color-scheme:light;`;
const DARK = `--_bg:var(--trainplan-bg,#16181d);--_fg:var(--trainplan-fg,#e6e8eb);--_muted:var(--trainplan-muted,#9aa3ad);
--_border:var(--trainplan-border,#353a42);--_accent:var(--trainplan-accent,#7aa7ff);--_error:var(--trainplan-error,#ff8a80);--_idle:#262a31;--_field:#1e2127;color-scheme:dark;`;

export const STYLES = `
:host{${LIGHT}display:block;container-type:inline-size;background:var(--_bg);
border:1px solid var(--_border);border-radius:var(--trainplan-radius,10px);padding:12px;box-sizing:border-box;max-width:100%}
@media (prefers-color-scheme:dark){:host(:not([theme=light])){${DARK}}}
:host([theme=dark]){${DARK}}
:host([hidden]){display:none}
*{box-sizing:border-box}
.tp{display:grid;grid-template-columns:minmax(0,19rem) minmax(0,1fr);gap:16px;color:var(--_fg);font:var(--trainplan-font,14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif)}
@container (max-width:44rem){.tp{grid-template-columns:minmax(0,1fr)}}
fieldset{border:1px solid var(--_border);border-radius:8px;margin:0 0 8px;padding:6px 8px 2px;display:grid;grid-template-columns:repeat(auto-fill,minmax(7.5rem,1fr));grid-auto-flow:row dense;gap:0 8px;min-width:0}
legend{font-weight:600;padding:0 4px}
.field{display:grid;grid-row:span 2;grid-template-rows:subgrid;min-width:0;margin-bottom:6px}
.field label{align-self:end}
.field.wide{grid-column:1/-1}
.field.check{display:flex;flex-wrap:wrap;align-items:center;align-self:end;gap:0 6px}
.hint{flex-basis:100%;font-size:.8em;color:var(--_muted)}
.field.check label{align-self:center;flex:1 1 0;min-width:0}
label{font-size:.85em;color:var(--_muted)}
.check label{color:var(--_fg)}
input,select{font:inherit;color:var(--_fg);background:var(--_field);border:1px solid var(--_muted);border-radius:6px;padding:3px 6px;min-width:0;width:100%}
input[type=checkbox]{width:auto}
::placeholder{color:var(--_muted)}
:focus-visible{outline:2px solid var(--_accent);outline-offset:1px}
[aria-invalid=true]{border-color:var(--_error)}
.msg{grid-column:1/-1;color:var(--_error);font-size:.8em;margin:-3px 0 6px}
[hidden]{display:none!important}
.outputs{min-width:0}
.stale{outline:2px dashed var(--_muted);outline-offset:4px}
.stale-note{display:none;margin:0 0 8px;font-size:.85em;font-weight:600}
.stale .stale-note{display:block}
.status{margin:0 0 8px;color:var(--_error)}
.busy{color:var(--_muted)}
.note{margin:0 0 8px;font-size:.85em;color:var(--_muted)}
.headline{display:flex;flex-wrap:wrap;gap:4px 16px;margin:0 0 8px}
.headline div{display:grid}
.headline b{font-size:1.35em;font-variant-numeric:tabular-nums}
.headline span{font-size:.8em;color:var(--_muted)}
.warnings{margin:0 0 8px;padding:0 0 0 1.2em;font-size:.85em}
[aria-live]:empty,.warnings:empty{margin:0}
.warnings li::marker{content:'⚠ '}
h3{font-size:.95em;margin:12px 0 4px}
.chart{display:block;width:100%;height:auto;overflow:visible}
.breakdown,.memory{height:28px}
.pipeline,.chart.frontier,.serving-frontier{max-width:${CHART_MAX_WIDTH_PX}px}
.frontier{margin-top:8px}
.scale{display:flex;justify-content:space-between;gap:8px;font-size:.75em;color:var(--_muted);font-variant-numeric:tabular-nums}
.legend{list-style:none;margin:4px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:2px 12px;font-size:.8em}
.swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:4px;vertical-align:-1px}
.caption{font-size:.8em;color:var(--_muted);margin:4px 0 0}
.axis{font-size:10px;fill:var(--_muted)}
.axis-title{font-style:italic}
.label{paint-order:stroke;stroke:var(--_bg);stroke-width:3px;stroke-linejoin:round}
.mb{font-size:10px;fill:#000;pointer-events:none}
.idle{fill:var(--_idle)}
.capacity{stroke:var(--_fg);stroke-width:2;stroke-dasharray:3 2}
.line{fill:none;stroke:var(--_accent);stroke-width:2}
.line.all{stroke-width:.75;opacity:.5}
.ideal{fill:none;stroke:var(--_muted);stroke-width:1;stroke-dasharray:4 3}
.dot{fill:var(--_accent)}
.dot.current{stroke:var(--_fg);stroke-width:2}
.dot.off-curve{fill:var(--_bg);stroke:var(--_accent);stroke-width:1.5}
.mark{fill:none;stroke:var(--_fg);stroke-width:1.5}
.mark.fastest{stroke-dasharray:2 2}
.frame{fill:none;stroke:var(--_border)}
.bound{stroke:var(--_error);stroke-width:1.5;stroke-dasharray:4 3}
.answer p{margin:0 0 8px;font-weight:600}
.answer-label{font-weight:600}
.remedies{margin:-4px 0 8px;padding:0 0 0 1.2em;font-size:.85em}
.answer .remedies-lead{margin:0 0 2px;font-weight:400;font-size:.85em}
.share a{color:var(--_accent)}
.seg,.mem,.swatch{fill:var(--_series);background:var(--_series)}
.seg-compute{--_series:var(--trainplan-compute,#2563eb)}
.seg-recompute{--_series:var(--trainplan-recompute,#60a5fa)}
.seg-tp{--_series:var(--trainplan-tp,#f59e0b)}
.seg-cp{--_series:var(--trainplan-cp,#eab308)}
.seg-bubble{--_series:var(--trainplan-bubble,#9ca3af)}
.seg-pp{--_series:var(--trainplan-pp,#a855f7)}
.seg-dp{--_series:var(--trainplan-dp,#10b981)}
.seg-optimizer{--_series:var(--trainplan-optimizer,#ef4444)}
.mem-weights{--_series:var(--trainplan-weights,#2563eb)}
.mem-gradients{--_series:var(--trainplan-gradients,#0ea5e9)}
.mem-optimizer{--_series:var(--trainplan-optimizer-state,#a855f7)}
.mem-kv{--_series:var(--trainplan-kv-cache,#10b981)}
.mem-draft{--_series:var(--trainplan-draft-model,#ec4899)}
.mem-activations{--_series:var(--trainplan-activations,#f59e0b)}
.mem-other{--_series:var(--trainplan-other,#9ca3af)}
`;
