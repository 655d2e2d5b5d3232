/** What the app answers on every path it documents, beside the paths' own operations (openapi-document.ts). */
import { allowList } from '../http/allowed-methods.ts';
import { internalError, methodNotAllowed } from './responses.ts';

type Json = Record<string, unknown>;

/** The fixed fields of a Path Item Object that hold operations (OpenAPI 3.1 §4.8.9). */
const OPERATION_FIELDS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const isOperation = ([field, value]: [string, unknown]): boolean =>
  OPERATION_FIELDS.includes(field) && typeof value === 'object' && value !== null;

/** Each operation of `item` with `responses` added where it lists none for their status (its own say more). */
function withResponses(item: Json, responses: Json): Json {
  return Object.fromEntries(Object.entries(item).map((entry) => {
    if (!isOperation(entry)) return entry;
    const [field, operation] = entry as [string, Json];
    const own = (operation.responses ?? {}) as Json;
    return [field, { ...operation, responses: { ...own, ...Object.fromEntries(Object.entries(responses).filter(([status]) => !(status in own))) } }];
  }));
}

/**
 * A path item with what the app answers on its path besides its operations: another method is a 405 naming the
 * methods in Allow (app.ts notFound, RFC 9110 §15.5.6), listed on each operation; OPTIONS is a 204 with the same Allow
 * (cors.ts, RFC 9110 §9.3.7), said in the item's description rather than as an operation of each path, which the docs
 * page would offer to try. The methods are the item's operations, HEAD with GET and OPTIONS (allowList, as the app
 * computes them from its routes).
 */
export function withAllowStated(item: Json): Json {
  const allow = allowList(Object.entries(item).filter(isOperation).map(([field]) => field.toUpperCase()));
  const options = `OPTIONS on this path answers 204 No Content with Allow: ${allow.join(', ')} (to a CORS preflight, `
    + 'Access-Control-Allow-Methods the same); any other method is a 405 naming them.';
  const description = typeof item.description === 'string' ? `${item.description} ${options}` : options;
  return { ...withResponses(item, { 405: methodNotAllowed(allow) }), description };
}

/**
 * A mounted app's path item (the chat bot's) with the 500 the API's onError answers there (app.ts): Hono's route() hands
 * the errors of a mounted app with no onError of its own to the app it is mounted in.
 */
export const withInternalError = (item: Json): Json => withResponses(item, { 500: internalError });
