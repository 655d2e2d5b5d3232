/**
 * The URL-hash form of a scenario, shared by the widget (which mirrors its scenario into the page's
 * hash so a link reproduces the view) and anything that builds links to it (the chat bot):
 *
 *     #scenario=<encodeURIComponent(JSON.stringify(contractScenario))>
 *
 * `contractScenario` is a scenario of ../shared/docs/scenario-contract.md, as given (not resolved).
 * The hash may carry other `&`-separated `key=value` parts; only `scenario=` is read. Keep this
 * format stable: links in chat transcripts and docs pages depend on it.
 */
export const HASH_KEY = 'scenario';

/** The raw value of the hash's `key=` part (still URI-encoded), or undefined when there is none. */
function hashPart(hash: string, key: string): string | undefined {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  return body.split('&').find((part) => part.startsWith(`${key}=`))?.slice(key.length + 1);
}

/** `#scenario=…` for a contract scenario. */
export function scenarioToHash(scenario: unknown): string {
  return `#${HASH_KEY}=${encodeURIComponent(JSON.stringify(scenario))}`;
}

/**
 * The scenario a hash carries, not yet validated (pass it to validateScenario); `undefined` when the
 * hash has no `scenario=` part or it is not JSON. Never throws.
 */
export function scenarioFromHash(hash: string): unknown {
  const part = hashPart(hash, HASH_KEY);
  if (part === undefined) return undefined;
  try {
    return JSON.parse(decodeURIComponent(part)) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether the hash has a `scenario=` part at all, readable or not: a link meant for the widget. */
export function hasScenarioPart(hash: string): boolean {
  return hashPart(hash, HASH_KEY) !== undefined;
}

/** The hash part of the widget's deadline for "how many nodes", which the scenario contract has no field for. */
const DAYS_KEY = 'days';

/**
 * The widget's own link: `#scenario=…&days=30` (`&days=` when the deadline is blank). Tools that build
 * links (the chat bot) write the scenario part alone; the widget then keeps the page's deadline.
 */
export function widgetHash(scenario: unknown, days: number | undefined): string {
  return `${scenarioToHash(scenario)}&${DAYS_KEY}=${days === undefined ? '' : encodeURIComponent(String(days))}`;
}

/**
 * The deadline a widget's link carries ('' when it was blank), or `undefined` when the hash has no
 * `days=` part (a link another tool built). Never throws.
 */
export function deadlineFromHash(hash: string): string | undefined {
  const part = hashPart(hash, DAYS_KEY);
  if (part === undefined) return undefined;
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
