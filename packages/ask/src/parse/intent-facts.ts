import { classify } from '../classify.ts';
import { hasFixedConfiguration } from '../defaults.ts';
import { modelsNotCompared } from '../lexicon/compared-models.ts';
import { FP64_NOT_KEPT } from '../lexicon/gpu-facts.ts';
import { SPARE_NOT_PLANNED } from '../lexicon/spare-nodes.ts';
import { takeQuantizedWeights } from '../lexicon/weight-format.ts';
import { servingPartOf } from '../mixed-question.ts';
import type { AskParameters } from '../question.ts';
import { asTyped } from './as-typed.ts';
import type { ModelsNamed } from './models-named.ts';
import type { PrecisionRead } from './precision-read.ts';
import type { SettingsRead } from './settings-read.ts';
import type { ParseState } from './state.ts';

/** Intents that plan a training run, whose recompute a question may ask about. */
export const TRAINING_PLANS: ReadonlySet<string> = new Set(['nodes', 'cheapest', 'time', 'config', 'memory', 'estimate']);

/** Why a plan asked in FP64 is planned in another precision. */
const FP64_NOT_PLANNED = `${FP64_NOT_KEPT}; planned in the precision the assumptions name`;

/** Why an uptime stated is not planned: only the nodes search (the protocol's runNodes) takes one. */
export const UPTIME_NOT_PLANNED = 'an uptime is planned in how-many-nodes, how-long (with no layout fixed) and cheapest answers, '
  + 'whose days and GPU-hours it puts on the wall clock; this answer\'s times are at 100% uptime';

/** Whether the answer to the intent runs the nodes search, which plans an uptime (answer.ts routes the rest elsewhere). */
const plansUptime = (intent: string, facts: AskParameters): boolean =>
  intent === 'nodes' || intent === 'cheapest' || (intent === 'time' && !hasFixedConfiguration(facts));

/** The facts a reader set, less the fields it left undefined (found nothing): what the intent is classified on. */
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** The intent asked, and the facts planned for it (the serving part's, where training is asked beside it). */
export type IntentFacts = ReturnType<typeof readIntent>;

/**
 * The question's intent, classified once every fact is read, and the facts it plans: a weight format quantized where
 * served, and each fact the intent plans not (models compared of a collective, FP64, spares, an uptime) said not read.
 * `parseClause` parses a clause of the question as a question of its own (parse.ts).
 */
export function readIntent(
  st: ParseState, { otherModels }: ModelsNamed, { spare, spareRefused, uptime }: SettingsRead, { fp64 }: PrecisionRead,
  parseClause: (clause: string) => AskParameters,
) {
  const { s, text, normal, stated, notRead } = st;
  const asked = defined(stated);

  // Classified on the question less the words of settings that hold an intent's word ("with 90% memory": state.ts intentText).
  const intent = classify(st.intentText(), asked);
  // Training and serving asked at once: the serving part answered, with no training figure; the training part said left.
  // Each part's cluster read from its own clause, as a question of its own (a clause holds no boundary: no deeper split).
  const servingPart = servingPartOf(normal, intent, asked, parseClause);
  const facts = servingPart?.facts ?? asked;
  // "A quantized llama 3 70b" served: FP8 weights, said (lexicon/weight-format.ts), never BF16 unsaid.
  const quantized = intent === 'serving' && facts.precision === undefined ? takeQuantizedWeights(s) : undefined;
  if (quantized !== undefined) facts.precision = quantized.precision;
  // A collective or a rate of GPUs is no model's plan: models compared are said, not answered.
  if (facts.comparedModels !== undefined && (intent === 'collective' || intent === 'rate')) {
    notRead.push(...modelsNotCompared(otherModels?.others.map((o) => asTyped(text, o.written)) ?? [], 'a collective or a rate is answered of the GPUs, not of a model'));
    delete facts.comparedModels;
  }
  if (servingPart !== undefined) notRead.push(servingPart.left);
  // Of a model's plan only: a GPU's own figures asked ("h100 double-precision throughput") say it in their answer (answer/fp64-note.ts).
  const plansModel = facts.model !== undefined || facts.customModel !== undefined;
  if (fp64 !== undefined && plansModel && (TRAINING_PLANS.has(intent) || intent === 'serving')) notRead.push({ phrase: `"${asTyped(text, fp64[0])}"`, why: FP64_NOT_PLANNED });
  // Spares are added where the answer sizes the cluster (answer/spare-nodes.ts); elsewhere said not read.
  if (spare !== undefined && spareRefused === undefined && intent !== 'nodes' && intent !== 'cheapest') notRead.push({ phrase: `"${asTyped(text, spare.written)}"`, why: SPARE_NOT_PLANNED });
  // The uptime is planned where the nodes search answers (nodes, cheapest, and how long with no layout fixed); elsewhere the
  // answer's times are at 100%, said so rather than dropped.
  if (uptime?.ok === true && facts.uptime !== undefined && !plansUptime(intent, facts)) {
    notRead.push({ phrase: `"${asTyped(text, uptime.written)}"`, why: UPTIME_NOT_PLANNED });
    delete facts.uptime;
  }
  return { intent, facts, quantized };
}
