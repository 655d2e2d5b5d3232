import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';

/** The questions the bot understands, one per intent (also the help text's examples). */
export const EXAMPLE_QUESTIONS: readonly string[] = [
  'how many nodes for 175B',
  'how many H100 nodes to train llama3-70b on 2T tokens in 30 days',
  'memory for 70B with tp 8 pp 4 on A100 80GB',
  'best config for 530B on 280 DGX A100',
  'how long to train gpt3-175b on 128 nodes',
  'step time of llama3-8b on 8 H100 with tp 8',
  'all-reduce 1 GB on 64 H100',
];

/** A short help: what the bot answers, with examples; `problems` say why the question was not answered. */
export function answerHelp(q: ParsedQuestion, problems: readonly string[] = q.problems): Answer {
  const understood = q.intent !== 'help';
  return {
    intent: 'help',
    ok: false,
    question: q.text,
    headline: understood && problems.length > 0
      ? `I could not answer that: ${problems.join('; ')}.`
      : 'I answer LLM training planning questions: nodes, time to train, best configuration, memory, step time, collectives.',
    figures: [],
    assumptions: [],
    notes: ['Models: preset ids (gpt3-175b, llama3-70b, mt-nlg-530b, …) or sizes (175B). GPUs: V100, A100 40/80GB, H100, H200, B200, GB200, or DGX nodes.'],
    examples: [...EXAMPLE_QUESTIONS],
  };
}
