import { swapped, type SourceSwaps } from './source-swaps.ts';

/**
 * What the widget's calls never reach, past what its requests leave out (requests-never-made.ts): each concern's swaps in
 * the sources, and withoutUnreached, which makes them. Node-only, never part of the bundle.
 */

/**
 * No progress reports and no step cutoff in @trainplan/search's searches. Only runSearch passes an onProgress on (its
 * caller's RunSearchOptions.onProgress, which nearestCluster then takes off), and the widget's calls give none:
 * off-thread.ts passes onClusterSize alone (the widget says the cluster sizes searched, not a search's share done). A
 * cutoff is given only by fewer-nodes.ts (its smaller clusters: no-fewer-nodes.ts in the bundle) and
 * simpler-alternative.ts, which the bundle does not hold. So search.ts's `report` was always undefined and its cutoff
 * Infinity, and enumerate.ts's count of the candidates accounted for was read only by its reports (onChunk, given only
 * with an onProgress): each search ranks, prunes and answers as before (0.27 kB of the 80 kB gzip budget).
 */
export const NO_PROGRESS_OR_CUTOFF: SourceSwaps = [
  ['search/src/search.ts', [
    ['const progress = options.onProgress;', ''],
    ['let reported = -1;\n'
      + '  const report = progress && ((share: number) => {\n'
      + '    const units = Math.floor(Math.min(1, share) * PROGRESS_UNITS);\n'
      + '    if (units > reported) progress(reported = units, PROGRESS_UNITS);\n'
      + '  });\n'
      + '  report?.(0);', ''],
    ['onChunk: report && ((done) => report(ENUMERATION_SHARE * (total > 0 ? done / total : 1))),', ''],
    ['report?.(ENUMERATION_SHARE);', ''],
    ['if (report && fullEstimates % REPORT_EVERY === 0) {\n'
      + '      const kth = kthBest();\n'
      + '      report(ENUMERATION_SHARE + (1 - ENUMERATION_SHARE) * evaluationShare(survivors, i + 1, kth, budget));\n'
      + '    }', ''],
    ['report?.(1);', ''],
    ['const cutoff = options.stepCutoffSeconds ?? Infinity;', ''],
    ['Math.min(cutoff, ranked.length >= top ? ranked[top - 1]!.estimate.stepTimeSeconds : Infinity)', '(ranked.length >= top ? ranked[top - 1]!.estimate.stepTimeSeconds : Infinity)'],
    ['&& nearestOutOfMemory.candidate && options.stepCutoffSeconds === undefined)', '&& nearestOutOfMemory.candidate)'],
  ]],
  ['protocol/src/search/run-search.ts', [['...(options.onProgress && { onProgress: options.onProgress }),', '']]],
  ['protocol/src/search/run-search-nearest.ts', [['{ ...options, onProgress: undefined }', 'options']]],
  ['search/src/enumerate.ts', [
    ['let accounted = 0;', ''],
    ['accounted += leaves;\n      if (args.onChunk && (accounted & 0x3fff) < leaves) args.onChunk(accounted);', ''],
    ['accounted += below[level]!;', ''],
  ]],
];

/**
 * The request's global batch at every cluster size. RunNodesOptions.globalBatchFor (a batch per size, and its
 * alternative: the CLI's and the chat bot's default batch when a question states none) is an option the widget's calls
 * never pass (off-thread.ts: onClusterSize alone; the form states the batch), so batchesFor always answered the base's
 * batch alone, searchOnNodes searched that one batch, floorShare's share was the causal one, and nodes.ts's atBatch
 * answered the request's resolution unchanged (0.17 kB; atBatch's 40 B more, with the packages of 2026-12-01).
 */
export const ONE_BATCH_A_SIZE: SourceSwaps = [
  ['protocol/src/search/nodes.ts', [
    ['...(options.globalBatchFor && { globalBatchFor: options.globalBatchFor }),', ''],
    // Every size's plan is at the request's batch, so atBatch always answered the resolved request as it was.
    ['const atBatch = (globalBatchSize: number) => (globalBatchSize === r.base.globalBatchSize ? r\n'
      + '    : { ...r, base: { ...r.base, globalBatchSize }, core: { ...r.core, training: { ...r.core.training, globalBatchSize } } });',
    'const atBatch = (_globalBatchSize: number) => r;'],
  ]],
  ['search/src/capacity-sizer.ts', [
    ['const { globalBatchFor, ...search } = options;\n'
      + '  const [own, ...others] = batchesFor(globalBatchFor, nodes, base).map((globalBatchSize) => searchAtBatch(base, nodes, tokens, globalBatchSize, search, price));\n'
      + "  // The faster plan of the size's batches (SizedBatchFor); the size's own on a tie, and its reason where none runs.\n"
      + '  return others.reduce((a, b) => (b.point !== undefined && (a.point === undefined || b.point.seconds < a.point.seconds) ? b : a), own!);',
    'return searchAtBatch(base, nodes, tokens, base.globalBatchSize, options, price);'],
  ]],
  ['search/src/capacity.ts', [
    ['if (options.globalBatchFor === undefined) return executed;\n'
      + '    const step = p.globalBatchSize * base.seqLength;\n'
      + '    return executed * tokens / (Math.ceil(tokens / step) * step);', 'return executed;'],
  ]],
  ['search/src/capacity-replicas.ts', [['batchesFor(options.globalBatchFor, nodes, base)', '[base.globalBatchSize]']]],
  ['search/src/capacity-runnable.ts', [['batchesFor(options.globalBatchFor, nodes, base)', '[base.globalBatchSize]']]],
];

