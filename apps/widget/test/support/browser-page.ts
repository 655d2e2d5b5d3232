import { createApi } from '@trainplan/api';
import type { BrowserContext, Locator, Page } from 'playwright-core';

/** A request a page made of the API: its method and path. */
export interface ApiCall { readonly method: string; readonly path: string }

/**
 * Answers every request to `origin` with the trainplan API (apps/api's createApi, in-process), so a page can
 * use `api="<origin>"` with no server or port; each call is recorded in `calls`.
 */
export async function routeToApi(context: BrowserContext, origin: string, calls: ApiCall[] = []): Promise<ApiCall[]> {
  const api = createApi();
  await context.route(`${origin}/**`, async (route) => {
    const req = route.request();
    const path = new URL(req.url()).pathname;
    calls.push({ method: req.method(), path });
    const res = await api.request(path, { method: req.method(), headers: req.headers(), body: req.postData() ?? undefined });
    return route.fulfill({ status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) });
  });
  return calls;
}

/** The page's console errors and warnings and its uncaught errors, as they come: a test expects none. */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return problems;
}

/** The ids of the inputs and selects in an element's shadow root that no label names (for="…"). */
export function unlabelledControls(element: Locator): Promise<string[]> {
  return element.evaluate((el) => [...el.shadowRoot!.querySelectorAll('input, select')]
    .filter((c) => !el.shadowRoot!.querySelector(`label[for="${c.id}"]`)).map((c) => c.id));
}

/** What Chromium's drop-down arrow takes from a select's content box (measured: 18–20 px at 14 px text). */
const SELECT_ARROW_PX = 20;

/**
 * Each text a control shows that is wider than the room it has: an empty input's placeholder, and every
 * option of a select (any of them may be the one picked), in an element's shadow root. Measured with the
 * control's own font; every such control must be on screen (a hidden one has no room).
 */
export function clippedTexts(element: Locator): Promise<string[]> {
  return element.evaluate((el, arrow) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    const out: string[] = [];
    for (const c of el.shadowRoot!.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[placeholder], select')) {
      const s = getComputedStyle(c);
      ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
      const isSelect = c instanceof HTMLSelectElement;
      const room = c.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - (isSelect ? arrow : 0);
      const texts = isSelect ? [...c.options].map((o) => o.text) : [c.placeholder];
      for (const t of texts) {
        const w = ctx.measureText(t).width;
        if (w > room) out.push(`${c.name}: "${t}" is ${w.toFixed(0)} px in ${room.toFixed(0)} px`);
      }
    }
    return out;
  }, SELECT_ARROW_PX);
}
