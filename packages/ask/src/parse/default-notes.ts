import { defaultSystemForGpu, networkById, systemById } from '@trainplan/presets';
import { DEFAULT_GPU } from '../defaults.ts';
import { fp32NotPlanned } from '../lexicon/fp32-precision.ts';
import { asTyped } from './as-typed.ts';
import { TRAINING_PLANS } from './intent-facts.ts';
import type { Plan, Reads } from './reads.ts';
import type { ParseState } from './state.ts';

/**
 * The defaults taken where the question wrote something not planned, each said so: a recompute mode asked about, tokens
 * in place of a data size in bytes, a deadline not understood, a network no preset models, FP32 or TF32 asked of a plan.
 */
export function noteDefaults(st: ParseState, read: Reads, { intent, facts, parameters, defaults }: Plan): void {
  const { text, notRead } = st;
  const { memory: { recompute }, budget: { dataBytes }, deadline: { dated, dateDeadline, unreadTime }, settings: { network }, precision: { fp32 } } = read;
  // "Should I use activation checkpointing?": no mode fixed, each tried (the search's) or the default said as one of three.
  if (recompute.asked !== undefined && TRAINING_PLANS.has(intent)) {
    const asked = `"${asTyped(text, recompute.asked)}" asked`;
    const taken = defaults.find((d) => d.field === 'recompute' && facts.recompute === undefined);
    if (taken !== undefined) taken.text += ` (${asked}: say "with full recompute" or "without recompute" to plan either)`;
    else defaults.push({ field: 'recompute', value: 'searched', text: `${asked}: no recompute mode fixed; the search tries none, selective and full and keeps the fastest that fits` });
  }
  // The tokens planned in place of a data size in bytes say so where a default was taken for them.
  const tokensTaken = defaults.find((d) => d.field === 'tokens' && facts.tokens === undefined);
  if (dataBytes !== undefined && tokensTaken !== undefined) tokensTaken.text += ` in place of "${asTyped(text, dataBytes)}", which is bytes, not tokens`;
  const assumedDeadline = defaults.find((d) => d.field === 'deadlineSeconds' && d.value === parameters.deadlineSeconds && facts.deadlineSeconds === undefined);
  const unreadDeadline = dateDeadline === undefined ? unreadTime : dateDeadline;
  const whyUnread = dated !== undefined && 'unread' in dated ? `${dated.unread}, or a length, e.g. "in 20 days"`
    : `${dateDeadline === undefined ? 'not a length of time' : 'a date needs today\'s, which I do not know'}; give a length, e.g. "in 20 days"`;
  if (unreadDeadline !== undefined && assumedDeadline !== undefined) assumedDeadline.text += ` ("${unreadDeadline}" not understood: ${whyUnread})`;
  else if (unreadDeadline !== undefined) notRead.push({ phrase: `"${unreadDeadline}"`, why: `not understood: ${whyUnread}` });
  // FP32 or TF32 asked of a model's plan: no precision the planner has, said with the one planned (the default's, or one
  // named beside it: "is bf16 faster than fp32"), as FP64 is (intent-facts.ts); never BF16 unsaid.
  const plansModel = facts.model !== undefined || facts.customModel !== undefined;
  if (fp32 !== undefined && plansModel && parameters.precision !== undefined && (TRAINING_PLANS.has(intent) || intent === 'serving')) {
    notRead.push({ phrase: `"${asTyped(text, fp32.written)}"`, why: fp32NotPlanned(fp32, parameters.precision, intent === 'serving') });
    const taken = defaults.find((d) => d.field === 'precision' && facts.precision === undefined);
    if (taken !== undefined) taken.text += ` (in place of the ${fp32.name} asked, which is not modelled: see the notes)`;
  }
  // A network no preset models: the one planned said with the assumptions (the system's, or the GPU's usual system's).
  if (network !== undefined && 'unread' in network && intent !== 'help') {
    const id = systemById(parameters.system ?? '')?.network ?? defaultSystemForGpu(parameters.gpu ?? DEFAULT_GPU)?.network;
    if (id !== undefined) {
      const text = `the network between nodes taken as ${id}: ${networkById(id)?.name ?? id} (the network named is not modelled)`;
      // In place of the default's own "no network named" (defaults.ts), which this network was.
      const said = defaults.find((d) => d.field === 'network' && facts.network === undefined);
      if (said !== undefined) Object.assign(said, { value: id, text });
      else defaults.push({ field: 'network', value: id, text });
    }
  }
}
