import type { ScenarioInput } from '@trainplan/protocol';
import type { FieldValues } from './fields.ts';
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
