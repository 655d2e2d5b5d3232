import { formatCountExact } from '@trainplan/units';
import { compactCount } from '../format.ts';
import { normalize } from '../parse.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';

/**
 * A follow-up ("what about on a100s?", "and with 2x the batch?", "same but on 256 nodes"): the bot answers each message on
 * its own (a chat endpoint keeps no state between messages, and a package keeps none at all), so the question is asked
 * again whole. The example is built from what the follow-up did say, the rest taken from a question that plans.
 */

/**
 * Words a chat message opens with before what it asks ("ok and with tp 2?", "so what about h200", "thanks, now double the
 * nodes"): passed over, so that a follow-up behind them is read as one (QA: "ok and with tp 2?" was "not understood", while
 * "and with tp 2?" got the reply that no conversation is kept). Not "and" or "but", which the follow-ups below begin with.
 */
const OPENER = String.raw`(?:(?:ok(?:ay)?|so|also|cool|great|nice|thanks|thank you|right|alright|hmm+|then)[\s,.!]+)*`;

/**
 * A message that leans on an earlier one: "what about", "how about", "and with", "same but", "what if", "now with", and
 * a change to something it does not name ("now double the nodes", "halve the batch", "twice the gpus").
 */
const FOLLOW_UP = new RegExp(String.raw`^${OPENER}(?:(?:what|how) about|(?:and|but) (?:with|without|on|for|at|if|in|using)|same (?:but|with|on|for|at|again|thing|question|setup)`
  + String.raw`|(?:what|how) if|now (?:with|without|on|for|at|use|using|try|switch|make|change|increase|decrease|add|drop)|instead`
  + String.raw`|(?:(?:and|now) )?(?:double|halve|triple|quadruple|twice|half) (?:the|that|it|my|our))\b`);

/** Whether the (normalised) text is shaped as a follow-up to an earlier question. */
export const isFollowUp = (normal: string): boolean => FOLLOW_UP.test(normal);

/**
 * A whole question with what the follow-up stated: its model, GPU, cluster, tokens and layout, each else a question's
 * usual ("llama3-70b", "h100", 128 nodes): "how long to train llama3-70b on 128 a100-80gb nodes".
 */
export function wholeQuestionOf(q: ParsedQuestion): string {
  const s = q.stated;
  const model = s.model ?? (s.customModel === undefined ? 'llama3-70b' : `a ${formatCountExact(s.customModel.askedParameters)} model`);
  const hardware = s.system ?? s.gpu ?? 'h100';
  const cluster = s.gpus !== undefined ? `${s.gpus} ${hardware}` : `${s.nodes ?? 128} ${hardware} node${s.nodes === 1 ? '' : 's'}`;
  const tokens = s.tokens === undefined ? '' : ` on ${compactCount(s.tokens)} tokens`;
  const layout = [
    ...(s.tensor === undefined ? [] : [`tp ${s.tensor}`]),
    ...(s.pipeline === undefined ? [] : [`pp ${s.pipeline}`]),
    ...(s.globalBatchSize === undefined ? [] : [`global batch ${s.globalBatchSize}`]),
  ];
  return `how long to train ${model} on ${cluster}${tokens}${layout.length === 0 ? '' : ` with ${layout.join(' ')}`}`;
}

/** The headline of a follow-up: no conversation is kept, so ask it whole, as the example does. */
export const followUpHeadline = (quoted: string, example: string): string =>
  `I keep no conversation, so "${quoted}" has nothing to follow: ask the whole question in one message, e.g. "${example}".`;

/**
 * A follow-up that parses as a plan ("what if we use llama3-8b instead") is answered as it stands, the rest assumed: the
 * answer says first that no earlier question was read into it, so an assumed 128 nodes is not taken for the earlier cluster.
 */
export function asStandalone(q: ParsedQuestion, a: Answer): Answer {
  if (a.kind === 'help' || a.intent === 'help' || !isFollowUp(normalize(q.text))) return a;
  return { ...a, notes: ['I keep no conversation: this was answered on its own, from what it says (the rest assumed, below); ask the whole question for the plan you meant.', ...a.notes] };
}
