/// <reference lib="dom" />
import { runDeadlineNodes, runSearch } from '@trainplan/protocol';
import { trustedScriptUrl } from '../trusted-types.ts';

/** A worker's global scope (lib "webworker" is not in the widget's types): defined in a worker only. */
declare const WorkerGlobalScope: unknown;

/**
 * Whether this copy of the bundle runs in a worker offThread started: entry.ts then answers calls instead of
 * defining the elements. A worker has no HTMLElement, and the elements' classes extend it as the bundle loads, so it
 * is given a stand-in here, before form-element.ts (which imports this module through backend.ts) declares them.
 */
export const IN_WORKER = typeof WorkerGlobalScope !== 'undefined';
if (IN_WORKER) (globalThis as { HTMLElement?: unknown }).HTMLElement = class {};

/** The core's calls that search (seconds of work), by name: what a worker answers. */
const CALLS = { search: runSearch, nodes: runDeadlineNodes };
export type OffThreadCall = keyof typeof CALLS;

/** Called as each cluster size's search starts, with how many sizes that makes (1, 2, …). */
export type Progress = (searched: number) => void;

/** One call in the thread it is made in; runDeadlineNodes tells `progress` of each size it searches. */
const callHere = (call: OffThreadCall, request: unknown, progress?: Progress): unknown =>
  CALLS[call](request, { onClusterSize: (_nodes, before) => progress?.(before + 1) });

/**
 * A worker's script: this bundle's own URL where the page shares its origin (a strict CSP's `script-src 'self'` then
 * allows it), else a blob that imports it (a worker's script must be the page's origin; a module the page imported from
 * another is served with CORS, which the import needs). Made once a page: every worker starts from the same blob URL
 * (one a worker, never revoked, piled up: 20 after 20 searches, QA).
 */
let script: string | undefined;
const workerScript = (url = import.meta.url): string => (script ??= new URL(url).origin === location.origin
  ? url : URL.createObjectURL(new Blob([`import${JSON.stringify(url)}`], { type: 'text/javascript' })));

/** Workers that answered their call, kept for the next: their core is loaded and compiled (a cold one is slower). */
const idle: Worker[] = [];
/** No worker can run the bundle here (Node, a page whose CSP forbids blob: workers, a bundle not loaded from a URL). */
let inPage = typeof Worker === 'undefined';

/**
 * A search in a worker running this same bundle, so that the page's main thread stays free: the time–cost curve held
 * it for 4.2–7.5 s in one task in Chromium on a shared 2-core machine (the demo's GPT-3 175B, some 300 searches of a
 * size), with no input, paint or progress meanwhile. `progress` hears of each size searched; `signal` stops the
 * worker (its answer is no longer wanted) and rejects with its reason. Where no worker starts (none here, a CSP that
 * forbids it, a bundle that does not load in one), the call runs in the page, holding it as before.
 */
export function offThread<T>(call: OffThreadCall, request: unknown, progress?: Progress, signal?: AbortSignal): Promise<T> {
  const here = () => callHere(call, request, progress) as T;
  return new Promise<T>((resolve, reject) => {
    let worker: Worker | undefined;
    try {
      worker = inPage ? undefined : idle.pop() ?? new Worker(trustedScriptUrl(workerScript()), { type: 'module' });
    } catch {
      // Chromium throws here where the page's CSP forbids the script.
    }
    if (!worker) {
      inPage = true;
      return resolve(here());
    }
    const stop = () => {
      worker.terminate();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', stop);
    // The bundle did not load there: this call and every later one run in the page (an abort after it is a no-op).
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      inPage = true;
      resolve(Promise.resolve().then(here));
    };
    worker.onmessage = ({ data }: MessageEvent<{ p?: number; a?: T; e?: string }>) => {
      // Stopped: a message it sent before is not for the caption now on screen, and the worker is not reused.
      if (signal?.aborted) return;
      if (data.p) return progress?.(data.p);
      signal?.removeEventListener('abort', stop);
      idle.push(worker);
      if (data.e === undefined) resolve(data.a!);
      else reject(new Error(data.e));
    };
    worker.postMessage([call, request]);
  });
}

/** In a worker offThread started: answers each call, telling the page of each size searched, and of a failure's message (the core throws Errors). */
export function answerCalls(): void {
  onmessage = ({ data: [call, request] }: MessageEvent<[OffThreadCall, unknown]>) => {
    let answer;
    try {
      answer = { a: callHere(call, request, (p) => postMessage({ p })) };
    } catch (e) {
      answer = { e: (e as Error).message };
    }
    postMessage(answer);
  };
}
