import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import { closingBracket } from './strip-properties.ts';

/**
 * @trainplan/collectives' collective-cost.ts as the widget calls it: with NCCL's own choice of algorithm and protocol
 * (`algorithm: 'auto'`), never a forced one. The bundle's only calls of collectiveCost pass 'auto' as a literal: the
 * planner's comm-time.ts (every collective of a training plan) and @trainplan/search's serving decode
 * (inference/decode-layer.ts, NCCL's all-reduce beside the custom one); the one caller that forces an algorithm, the
 * protocol's `collective` request (collective/run-collective.ts), is not in the bundle, and ncclPredictedCost, the other
 * function reading `request.algorithm`, drops out unused. So the forced paths are never taken there: the hierarchical
 * all-reduce (hierarchical-collective-cost.ts), the check that a forced algorithm can run on the machine (nccl-candidates.ts
 * algorithmUnavailable, with its words for each algorithm), the candidates' filter by it, and the names a request may
 * force. They were 0.40 kB of the 80 kB gzip budget (398 B alone, with the packages of 2026-11-30; the guard below costs 41). A forced
 * algorithm reaching the bundle anyway is refused (OWN_CHOICE_GUARD), not costed as NCCL's choice. The test holds every
 * call in the bundle to 'auto' (test/nccl-own-choice.test.ts). Node-only, never part of the bundle.
 */

/** checkRequest's head for a forced algorithm's name (collective-cost.ts); its block becomes OWN_CHOICE_GUARD. */
export const ALGORITHM_NAME_CHECK = 'if (request.algorithm !== undefined && !ALGORITHM_NAMES.includes(request.algorithm)) {';

/** What the bundle checks in its place: any algorithm but NCCL's own choice is a caller's error there. */
export const OWN_CHOICE_GUARD = "if (request.algorithm !== undefined && request.algorithm !== 'auto') {\n"
  + "    throw new RangeError(`algorithm '${String(request.algorithm)}': the widget costs NCCL's own choice only (auto)`);\n  }";

/**
 * The tests of a forced algorithm, each `false` once only 'auto' gets past OWN_CHOICE_GUARD: collectiveCost's (and
 * ncclPredictedCost's) `algorithm === 'hierarchical'`, and ncclChoice's and idleCost's `algorithm !== 'auto'`. A
 * property of that name (`candidate.algorithm !== algorithm`) is not one of them. esbuild then drops what only they reach.
 */
export const FORCED_ALGORITHM_TESTS: readonly RegExp[] = [/(?<![.\w$])algorithm === 'hierarchical'/g, /(?<![.\w$])algorithm !== 'auto'/g];

/**
 * collective-cost.ts with NCCL's own choice only. Throws where the name check or a test of a forced algorithm is not
 * found, so that a change to collective-cost.ts fails the build, not the bundle.
 */
export function ncclOwnChoiceOnly(source: string): string {
  const start = source.indexOf(ALGORITHM_NAME_CHECK);
  const end = start < 0 ? undefined : closingBracket(source, start + ALGORITHM_NAME_CHECK.length);
  if (end === undefined) throw new Error(`no "${ALGORITHM_NAME_CHECK} … }" to leave out of collective-cost.ts`);
  let out = `${source.slice(0, start)}${OWN_CHOICE_GUARD}${source.slice(end + 1)}`;
  for (const test of FORCED_ALGORITHM_TESTS) {
    if (!new RegExp(test.source).test(out)) throw new Error(`no "${test.source}" to leave out of collective-cost.ts`);
    out = out.replace(test, 'false');
  }
  return out;
}

/** Loads @trainplan/collectives' collective-cost.ts ncclOwnChoiceOnly. */
export const collectiveCostOfNcclsChoice: Plugin = {
  name: 'trainplan-collective-cost-nccls-choice',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/]collectives[\\/]src[\\/]collective-cost\.ts$/ }, async (args) => ({
      contents: ncclOwnChoiceOnly(await readFile(args.path, 'utf8')),
      loader: 'ts',
    }));
  },
};
