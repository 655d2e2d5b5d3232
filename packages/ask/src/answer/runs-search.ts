import { hasFixedConfiguration, searchesLayout } from '../defaults.ts';
import type { ParsedQuestion } from '../question.ts';
import { asBestGpuComparison } from './best-gpu.ts';
import { firstQuestionOf, questionOn } from './compared-gpus.ts';
import { comparedModelsOf } from './compared-models.ts';
import { comparedPrecisionsOf } from './compared-precisions.ts';
import { comparedSizesOf } from './compared-sizes.ts';
import { asksComputeOptimal } from './compute-optimal.ts';
import { asksGpuFacts } from './gpu-facts.ts';
import { asksPipelineBubble } from './pipeline-bubble.ts';
import { servingSearches } from './serving-searches.ts';
import { asksTokensAlone } from './tokens-per-parameter.ts';
import { countProblems } from './whole-counts.ts';

/**
 * Whether answering the question runs a search (a configuration or cluster-size search: answerBestConfiguration,
 * answerNodesOrTime; a serving search of GPU counts or replicas: serving-searches.ts) or several serving plans, the answers
 * that may take seconds rather than milliseconds: the chat bot defers those past the platforms' 3-second acknowledgement.
 * Decided on the parsed question alone, by the conditions answer.ts dispatches on, in its order: a pipeline bubble and a
 * GPU's facts (closed forms), a budget's compute-optimal model, help and refusals, models compared, the tokens alone, the
 * best GPU weighed, GPUs, sizes and precisions compared (each one's question), then the intent. Keep the two in step: a
 * question answer.ts sends to a search must be true here.
 */
export function runsSearch(q: ParsedQuestion): boolean {
  const fractions = countProblems(q.stated, q.intent);
  if (q.problems.length === 0 && fractions.length === 0 && asksPipelineBubble(q)) return false;
  if (fractions.length === 0 && asksGpuFacts(q)) return false;
  // "What can I train for $1M", "… with 5.76e23 FLOPs": the model sized, then planned by the nodes search (QA: the FLOPs'
  // question, parsed as help, was answered inline after 3.1 s).
  if (fractions.length === 0 && asksComputeOptimal(q)) return true;
  if (q.intent === 'help' || q.problems.length > 0 || fractions.length > 0) return false;
  const models = comparedModelsOf(q);
  if (models !== undefined) return eachSearches(q, models.questions);
  if (asksTokensAlone(q)) return false;
  const weighed = asBestGpuComparison(q);
  if (weighed !== undefined) return runsSearch(weighed);
  // A collective's time and a cluster's price are closed forms, never compared question by question.
  if (q.intent === 'collective' || q.intent === 'rate') return false;
  if (q.stated.comparedGpus !== undefined) return eachSearches(q, [firstQuestionOf(q), ...q.stated.comparedGpus.map((h) => questionOn(q, h))]);
  const sizes = comparedSizesOf(q);
  if (sizes !== undefined) return eachSearches(q, sizes.questions);
  // A serving question answers its precisions in one plan, not one each.
  const precisions = q.intent === 'serving' ? undefined : comparedPrecisionsOf(q);
  if (precisions !== undefined) return eachSearches(q, precisions.questions);
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
      return servingSearches(q);
  }
}

/**
 * Whether a comparison, each of `questions` answered in turn and set side by side, searches: where any one of them does; and
 * serving, always. Each serving plan is itself a search of replica shapes and batches (runInference), and where one of the
 * GPUs compared holds no replica its answer searches GPU counts too, so the answer's time is the sum over them (security QA,
 * CWE-400: Llama 3.1 405B at 1,000 requests/s on 8 H200 vs H100 vs B200 vs V100 answered inline after 6.2 s). A training
 * comparison of stated layouts is an estimate each, a closed form of a millisecond, and stays inline.
 */
const eachSearches = (q: ParsedQuestion, questions: readonly ParsedQuestion[]): boolean =>
  (q.intent === 'serving' && questions.length > 1) || questions.some(runsSearch);
