import { countOf as countText, formatSeconds } from '@trainplan/units';
import type { Slots } from './inference-remedy-terms.ts';
import { bounded, OTHER_COUNTS, type FewestGpus } from './fewest-gpus.ts';
import { countsText, grouped, gpusField, loosened, replicasDo, replicasText, shapeText } from './inference-remedy-words.ts';

/**
 * Without bounds: the fewest GPUs that serve the batches asked (fewestGpus' `serves`, checked to have a plan). They are the
 * fewest that hold it at one request unless batches asked for need more, then named apart (QA: Llama 3 70B on one H100 at
 * batch 256 was told "give gpus 2", which hold no batch of 256; 5 do, as TP 1 · PP 5), or, where no count up to the largest
 * replica holds those batches, the fewest that hold it with that said.
 */
function unboundedCountsRemedy(needed: FewestGpus, t: Slots, or: string, alsoText: string): string {
  const serves = needed.serves;
  if (serves === undefined) {
    return `to serve it, give at least ${gpusField(t, needed.holds)}, the fewest that hold it (a replica of TP ${needed.shape.tensor} · PP ${needed.shape.pipeline}); `
      + `but no count from ${grouped(needed.holds)} to ${grouped(needed.lastTried ?? needed.holds)} GPUs holds the batches asked`;
  }
  if (serves.gpus === needed.holds) {
    return `to serve it, give ${gpusField(t, needed.holds)}${or}: a replica of ${shapeText(needed.shape)} holds it`
      + `${alsoText === '' ? '' : `${alsoText}: any count that a replica holding it divides)`}`;
  }
  return `to serve it, give ${gpusField(t, serves.gpus)}${or}: ${replicasDo(serves.best, 'serves', 'serve')} batch ${grouped(serves.best.batch)}, `
    + `where the fewest that hold it, ${grouped(needed.holds)}, hold none of the batches asked`
    + `${alsoText === '' ? '' : `${alsoText}: any count that a replica holding that batch divides)`}`;
}

/** The GPUs that serve (within the bounds, where there are bounds), or the fewest that hold it and the bounds no count tried meets. */
export function countsRemedy(needed: FewestGpus, t: Slots, request: Record<string, unknown>): string {
  // "Or a multiple of it" only where no count between it and its double serves (none that another replica divides).
  const [or, alsoText] = needed.others.length === 0 ? [' or a multiple of it', '']
    : [', the fewest that serve', ` (${needed.others.map(grouped).join(', ')} … serve too`];
  if (!bounded(request)) return unboundedCountsRemedy(needed, t, or, alsoText);
  const missed = needed.missed.length === 0 ? '' : `; ${needed.missed.length > OTHER_COUNTS ? `the counts from ${countsText(needed.missed)} that hold it` : `${countsText(needed.missed)} hold it but`} miss them`;
  if (needed.serves !== undefined) {
    const { gpus, best } = needed.serves;
    const within = needed.others.length === 0 ? ' or a multiple of it' : ', the fewest that serve within the bounds';
    return `to serve it, give ${gpusField(t, gpus)}${within}: ${replicasText(best)} ${(best.replicas ?? 1) > 1 ? 'meet' : 'meets'} them, a token every ${formatSeconds(best.decodeStepSeconds)}`
      + `${alsoText === '' ? '' : `${alsoText} within them)`}${missed}`;
  }
  const hold = `to serve it, give at least ${gpusField(t, needed.holds)}, the fewest that hold it (a replica of TP ${needed.shape.tensor} · PP ${needed.shape.pipeline})`;
  const nearest = needed.nearest;
  if (nearest === undefined) return `${hold}; but no count from ${grouped(needed.holds)} to ${grouped(needed.lastTried ?? needed.holds)} GPUs meets the bounds`;
  // What the nearest plan needs, which it then meets: the bounds loosened, on its count or (a rate wanting more replicas) on more.
  const loosen = loosened(nearest.point, { ...request, gpus: nearest.gpus }, t);
  const moreGpus = nearest.point.load !== undefined && nearest.point.load.gpus > nearest.gpus;
  const needs = moreGpus ? loosen : [gpusField(t, nearest.gpus), ...loosen];
  return `${hold}; but no count from ${grouped(needed.holds)} to ${grouped(needed.lastTried ?? needed.holds)} GPUs meets the bounds: `
    + `the nearest is on ${countText(nearest.gpus, 'GPU')}: ${nearest.why}`
    + `${loosen.length === 0 ? '' : ` (${needs.join(' and ')} give a plan)`}`;
}
