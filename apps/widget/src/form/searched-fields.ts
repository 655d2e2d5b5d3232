import type { ScenarioInput } from '@trainplan/protocol';
import { FIELDS, type FieldValues } from './fields.ts';
import { fieldsFromScenario } from './scenario-from-fields.ts';

/** Fields the search chooses (runSearch's candidates: t, p, v, c, SP, the distributed optimizer, micro-batch, recompute). */
export const SEARCHED_FIELDS: readonly string[] = ['tp', 'pp', 'vp', 'cp', 'sp', 'distopt', 'mbs', 'recompute'];

/**
 * The form after "Auto": only the fields the search chose take the best plan's values. Its scenario states the
 * machine it resolved (network hdr-ib-8x, 8 GPUs per node); written into the form, those stayed after Auto was
 * unticked and answered for another GPU with the A100's network, or asked a GB200 NVL72 for 8 GPUs per node.
 */
export function withSearched(values: FieldValues, best: ScenarioInput): FieldValues {
  const found = fieldsFromScenario(best, values);
  return { ...values, ...Object.fromEntries(SEARCHED_FIELDS.map((f) => [f, found[f] ?? ''])) };
}

/** A checkbox's value as said. */
const ON_OFF: Readonly<Record<string, string>> = { true: 'on', false: 'off' };

/**
 * What Auto changed in the form, in its labels' words and its form's order ("Micro-batch 2, Tensor (t) 4, Sequence
 * parallel on"), '' when nothing: said once the search ends, where the form changed silently before (WCAG 4.1.3 Status
 * Messages, QA).
 */
export function searchedChanges(before: FieldValues, after: FieldValues): string {
  return FIELDS.filter((f) => SEARCHED_FIELDS.includes(f.name) && before[f.name] !== after[f.name])
    .map((f) => `${f.label} ${ON_OFF[after[f.name]!] ?? after[f.name]}`).join(', ');
}