/**
 * No constraints that contradict each other: the widget's requests give none (withoutConstraintFields), and
 * whySpaceIsEmpty answers undefined in the bundle (no-empty-space.ts), so a search's emptySpace was always undefined,
 * and with it what carries it on: a size's and the sizer's (noFitAnswer's "no configuration runs on any cluster size",
 * its one reader), the search's and the nodes answers' `contradiction`, and whyNothingFits's words for an empty space
 * (0.16 kB).
 */
export const NO_CONTRADICTION: SourceSwaps = [
  ['search/src/search.ts', [
    ['const emptySpace = total === 0 ? whySpaceIsEmpty(base, constraints, options.space ?? defaultSearchSpace(base, constraints)) : undefined;', ''],
    ['...(emptySpace !== undefined && { emptySpace }),', ''],
  ]],
  ['search/src/nothing-fits.ts', [["return result.emptySpace ?? 'no candidate plan in the search space';", "return 'no candidate plan in the search space';"]]],
  ['search/src/capacity-sizer.ts', [
    ['noPlan, ...(result.emptySpace !== undefined && { emptySpace: result.emptySpace }),', 'noPlan,'],
    ['const contradiction = s.emptySpace();\n'
      + '  if (contradiction !== undefined) {\n'
      + "    return { ok: false, reason: 'does-not-fit', message: `no configuration runs on any cluster size: ${contradiction}`, searches: s.searches(), contradiction };\n"
      + '  }\n', ''],
    ['emptySpace: () => [...seen.values()].find((size) => size.emptySpace !== undefined)?.emptySpace,', ''],
  ]],
  ['protocol/src/search/run-search.ts', [['...(result.emptySpace !== undefined && { contradiction: result.emptySpace }),', '']]],
  ['protocol/src/search/nodes.ts', [
    ['...(f.contradiction !== undefined && { contradiction: f.contradiction })', ''],
    ['...(answer.contradiction !== undefined && { contradiction: answer.contradiction }),', ''],
  ]],
];

/**
 * No twice-the-batch hint asked: largerBatch answers undefined in the bundle (no-larger-batch.ts says why), so nodes.ts's
 * calls of it (the curve's fastest size, a deadline's answer or closest size), the deadline they were given, the search
 * options they took (`one`) and the `largerBatch` they would add are left out too (0.17 kB). results.ts still shows an
 * API's largerBatch: only the widget's own answers go without it, as they did.
 */
export const NO_LARGER_BATCH: SourceSwaps = [
  ['protocol/src/search/nodes.ts', [
    ["// One size's search, or a search of sizes that are not the request's (the larger batch's): progress, no size notes.\n"
      + '  const { onClusterSize: _, ...one } = opts;', ''],
    ["// The curve's fast end is where a fixed batch spreads thinnest: the fastest size at twice the batch, whatever its bubble.\n"
      + '    const larger = largerBatch(r.base, req.tokens, f.fastest, {\n'
      + "      kind: 'nodes', nodes: f.fastest.nodes, ...(price !== undefined && { pricePerGpuHour: price }),\n"
      + '    }, one, { whenBound: false });', ''],
    ['fastest: frontierJson(f.fastest), ...(larger && { largerBatch: larger }),', 'fastest: frontierJson(f.fastest),'],
    ['const deadline = req.days === undefined ? undefined : {\n'
      + "    kind: 'deadline' as const, deadlineSeconds: days(req.days), missed: !answer.ok, ...(price !== undefined && { pricePerGpuHour: price }),\n"
      + '  };\n'
      + "  // Only a deadline without a budget: with a budget, the larger batch's answer would also have to stay within it.\n"
      + "  const hinted = deadline && !('gpuHourBudget' in budget || 'costBudget' in budget) ? (answer.ok ? answer : answer.closest) : undefined;\n"
      + "  const larger = hinted && deadline && (answer.ok || answer.reason === 'deadline-unreachable')\n"
      + '    ? largerBatch(r.base, req.tokens, hinted, deadline, one) : undefined;', ''],
    // A deadline's answer, then its refusal.
    ['...(larger && { largerBatch: larger }),', ''],
    ['...(larger && { largerBatch: larger }),', ''],
  ]],
];

