/**
 * The body's bytes, or undefined when more than `limit` arrive. Past the limit the rest is read and
 * dropped, never kept, so a client streaming a body without a Content-Length (chunked) costs the
 * server at most `limit` plus one chunk of memory, however much it sends (OWASP, "Denial of Service
 * Cheat Sheet": limit request sizes before buffering them); how long it may send is the runtime's
 * bound (Node: requestTimeout in infra/node/src/main.ts). Read to the end rather than cancelled:
 * under wrangler dev, a Worker that answers before its request body is consumed, or cancels it,
 * makes the dev proxy answer 503 "Your worker restarted mid-request" (measured with wrangler 4.86).
 */
export async function readAtMost(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length <= limit) chunks.push(value);
    else chunks.length = 0; // over the limit: keep nothing, read on to the end
  }
  if (length > limit) return undefined;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) { bytes.set(chunk, offset); offset += chunk.byteLength; }
  return bytes;
}
