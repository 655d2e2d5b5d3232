import { GPU_IDS } from '@trainplan/presets';
import { isHelpRequest } from '../classify.ts';
import { HARDWARE_GPU_IDS } from '../lexicon/hardware.ts';
import { MODEL_FIT_NOT_ANSWERED, MODEL_SIZE_NOT_ANSWERED } from '../lexicon/model-size-asked.ts';
import { clipText } from '../clip-text.ts';
import { normalize } from '../parse.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';
import { conceptExample, conceptHeadline } from './concept-question.ts';
import { gpuName } from './describe-estimate.ts';
import { followUpHeadline, isFollowUp, wholeQuestionOf } from './follow-up.ts';

/** The questions the bot understands, one per intent (also the help text's examples). */
export const EXAMPLE_QUESTIONS: readonly string[] = [
  'how many nodes for 175B',
  'how many H100 nodes to train llama3-70b on 2T tokens in 30 days',
  'memory for 70B with tp 8 pp 4 on A100 80GB',
  'best config for 530B on 280 DGX A100',
  'how long to train gpt3-175b on 128 nodes',
  'cheapest way to train llama3-70b on 2T tokens at $2/GPU-hour',
  'step time of llama3-8b on 8 H100 with tp 8',
  'all-reduce 1 GB on 64 H100',
  'serve llama3-70b on one H100 node at 50 ms per token',
];

const CAPABILITIES = 'I answer LLM training planning questions: nodes, time to train, cost and the cheapest cluster, best configuration, memory, step time, collectives, and serving (latency, tokens/s, GPUs for a request rate or for a number of concurrent users, speculative decoding with a draft model).';
/**
 * The GPUs the bot reads, by their preset names less the maker and any aside ("H100 PCIe 80GB", "GH200 Grace Hopper
 * Superchip"): taken from the lexicon (HARDWARE_GPU_IDS) in the presets' order, so the list names every GPU the bot
 * understands and none it does not (QA: a written list left out H100 PCIe, A100 PCIe and GH200).
 */
export const GPU_NAMES: readonly string[] = GPU_IDS.filter((id) => HARDWARE_GPU_IDS.includes(id))
  .map((id) => gpuName(id).replace(/\s*\(.*\)$/, ''));
const VOCABULARY = `Models: preset ids (gpt3-175b, llama3-70b, mt-nlg-530b, …) or sizes (175B). GPUs: ${GPU_NAMES.join(', ')}; or node types (DGX, GB200 NVL72, 8-GPU PCIe servers, JUPITER, Selene, Jean Zay) and cloud instances (p5, ND H100 v5, a3-megagpu-8g).`;
/** How much of a question that was not understood is quoted back. */
const QUOTED_CHARACTERS = 80;

/** Refusals of a question understood, which no intent reads: a model size asked. */
const SIZE_REFUSALS: readonly string[] = [MODEL_SIZE_NOT_ANSWERED, MODEL_FIT_NOT_ANSWERED];

/**
 * A short help: what the bot answers, with examples. Its first line says why: the problems of a
 * question that was understood but cannot be answered; for a follow-up, that no conversation is kept, with the
 * question whole (follow-up.ts); for a definition asked, that none is given, with a question showing the term at work
 * (concept-question.ts); "I didn't understand …" for any other question that was not understood; for an empty message
 * or one asking for help, the help alone. All but the last refuse the question.
 */
export function answerHelp(q: ParsedQuestion, problems: readonly string[] = q.problems): Answer {
  const base = { intent: 'help' as const, kind: 'refusal' as const, ok: false, question: q.text, figures: [], assumptions: [], examples: [...EXAMPLE_QUESTIONS] };
  if (q.outOfScope !== undefined && problems.length > 0) {
    return { ...base, headline: `I could not answer that: ${problems.join('; ')}.`, notes: [...q.outOfScope, CAPABILITIES, VOCABULARY] };
  }
  // A model size asked ("how big a model can we train on 10T tokens with 256 H100") was understood, whatever intent it was
  // read with: refused as such, never "I didn't understand" (lexicon/model-size-asked.ts).
  if ((q.intent !== 'help' || problems.some((p) => SIZE_REFUSALS.includes(p))) && problems.length > 0) {
    return { ...base, headline: `I could not answer that: ${problems.join('; ')}.`, notes: [VOCABULARY] };
  }
  if (isHelpRequest(normalize(q.text))) return { ...base, kind: 'help', headline: CAPABILITIES, notes: [VOCABULARY] };
  const text = q.text.replace(/\s+/g, ' ');
  const quoted = clipText(text, QUOTED_CHARACTERS);
  const normal = normalize(q.text);
  // Understood as a shape, if not as a plan: a follow-up to a conversation the bot does not keep, or a definition asked.
  if (problems.length === 0 && isFollowUp(normal)) {
    const example = wholeQuestionOf(q);
    return { ...base, headline: followUpHeadline(quoted, example), notes: [CAPABILITIES, VOCABULARY], examples: [example, ...EXAMPLE_QUESTIONS] };
  }
  const concept = problems.length === 0 ? conceptExample(normal) : undefined;
  if (concept !== undefined) return { ...base, headline: conceptHeadline(quoted, concept), notes: [CAPABILITIES, VOCABULARY] };
  const why = problems.length > 0 ? ` (${problems.join('; ')})` : '';
  return { ...base, headline: `I didn't understand "${quoted}"${why}.`, notes: [CAPABILITIES, VOCABULARY] };
}
