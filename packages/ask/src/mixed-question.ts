import { compactCount } from './format.ts';
import { SERVING_WORDS } from './lexicon/serving.ts';
import type { AskParameters, IntentName, NotRead } from './question.ts';

/**
 * A question asking of training and of serving at once ("how long to train llama3 70b on 15T tokens on 2048 H100s and
 * how many H100s to serve it at 100 requests per second"): one is answered a message, the serving part (classify.ts
 * reads serving first), and the training part is said not answered, with the question to ask for it. Its training
 * figures are dropped from the serving plan: 15T training tokens are never 15T tokens to generate.
 */

/** Words of training itself. */
const TRAINS = /\b(?:train(?:ing|ed)?|pre[\s-]*train\w*)\b/;

/** What only the training part states. */
const TRAINING_ONLY = ['tokens', 'tokensPerParameter', 'batchTokens', 'deadlineSeconds', 'gpuHours', 'costBudget'] as const;

/** The serving part's facts and the note of the training part left, or undefined for a question of one kind. */
export function servingPartOf(normal: string, intent: IntentName, facts: AskParameters): { facts: AskParameters; left: NotRead } | undefined {
  if (intent !== 'serving' || !SERVING_WORDS.test(normal) || !TRAINS.test(normal)) return undefined;
  const serving: AskParameters = { ...facts };
  for (const field of TRAINING_ONLY) delete serving[field];
  const cluster = facts.gpus !== undefined ? ` on ${facts.gpus} ${facts.gpu ?? 'GPUs'}` : facts.nodes !== undefined ? ` on ${facts.nodes} nodes` : '';
  const tokens = facts.tokens === undefined ? '' : ` on ${compactCount(facts.tokens)} tokens`;
  const example = `how long to train ${facts.model ?? 'the model'}${tokens}${cluster}`;
  return {
    facts: serving,
    left: {
      heading: 'Not answered',
      phrase: 'the training part of the question',
      why: `one question is answered a message, here the serving part, with none of the training figures; ask the training part on its own, e.g. "${example}"`,
    },
  };
}
