import { withLinkedTokensSaid } from './linked-tokens.ts';
import { normalize, parse } from '../parse.ts';
import type { ParsedQuestion } from '../question.ts';
import { DEFAULT_PUBLIC_URL, type Answer, type AnswerOptions } from './answer-types.ts';
import { answerCollective } from './collective-answer.ts';
import { answerTokensPerParameter, asksTokensAlone } from './tokens-per-parameter.ts';
import { answerParameterCount, asksParameterCount } from './parameter-count.ts';
import { firstQuestionOf, questionOn, sideBySide } from './compared-gpus.ts';
import { answerFixedConfiguration } from './estimate-answer.ts';
import { asStandalone } from './follow-up.ts';
import { answerHelp } from './help-answer.ts';
import { answerLayoutComparison } from './layout-comparison.ts';
import { answerRate } from './rate-answer.ts';
import { answerServing } from './serving-answer.ts';
import { answerBestConfiguration, answerNodesOrTime } from './search-answer.ts';
import { inPlainWords } from './plain-words.ts';
import { answerPipelineBubble, asksPipelineBubble } from './pipeline-bubble.ts';
import { answerGpuFacts, asGpuFactsQuestion, asksGpuFacts } from './gpu-facts.ts';
import { withNotRead } from './not-read.ts';
import { withMissedDeadline } from './missed-deadline.ts';
import { comparedSizesOf } from './compared-sizes.ts';
import { comparedModelsOf } from './compared-models.ts';
import { comparedPrecisionsOf, PRECISION_FIGURES } from './compared-precisions.ts';
import { gpuName } from './describe-estimate.ts';
import { asTrainingMemory } from './training-memory.ts';
import { asOptimizerStates } from './optimizer-states.ts';
import { withSpareNodes } from './spare-nodes.ts';
import { asTrainingThroughput } from './training-throughput.ts';
import { countProblems } from './whole-counts.ts';
import { answerTokensBought, asksTokensBought } from './tokens-bought.ts';
import { answerComputeOptimal, asksComputeOptimal } from './compute-optimal.ts';
import { answerFlopBudget } from './flop-budget-size.ts';
import { flopBudgetOf } from '../lexicon/flop-budget.ts';
import { withTrainingFlops } from './training-flops.ts';
import { asBestGpuComparison, BEST_GPU_NOTE } from './best-gpu.ts';
import { hasFixedConfiguration, searchesLayout } from '../defaults.ts';

/**
 * A parsed question → its answer, from the protocol's entry points: runEstimate for a stated
 * configuration, runCollective for collectives, the search for nodes, time and best configuration.
 * Never throws for anything a question can say: what cannot be answered comes back as help. The protocol's
 * sentences it passes on are said in plain words, never as the wire fields they name (plain-words.ts).
 */
export function answer(q: ParsedQuestion, options: AnswerOptions = {}): Answer {
  const read = asksGpuFacts(q) ? asGpuFactsQuestion(q) : q;
  return inPlainWords(asStandalone(read, withNotRead(read, withLinkedTokensSaid(read, withFlopsAsked(read, answerOf(read, options))))));
}

/** Training intents whose answer plans a run: "how many flops to train …" asked of them is answered with the run's FLOPs first. */
const PLANS_A_RUN: ReadonlySet<string> = new Set(['nodes', 'time', 'config', 'cheapest', 'estimate']);

/** The run's FLOPs first where they were asked (training-flops.ts); any other answer as it is. */
const withFlopsAsked = (q: ParsedQuestion, a: Answer): Answer => (a.kind === 'answer' && PLANS_A_RUN.has(q.intent) ? withTrainingFlops(q, a) : a);

