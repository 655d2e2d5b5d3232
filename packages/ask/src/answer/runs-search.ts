import { hasFixedConfiguration, searchesLayout } from '../defaults.ts';
import type { ParsedQuestion } from '../question.ts';
import { firstQuestionOf, questionOn } from './compared-gpus.ts';
import { comparedPrecisionsOf } from './compared-precisions.ts';
import { comparedSizesOf } from './compared-sizes.ts';
import { asksTokensAlone } from './tokens-per-parameter.ts';
import { fractionProblems } from './whole-counts.ts';

/**
 * Whether answering the question runs a configuration or cluster-size search (answerBestConfiguration,
 * answerNodesOrTime), the answers that take seconds rather than milliseconds: the chat bot defers those past the
 * platforms' 3-second acknowledgement. Decided on the parsed question alone, by the conditions answer.ts dispatches
 * on, in its order: help and refusals, the tokens alone, GPUs, sizes and precisions compared (each one's question),
 * then the intent. Keep the two in step: a question answer.ts sends to a search must be true here.
 */
export function runsSearch(q: ParsedQuestion): boolean {
  if (q.intent === 'help' || q.problems.length > 0 || fractionProblems(q.stated, q.intent).length > 0) return false;
  if (asksTokensAlone(q)) return false;
  if (q.intent === 'collective' || q.intent === 'rate') return false;
  if (q.stated.comparedGpus !== undefined) return [firstQuestionOf(q), ...q.stated.comparedGpus.map((h) => questionOn(q, h))].some(runsSearch);
  const sizes = comparedSizesOf(q);
  if (sizes !== undefined) return sizes.questions.some(runsSearch);
  const precisions = q.intent === 'serving' ? undefined : comparedPrecisionsOf(q);
  if (precisions !== undefined) return precisions.questions.some(runsSearch);
  const compared = q.stated.layouts !== undefined;
  switch (q.intent) {
    case 'memory':
    case 'estimate':
      return !compared && searchesLayout(q.intent, q.stated);
    case 'time':
      // A deadline stated with a cluster runs the nodes search where the cluster misses it (missed-deadline.ts), which
      // only the answer knows: deferred whenever it may.
      return (!compared && !hasFixedConfiguration(q.stated))
        || (q.stated.deadlineSeconds !== undefined && (q.stated.nodes !== undefined || q.stated.gpus !== undefined));
    case 'nodes':
    case 'cheapest':
    case 'config':
      return true;
    case 'serving':
      return false;
  }
}
