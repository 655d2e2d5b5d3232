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
