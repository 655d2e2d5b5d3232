import { ServerResponse, type IncomingMessage } from 'node:http';

/**
 * Node's ServerResponse, except that a 204 goes out without a Content-Type. @hono/node-server gives
 * every response that states no type `text/plain; charset=UTF-8` (its buildOutgoingHttpHeaders), a
 * CORS preflight's 204 included; a 204 has no content (RFC 9110 §15.3.5), so no type to state. A 304
 * keeps its type: the API states the stored representation's there (apps/api/src/http/respond.ts).
 */
export class NoContentResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override writeHead(statusCode: number, ...rest: unknown[]): this {
    if (statusCode === 204) {
      this.removeHeader('content-type');
      // The adapter passes its headers as one plain object (writeHead(status, headers)).
      for (const headers of rest) {
        if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) continue;
        for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') delete (headers as Record<string, unknown>)[name];
      }
    }
    return (ServerResponse.prototype.writeHead as (this: ServerResponse, ...args: unknown[]) => unknown).call(this, statusCode, ...rest) as this;
  }
}