function answerOf(q: ParsedQuestion, options: AnswerOptions): Answer {
  const publicUrl = options.publicUrl === undefined ? DEFAULT_PUBLIC_URL : options.publicUrl;
  // "global batch 1.5", "on 1.5 nodes": a count that must be whole is refused as asked, never rounded or cut to plan it;
  // "on 2M nodes", 400 nines of H100s: a cluster past the protocol's caps is refused with them (whole-counts.ts).
  const fractions = countProblems(q.stated, q.intent);
  // "Pipeline bubble for pp 8 with 32 microbatches": a closed form of the stages and micro-batches, no model (pipeline-bubble.ts).
  if (q.problems.length === 0 && fractions.length === 0 && asksPipelineBubble(q)) return answerPipelineBubble(q);
  // "What is the peak bf16 of the b200", "how much memory does an h200 have": the GPU's own figures, no model to plan
  // (gpu-facts.ts); before the help, which would refuse them for naming no model.
  if (fractions.length === 0 && asksGpuFacts(q)) return answerGpuFacts(q);
  // "What can I train for $1M at $2/GPU-hour": the compute-optimal model a budget trains, or why it cannot be sized
  // (compute-optimal.ts); "… with 5.76e23 FLOPs": the size read from the compute itself, then planned (flop-budget-size.ts).
  if (fractions.length === 0 && asksComputeOptimal(q)) {
    const flops = flopBudgetOf(normalize(q.text));
    const answerOn = (x: ParsedQuestion): Answer => answerNodesOrTime(x, options, publicUrl);
    return flops === undefined ? answerComputeOptimal(q, answerOn) : answerFlopBudget(q, flops, answerOn);
  }
  if (q.intent === 'help' || q.problems.length > 0 || fractions.length > 0) return answerHelp(q, [...q.problems, ...fractions]);
  // Models to compare ("7B vs 13B on 64 H100"): the question answered of each, side by side (compared-models.ts).
  // Parse compares models only where nothing else is compared, and never for a collective or a rate. First: "tokens
  // for 7B vs 13B" is the tokens of each.
  const models = comparedModelsOf(q);
  if (models !== undefined) {
    const on = gpuName(q.parameters.gpu ?? '');
    const subject = !asksTokensAlone(q) ? `on ${on}` : asksParameterCount(q) ? 'in parameters' : 'in training tokens';
    return sideBySide(q, models.names, models.questions.map((m) => answerOf(m, options)), { of: on, subject });
  }
  // "Chinchilla optimal tokens for 70B": the tokens alone, no cluster plan (tokens-per-parameter.ts); "how many params is
  // llama3 70b": the count alone (parameter-count.ts).
  if (asksTokensAlone(q)) return asksParameterCount(q) ? answerParameterCount(q) : answerTokensPerParameter(q);
  // "What's the best GPU for …", no GPU named: the GPUs compared (best-gpu.ts), never the default one alone.
  const weighed = asBestGpuComparison(q);
  if (weighed !== undefined) {
    const a = answerOf(weighed, options);
    return { ...a, notes: [BEST_GPU_NOTE, ...a.notes] };
  }
  // GPUs to compare ("A100 vs H100 for 70B"): the question answered of each, side by side (compared-gpus.ts).
  const gpus = q.stated.comparedGpus;
  if (gpus !== undefined && q.intent !== 'collective' && q.intent !== 'rate') {
    const first = firstQuestionOf(q);
    const answers = [answerOf(first, options), ...gpus.map((h) => answerOf(questionOn(q, h), options))];
    return sideBySide(q, [first.parameters.gpu ?? '', ...gpus.map((h) => h.gpu)].map(gpuName), answers);
  }
  // Cluster sizes to compare ("512 vs 1024 H100"): the question answered on each, side by side (compared-sizes.ts).
  const sizes = comparedSizesOf(q);
  if (sizes !== undefined && q.intent !== 'collective' && q.intent !== 'rate') {
    return sideBySide(q, sizes.names, sizes.questions.map((s) => answerOf(s, options)), { of: gpuName(q.parameters.gpu ?? '') });
  }
  // Precisions to compare ("is fp8 faster than bf16", "does fp8 help"): each planned, time, MFU and memory side by side (compared-precisions.ts).
  const precisions = comparedPrecisionsOf(q);
  if (precisions !== undefined && q.intent !== 'collective' && q.intent !== 'rate' && q.intent !== 'serving') {
    return sideBySide(q, precisions.names, precisions.questions.map((s) => answerOf(s, options)), { of: gpuName(q.parameters.gpu ?? ''), figures: PRECISION_FIGURES });
  }
  // Layouts to compare ("tp 8 pp 8 or tp 4 pp 16"): each one planned, which wins said (parse refuses them for other intents).
  const compared = q.stated.layouts !== undefined;
  switch (q.intent) {
    case 'memory':
      // "Optimizer state space for …": the states first (optimizer-states.ts), the whole memory after.
      return asOptimizerStates(q, asTrainingMemory(q, compared ? answerLayoutComparison(q, publicUrl)
        : searchesLayout(q.intent, q.stated) ? answerBestConfiguration(q, options, publicUrl) : answerFixedConfiguration(q, publicUrl)));
    case 'estimate':
      return asTrainingThroughput(q, compared ? answerLayoutComparison(q, publicUrl)
        : searchesLayout(q.intent, q.stated) ? answerBestConfiguration(q, options, publicUrl) : answerFixedConfiguration(q, publicUrl));
    case 'collective':
      return answerCollective(q);
    case 'rate':
      return answerRate(q);
    case 'serving':
      return answerServing(q);
    case 'time':
      // "How many tokens can I train … with 100k GPU-hours": the tokens the budget buys (tokens-bought.ts).
      if (!compared && !hasFixedConfiguration(q.stated) && asksTokensBought(q)) return answerTokensBought(q, (x) => answerNodesOrTime(x, options, publicUrl));
      // "How many tokens per second …" is a time question turned round (tokens-in-time.ts), and a throughput one.
      // A deadline the named cluster misses leads with the miss and the nodes that meet it (missed-deadline.ts).
      return asTrainingThroughput(q, withMissedDeadline(q, compared ? answerLayoutComparison(q, publicUrl)
        : hasFixedConfiguration(q.stated) ? answerFixedConfiguration(q, publicUrl) : answerNodesOrTime(q, options, publicUrl),
      (n) => answerNodesOrTime(n, options, publicUrl)));
    case 'nodes':
    case 'cheapest':
      // "… with 8 spare nodes": the spares added to the nodes that train (spare-nodes.ts).
      return withSpareNodes(q, answerNodesOrTime(q, options, publicUrl));
    case 'config':
      return answerBestConfiguration(q, options, publicUrl);
  }
}

/** parse then answer: the one call the CLI and the chat endpoints make (options.today: the day dates are read against). */
export function ask(question: string, options: AnswerOptions = {}): Answer {
  return answer(parse(question, { today: options.today }), options);
}
