import { compactCount } from './format.ts';
import { SERVING_WORDS } from './lexicon/serving.ts';
import { FINE_TUNING } from './scope.ts';
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

/** Where one part ends and the other begins: "and then", "; also", ", and how many …". */
const CLAUSE_BOUNDARY = /,?\s+and then\b|;\s*(?:and\s+)?also\b|,?\s+and (?=how (?:many|much|long)\b)|;/;

/** The cluster a clause names, as parse reads it (passed in: parse calls this). */
export type ClauseCluster = (clause: string) => Pick<AskParameters, 'gpu' | 'system' | 'gpus' | 'nodes' | 'racks'>;

const CLUSTER_FIELDS = ['gpu', 'system', 'gpus', 'nodes', 'racks'] as const;

/**
 * Each part's cluster from its own clause: "train … on 64 H100 and then serve it on one H100" serves on 1, never the 64
 * the whole question's first count gave (QA found the training cluster served on, and suggested for serving's part).
 */
function clauseClusters(normal: string, clusterOf: ClauseCluster | undefined): { training: AskParameters; serving: AskParameters } | undefined {
  const at = clusterOf === undefined ? null : CLAUSE_BOUNDARY.exec(normal);
  if (clusterOf === undefined || at === null) return undefined;
  const [first, second] = [normal.slice(0, at.index), normal.slice(at.index + at[0].length)];
  const servingFirst = SERVING_WORDS.test(first) && !TRAINS.test(first);
  const [training, serving] = servingFirst ? [second, first] : [first, second];
  if (!TRAINS.test(training) || !SERVING_WORDS.test(serving)) return undefined;
  return { training: clusterOf(training), serving: clusterOf(serving) };
}

/** A cluster's fields replaced by a clause's (a GPU named in the clause only; its count always, none where it names none). */
function withCluster(facts: AskParameters, clause: AskParameters): AskParameters {
  const out: AskParameters = { ...facts };
  for (const field of ['gpus', 'nodes', 'racks'] as const) delete out[field];
  for (const field of CLUSTER_FIELDS) if (clause[field] !== undefined) Object.assign(out, { [field]: clause[field] });
  return out;
}

/** The serving part's facts and the note of the training part left, or undefined for a question of one kind. */
export function servingPartOf(normal: string, intent: IntentName, facts: AskParameters, clusterOf?: ClauseCluster): { facts: AskParameters; left: NotRead } | undefined {
  if (intent !== 'serving' || !SERVING_WORDS.test(normal) || !TRAINS.test(normal)) return undefined;
  const clauses = clauseClusters(normal, clusterOf);
  const serving: AskParameters = clauses === undefined ? { ...facts } : withCluster(facts, clauses.serving);
  for (const field of TRAINING_ONLY) delete serving[field];
  const trained = clauses === undefined ? facts : withCluster(facts, clauses.training);
  const cluster = trained.gpus !== undefined ? ` on ${trained.gpus} ${trained.gpu ?? 'GPUs'}` : trained.nodes !== undefined ? ` on ${trained.nodes} nodes` : '';
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

/**
 * A question of serving and of fine-tuning at once ("can I serve llama3-70b on one H100 node and how long would
 * fine-tuning it on 10B tokens take"): the serving clause, as typed, to answer on its own, and the fine-tuning part said
 * not answered (QA found the whole question refused). Undefined unless one clause serves and the other fine-tunes.
 */
export function servingBesideFineTuning(text: string, normalize: (clause: string) => string): { serving: string; left: NotRead } | undefined {
  if (!FINE_TUNING.test(normalize(text))) return undefined;
  const at = new RegExp(CLAUSE_BOUNDARY.source, 'i').exec(text);
  if (at === null) return undefined;
  const [first, second] = [text.slice(0, at.index), text.slice(at.index + at[0].length)];
  const tunes = (clause: string): boolean => FINE_TUNING.test(normalize(clause));
  const serves = (clause: string): boolean => SERVING_WORDS.test(normalize(clause)) && !tunes(clause);
  const serving = serves(first) && tunes(second) ? first : serves(second) && tunes(first) ? second : undefined;
  if (serving === undefined) return undefined;
  return { serving, left: { heading: 'Not answered', phrase: 'the fine-tuning part', why: 'fine-tuning is not modelled' } };
}
