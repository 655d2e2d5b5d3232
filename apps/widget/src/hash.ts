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

/** `#scenario=…` for a contract scenario. */
export function scenarioToHash(scenario: unknown): string {
  return `#${HASH_KEY}=${encodeURIComponent(JSON.stringify(scenario))}`;
}

/**
 * The scenario a hash carries, not yet validated (pass it to validateScenario); `undefined` when the
 * hash has no `scenario=` part or it is not JSON. Never throws.
 */
export function scenarioFromHash(hash: string): unknown {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  for (const part of body.split('&')) {
    if (!part.startsWith(`${HASH_KEY}=`)) continue;
    try {
      return JSON.parse(decodeURIComponent(part.slice(HASH_KEY.length + 1))) as unknown;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Whether the hash has a `scenario=` part at all, readable or not: a link meant for the widget. */
export function hasScenarioPart(hash: string): boolean {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  return body.split('&').some((part) => part.startsWith(`${HASH_KEY}=`));
}

/** The hash part of the widget's deadline for "how many nodes", which the scenario contract has no field for. */
export const DAYS_KEY = 'days';

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
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const part = body.split('&').find((p) => p.startsWith(`${DAYS_KEY}=`));
  if (part === undefined) return undefined;
  try {
    return decodeURIComponent(part.slice(DAYS_KEY.length + 1));
  } catch {
    return undefined;
  }
}
