import { ifNoneMatchHolds } from '@trainplan/http';
import { compressResponse, planCoding, preferredCoding } from './compress.ts';

type Fetch = (request: Request) => Response | Promise<Response>;

/**
 * `fetch` with its answers passed through compressResponse (./compress.ts). A HEAD is answered as its GET, less the
 * body: it must state the header fields the GET would (RFC 9110 §9.3.2), Content-Encoding, Vary and the weak
 * ETag among them, and whether a GET is compressed hangs on its body's size, which Hono's own answer to a
 * HEAD (its GET's, the body dropped) no longer has. Before, a HEAD said a strong ETag and `Vary: Accept`
 * where its GET said `W/"…"`, `Vary: Accept, Accept-Encoding` and `Content-Encoding: gzip`.
 */
export function compressing(fetch: Fetch): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'HEAD') return conditionalAnswer(request, fetch);
    const get = new Request(request, { method: 'GET' });
    const answer = await conditionalAnswer(get, fetch);
    await answer.body?.cancel();
    return new Response(null, answer);
  };
}

// The methods whose If-None-Match is evaluated here: GET (a HEAD comes as its GET) and POST, which the API answers as
// a safe query (apps/api/src/http/respond.ts). Any other keeps its condition for the app: taken off, a state-changing
// method would be carried out where its condition should have stopped it (RFC 9110 §13.1.2: a 412, the method not run).
const EVALUATED_HERE = new Set(['GET', 'POST']);

/**
 * The answer to `request`, with If-None-Match evaluated here where a coding may apply: a 304 carries the ETag its 200
 * would (RFC 9110 §15.4.5), weak where that 200 goes out compressed, which hangs on the body's size, which the app's 304
 * has not (QA: Accept-Encoding gzip and If-None-Match "…" got a 304 saying "…" where the 200 said W/"…"). So the app
 * answers without the condition; the tag is compared as the app compares it (@trainplan/http ifNoneMatchHolds, weakly,
 * `*` on GET and HEAD only), and a match is a 304 with the header fields the 200 goes out with (planCoding, the body
 * not coded), less Content-Encoding and Content-Length. Without a coding the app's own 304 is right, and stands.
 */
async function conditionalAnswer(request: Request, fetch: Fetch): Promise<Response> {
  const ifNoneMatch = request.headers.get('if-none-match');
  const coding = preferredCoding(request.headers.get('accept-encoding'));
  if (ifNoneMatch === null || coding === undefined || !EVALUATED_HERE.has(request.method)) return compressResponse(request, await fetch(request));
  const headers = new Headers(request.headers);
  headers.delete('if-none-match');
  // Nor may the app evaluate If-Modified-Since in its stead: with If-None-Match present it is ignored (RFC 9110 §13.1.3).
  headers.delete('if-modified-since');
  const answer = await fetch(new Request(request, { headers }));
  const etag = answer.headers.get('etag');
  // Weak comparison (RFC 9110 §13.1.2, §8.8.3.2): W/ is taken off the app's tag as ifNoneMatchHolds takes it off the client's.
  const holds = etag !== null && ifNoneMatchHolds(ifNoneMatch, etag.replace(/^W\//, ''), request.method);
  if (answer.status !== 200 || !holds) return compressResponse(request, answer);
  const plan = await planCoding(request, answer);
  if ('answer' in plan) await plan.answer.body?.cancel();
  const notModified = new Headers('answer' in plan ? plan.answer.headers : plan.init.headers);
  // A 304 has no content: Content-Length may be sent only as the 200's length (RFC 9110 §8.6), unknown uncoded, and
  // Content-Encoding is representation metadata a 304 should not send (§15.4.5).
  for (const name of ['content-encoding', 'content-length']) notModified.delete(name);
  return new Response(null, { status: 304, headers: notModified });
}
