import { runEstimate, type EstimateJson } from '@trainplan/protocol';
import { memorySwitches, type MemorySwitch, type SwitchEstimates, type SwitchOutcome } from '../format/memory-report.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The scenario as given, with the switches' fields set over its own (the data-parallel size follows the GPUs as before). */
function switched(scenario: Json, switches: readonly MemorySwitch[]): Json {
  const parallelism = Object.assign({}, isObject(scenario.parallelism) ? scenario.parallelism : {}, ...switches.map((s) => s.change.parallelism ?? {}));
  const training = Object.assign({}, isObject(scenario.training) ? scenario.training : {}, ...switches.map((s) => s.change.training ?? {}));
  return { ...scenario, parallelism, training };
}

function outcome(scenario: Json): SwitchOutcome {
  const e = runEstimate(scenario) as EstimateJson;
  if (e.ok) return { memory: e.memory };
  return e.memory !== undefined ? { memory: e.memory } : { refusal: e.message };
}

/**
 * For an answer out of memory, its plan estimated with each memory switch it leaves off, and, where none fits alone, with
 * all of them (memoryRemedyLines says what each leaves the plan needing, rather than listing switches that may not close
 * the gap). Memory does not depend on how collectives are costed: the scenario as given is estimated, not an emulated one.
 */
export function memorySwitchEstimates(scenario: unknown, answer: EstimateJson): SwitchEstimates | undefined {
  if (answer.ok || answer.reason !== 'out-of-memory' || answer.resolved === undefined || !isObject(scenario)) return undefined;
  const switches = memorySwitches(answer.resolved, isObject(scenario.parallelism) && scenario.parallelism.zeroStage !== undefined);
  if (switches.length === 0) return undefined;
  const each = switches.map((s) => outcome(switched(scenario, [s])));
  const anyFits = each.some((o) => o.memory?.fits === true);
  return { switches, each, ...(!anyFits && switches.length > 1 && { together: outcome(switched(scenario, switches)) }) };
}
