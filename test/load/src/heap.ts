import { createServer } from 'node:net';
import WebSocket from 'ws';

/** A free TCP port on 127.0.0.1 (asked of the OS, then released for the server to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The V8 heap of one isolate right after a full collection, from the DevTools protocol's Runtime.getHeapUsage. */
export interface HeapUsage {
  /** Bytes of live objects on the V8 heap. */
  usedBytes: number;
  /** Bytes V8 has reserved for that heap (what RSS sees, less what is freed lazily). */
  totalBytes: number;
}

/** Past this the inspector counts as not answering: a collection of a few MiB takes milliseconds. */
const INSPECTOR_TIMEOUT_MS = 15_000;

/**
 * Forces a full garbage collection in the isolate behind a DevTools (V8 inspector) WebSocket
 * (HeapProfiler.collectGarbage, twice, so objects freed by the first collection's weak callbacks go
 * too), then reads the heap's live bytes (Runtime.getHeapUsage).
 *
 * `poke` sends the server a request while the collection is pending: V8 runs the collection as a
 * task on the isolate's thread, and workerd runs an isolate's tasks only when something (a request)
 * enters it, so through `wrangler dev`'s inspector proxy the collection answers only after a request.
 * Node's event loop runs the task at once; a poke there is harmless.
 */
export async function postGcHeap(inspectorUrl: string, poke: () => Promise<void>): Promise<HeapUsage> {
  const ws = new WebSocket(inspectorUrl);
  const pending = new Map<number, { resolve: (result: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { id?: number; result?: Record<string, unknown>; error?: unknown };
    // Events, and answers to the proxy's own commands (ids it numbers far above ours), are not ours.
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (waiter === undefined) return;
    pending.delete(message.id!);
    if (message.error !== undefined) waiter.reject(new Error(`inspector: ${JSON.stringify(message.error)}`));
    else waiter.resolve(message.result ?? {});
  });
  const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()));
  const send = (method: string) => new Promise<Record<string, unknown>>((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    ws.send(JSON.stringify({ id, method, params: {} }));
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the inspector at ${inspectorUrl} did not answer in ${INSPECTOR_TIMEOUT_MS} ms`)), INSPECTOR_TIMEOUT_MS);
  });
  const measure = async (): Promise<HeapUsage> => {
    await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject); });
    for (let round = 0; round < 2; round++) {
      let collected = false;
      const collection = send('HeapProfiler.collectGarbage').then(() => { collected = true; });
      while (!collected) {
        await Promise.race([collection, new Promise((r) => setTimeout(r, 50))]);
        if (!collected) await poke();
      }
    }
    const usage = await send('Runtime.getHeapUsage');
    return { usedBytes: Number(usage.usedSize), totalBytes: Number(usage.totalSize) };
  };
  try {
    return await Promise.race([measure(), timeout]);
  } finally {
    clearTimeout(timer);
    // wrangler's proxy serves one DevTools client at a time: end this one's connection before the
    // next. The proxy never answers a close frame, so the socket is cut once the frame is sent.
    ws.close();
    await Promise.race([closed, new Promise((r) => setTimeout(r, 100))]);
    ws.terminate();
    await closed;
  }
}
