import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// A full collection on demand, so that what a reader still holds is told from what the collector has not reached
// yet: V8's gc() exposed at run time (the flag, then the function from a fresh context), without --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export interface FloodOptions {
  /** Bytes per chunk. */
  chunkBytes: number;
  /** Chunks in all (the body is chunkBytes × chunks, with no Content-Length: chunked). */
  chunks: number;
  /** After how many chunks the bytes still held are counted. */
  measureAfter: number;
}

/**
 * A body streamed chunk by chunk, each a fresh buffer, that counts, part-way through, the bytes of the chunks sent so
 * far that are still alive after a full collection: what a reader keeps of them. Counted by weak references, which a
 * collection clears for what nothing holds (the backing stores themselves are freed later, on a background thread, so
 * process.memoryUsage() would count garbage too); after a macrotask, so no pending promise job holds a chunk.
 */
export function flood(options: FloodOptions): { body: ReadableStream<Uint8Array>; retained: () => number | undefined } {
  const sent: WeakRef<ArrayBuffer>[] = [];
  let retained: number | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent.length === options.measureAfter) {
        await new Promise((resolve) => setImmediate(resolve));
        gc();
        retained = sent.filter((ref) => ref.deref() !== undefined).length * options.chunkBytes;
      }
      if (sent.length === options.chunks) { controller.close(); return; }
      const chunk = new Uint8Array(options.chunkBytes).fill(0x61);
      sent.push(new WeakRef(chunk.buffer));
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  return { body, retained: () => retained };
}
