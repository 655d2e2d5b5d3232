/**
 * An idle fleet on the wire (@trainplan/search's idleFleet): the best plan at a rate meets the first-token bound only with its
 * replicas kept under half busy, the prompt's prefill leaving too little of the bound for the wait for a slot. Said as the
 * answer's first warning and as `idleFleet`, with the bound loosened to what the rate is served within at that load.
 */
import { idleFleetText, type IdleFleet, type InferenceEstimate } from '@trainplan/search';
import { formatGrouped, formatLoad, formatPercent, formatSeconds } from '@trainplan/units';
import { ceilFigures } from './ceil-figures.ts';
import { point, type IdleFleetJson } from './inference-json.ts';

/** "223 replicas of TP 8 · PP 2 · batch 22": a plan's replicas, or those of a point at the load floor. */
const replicasText = (replicas: number, e: InferenceEstimate): string =>
  `${formatGrouped(replicas)} ${replicas === 1 ? 'replica' : 'replicas'} of TP ${e.shape.tensor} · PP ${e.shape.pipeline} · batch ${formatGrouped(e.shape.batch)}`;

/**
 * The idle fleet's JSON and words. The bound loosened is the soonest first token a point tried gives with its replicas at least
 * the load floor busy (idle.atLoadFloor), rounded up to three figures as a remedy's bounds are (ceilFigures), so that point meets
 * it; `replan` asks the request again with it, and its best plan, the fewest GPUs within it, is said where it has one: "…; loaded
 * 50% or more, the soonest first token of the points tried is 2.09 s (133 replicas of TP 8 · PP 4 · batch 32, 4,256 GPUs), and a
 * first-token bound of 2.09 s serves the rate on 3,568 GPUs at the fewest (223 replicas of TP 8 · PP 2 · batch 22, 49% loaded)".
 * The words name no request field, as the chat bot passes them on to a person; the remedy (idleFleetRemedy) names the field.
 */
export function idleFleetJson(
  idle: IdleFleet, replan: (maxPrefillSeconds: number) => InferenceEstimate | undefined, gpus: number | undefined,
): IdleFleetJson {
  const at = idle.atLoadFloor;
  const bound = ceilFigures(at.firstTokenSeconds);
  const best = replan(bound);
  const served = best?.load === undefined ? ''
    : `, and a first-token bound of ${formatSeconds(bound)} serves the rate on ${formatGrouped(best.load.gpus)} GPUs at the fewest `
      + `(${replicasText(best.load.replicas, best)}, ${formatLoad(best.load.utilization)} loaded)`;
  const why = `${idleFleetText(idle)}; loaded ${formatPercent(idle.loadFloor, 0)} or more, the soonest first token of the points tried is `
    + `${formatSeconds(at.firstTokenSeconds)} (${replicasText(at.replicas, at.point)}, ${formatGrouped(at.gpus)} GPUs)${served}`;
  return {
    why, maxPrefillSeconds: idle.maxFirstTokenSeconds, prefillSeconds: idle.point.prefillSeconds, waitBudgetSeconds: idle.waitBudgetSeconds,
    slotSeconds: idle.holdSeconds, loadFloor: idle.loadFloor,
    atLoadFloor: { firstTokenSeconds: at.firstTokenSeconds, replicas: at.replicas, gpus: at.gpus, point: point(at.point, gpus) },
    loosened: { maxPrefillSeconds: bound, ...(best !== undefined && { best: point(best, gpus) }) },
  };
}
