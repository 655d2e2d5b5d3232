import { assumedTokens } from '../defaults.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';

/** The token budget a widget link carries (its `training.tokens`), or undefined where it has none or cannot be read. */
function linkedTokens(url: string): number | undefined {
  const hash = /#scenario=([^&]*)/.exec(url)?.[1];
  if (hash === undefined) return undefined;
  try {
    const tokens = (JSON.parse(decodeURIComponent(hash)) as { training?: { tokens?: unknown } }).training?.tokens;
    return typeof tokens === 'number' ? tokens : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The answer with the token budget its widget link assumes said among its assumptions, where the question gave none and
 * the answer has not said one: the link carries the model's published budget (scenario.ts widgetLink) so that the widget
 * opens on this run's time to train, and a memory or step-time answer never mentioned it (QA: "does llama3.1-405b fit on
 * 16 H200 nodes" linked 15.6T tokens, and the widget opened with a budget and days the answer had not named).
 */
export function withLinkedTokensSaid(q: ParsedQuestion, a: Answer): Answer {
  if (a.widgetUrl === undefined || q.stated.tokens !== undefined || a.assumptions.some((t) => /training tokens/.test(t))) return a;
  const tokens = linkedTokens(a.widgetUrl);
  const assumed = assumedTokens(q.parameters);
  if (tokens === undefined || assumed === undefined || assumed.tokens !== tokens) return a;
  return { ...a, assumptions: [...a.assumptions, `the widget link's time to train is for ${assumed.text}`] };
}