/**
 * No runner-up plans to explain: explainAlternatives answers none in the bundle (no-alternatives.ts says why), so runSearch's
 * call of it, the searched space it was given (searchedSpace, which capacity-runnable.ts still calls) and the mapping of
 * each alternative into its wire form never had anything to map: the answer's `alternatives` is the empty list it was
 * (82 B of the 80 kB gzip budget, with the packages of 2026-12-01).
 */
export const NO_ALTERNATIVES_TO_EXPLAIN: SourceSwaps = [
  ['protocol/src/search/run-search.ts', [
    ['const alternatives = explainAlternatives(r.base, best, {\n'
      + '    memoryFraction: req.constraints.memoryFraction, space: searchedSpace(r.base, opts), budgetExhausted: result.budgetExhausted,\n'
      + '  }).map((a) => ({\n'
      + '    change: a.change,\n'
      + '    label: describeCandidate(a.candidate),\n'
      + '    scenario: candidateScenario(r, a.candidate, nodes),\n'
      + '    ...(a.estimate && { stepTimeSeconds: a.estimate.stepTimeSeconds }),\n'
      + '    ...(a.slowdown !== undefined && { slowdown: a.slowdown }),\n'
      + '    why: a.why,\n'
      + '  }));', 'const alternatives: never[] = [];'],
  ]],
];

/**
 * No tally of the sizes below a deadline's answer that found no plan (capacity.ts scanBelow's `noPlan`, `outOfMemory` and
 * `candidateBudget`): only the answer's note (checkNote, which withoutBudgetOrNote leaves out, build.ts) and the nodes
 * answer's `checked` read it, and the widget shows neither (searchedNodesSection: the nodes, GPUs, plan, days and
 * GPU-hours) nor passes them on in an event. The scan and its `fromNodes` and `complete`, which the search goes on
 * from, are as they were (81 B of the 80 kB gzip budget, with the packages of 2026-12-01).
 */
export const NO_CHECK_TALLY: SourceSwaps = [
  ['search/src/capacity.ts', [
    ['let noPlan = 0;\n'
      + '  let outOfMemory = 0;\n'
      + '  let candidateBudget = 0;\n'
      + '  for (let n = from; n < fewest.nodes; n++) {\n'
      + '    const why = s.noPlan(n);\n'
      + '    if (why !== undefined) noPlan += 1;\n'
      + "    if (why === 'out-of-memory') outOfMemory += 1;\n"
      + "    if (why === 'candidate-budget') candidateBudget += 1;\n"
      + '  }\n', ''],
    ['checked: { fromNodes: from, complete: from <= floor, noPlan, outOfMemory, ...(candidateBudget > 0 && { candidateBudget }) }',
      'checked: { fromNodes: from, complete: from <= floor }'],
  ]],
  ['protocol/src/search/nodes.ts', [['...(answer.checked && { checked: answer.checked }),', '']]],
];

/**
 * What the widget's calls never reach, past what its requests leave out: each concern's swaps, in this order. Together
 * 0.78 kB of the 80 kB gzip budget (80,003 → 79,218 B with the packages of the day: each concern's own share
 * above, as the bundle less it measured), room for the bundle to grow under the budget again.
 */
export const UNREACHED: readonly SourceSwaps[] = [NO_PROGRESS_OR_CUTOFF, ONE_BATCH_A_SIZE, NO_CONTRADICTION, NO_LARGER_BATCH, NO_ALTERNATIVES_TO_EXPLAIN, NO_CHECK_TALLY];

/** The sources UNREACHED makes swaps in (their paths under packages/). */
export const UNREACHED_SOURCES: readonly string[] = [...new Set(UNREACHED.flatMap((concern) => concern.map(([file]) => file)))];

/**
 * `source`, read from `path`, with UNREACHED's swaps in it, concern by concern (as it was where it has none). Throws where
 * one is not found, so that a change to the source fails the build, not the bundle.
 */
export function withoutUnreached(path: string, source: string): string {
  const at = path.replace(/\\/g, '/');
  for (const concern of UNREACHED) {
    for (const [file, swaps] of concern) if (at.endsWith(`/packages/${file}`)) source = swapped(source, file, swaps);
  }
  return source;
}
