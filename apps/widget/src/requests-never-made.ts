import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import { swapped, type Swap } from './source-swaps.ts';
import { closingBracket, stripProperties } from './strip-properties.ts';
import { UNREACHED_SOURCES, withoutUnreached } from './unreached-by-calls.ts';

/**
 * What only requests the widget never makes reach, left out of its bundle as protocolForWidgetRequests leaves out a
 * budget (build.ts). The widget's requests are its own (compute/search-requests.ts, serving/request-from-fields.ts) and
 * its calls too (compute/off-thread.ts): a search always on given nodes, with no constraints, no candidateBudget and no
 * cap on it; an inference request with no `tensor`, `pipeline` or `batches` (the search's defaults). Past the requests,
 * what its calls never pass or the bundle's stand-ins never answer (unreached-by-calls.ts UNREACHED). Each trim throws where the text it
 * replaces is not found, so that a change to the source fails the build, not the bundle. Node-only.
 */

/**
 * @trainplan/protocol's run-search.ts for the widget's search (searchRequestFor), which gives `cluster.nodes` and no
 * candidateBudget, called with no cap (off-thread.ts): no cluster given in GPUs (clusterSize's and
 * nearestFromRequest's `gpus` branches: a partly used node, GPUs that fill no whole nodes), no service's cap to name
 * (raiseBudget then asks to raise candidateBudget, as it does here), and no warning that the budget ran out on a plan
 * found: the widget reads an answer's best plan and its count of candidates, never its warnings (trainplan-estimator.ts
 * #search), and no event carries it.
 */
export const SEARCH_ON_GIVEN_NODES: readonly Swap[] = [
  ['if (req.cluster.nodes !== undefined) return { nodes: req.cluster.nodes };', 'return { nodes: req.cluster.nodes! };'],
  ["if (!('gpus' in size)) return nearestCluster(r, req, opts, nodes);", 'return nearestCluster(r, req, opts, nodes);'],
  ['if (cap !== undefined && (req.candidateBudget === undefined || req.candidateBudget >= cap)) {', 'if (false) {'],
  ['const budget = Math.min(req.candidateBudget ?? Infinity, options.candidateBudget ?? Infinity);', 'const budget = options.candidateBudget ?? Infinity;'],
  ['const top = result.top.map((p, i) => planJson(r, p.candidate, nodes, i + 1, req.pricePerGpuHour));', 'const top = result.top.map((p, i) => planJson(r, p.candidate, nodes, i + 1));'],
  ['fewerNodesJson(r, best.estimate.stepTimeSeconds, opts, req.pricePerGpuHour)', 'fewerNodesJson(r, best.estimate.stepTimeSeconds, opts)'],
  ['if (result.budgetExhausted) warnings.push(`the candidate budget ran out after ${result.fullEstimates} full estimates: '
    + 'the ranking covers only the candidates with the best lower bounds`);', ''],
];

/** The request fields an inference request from the widget never gives: the search tries its default shapes and batches. */
export const UNASKED_INFERENCE_FIELDS = ['tensor', 'pipeline', 'batches'] as const;

/** inference-request.ts's schema without UNASKED_INFERENCE_FIELDS: a request giving one is refused as giving an unknown key. */
export function inferenceRequestWithoutShapes(source: string): string {
  for (const field of UNASKED_INFERENCE_FIELDS) {
    if (!new RegExp(String.raw`\n\s*${field}:`).test(source)) throw new Error(`no "${field}:" to leave out of inference-request.ts`);
  }
  return stripProperties(source, UNASKED_INFERENCE_FIELDS);
}

/**
 * @trainplan/search's inference/frontier.ts with the batches it tries its defaults: none asked (the request has no
 * `batches`), so no shape answers that none of the batches asked fits (tooLarge): batch 1, the probe that fits, is
 * always among the defaults (powersOfTwoUpTo of at least 1, chunkBatchLimit keeping at least one sequence).
 */
export const DEFAULT_BATCHES: readonly Swap[] = [
  ['const batches = search.batches ?? defaultBatches(most, at, search);', 'const batches = defaultBatches(most, at, search);'],
  ['largest ?? (unfit.length > 0 ? tooLarge(unfit, probe.maxBatch) : probe)', 'largest ?? probe'],
];

/** inference-plan.ts: no pipeline is asked, so a speculating shape is on one stage (frontier.ts tries only PP 1 then). */
export const ONE_STAGE_SPECULATING: readonly Swap[] = [
  ["if (spec !== undefined && p > 1) return fail('indivisible', `speculative decoding is modelled on one pipeline stage, not ${p} (vLLM runs it without pipeline parallelism)`);", ''],
];

/**
 * inference-messages.ts's unservableMessage: with the default shapes TP 1 · PP 1 is always tried, and divides any count of
 * GPUs given, so there is always a widest shape: never "no tensor × pipeline shape tried divides the … GPUs given".
 */
export const SOME_SHAPE_TRIED: readonly Swap[] = [
  ["return gpus === undefined ? undefined\n      : `no tensor × pipeline shape tried divides the ${gpus.toLocaleString('en-US')} GPUs given (gpus): "
    + "give tensor and pipeline degrees whose product divides it`;", 'return undefined;'],
];

/** The head of request-parts.ts's constraints schema: a search's and a "how many nodes" request's `constraints`. */
const CONSTRAINTS = 'export const constraintsSchema = withDefault(object({';

/**
 * request-parts.ts with a constraints schema of no fields: the widget's searches and "how many nodes" requests give no
 * constraints (search-requests.ts), which default to `{}` as before; one given is refused as an unknown key.
 */
export function withoutConstraintFields(source: string): string {
  const start = source.indexOf(CONSTRAINTS);
  const end = start < 0 ? undefined : closingBracket(source, start + CONSTRAINTS.length);
  if (end === undefined) throw new Error(`no "${CONSTRAINTS} … }" to leave out of request-parts.ts`);
  return `${source.slice(0, start + CONSTRAINTS.length)}${source.slice(end)}`;
}

/**
 * Removes `fields` from the object literal opening at the end of `head` in `source` (a schema's fields, so that a request
 * giving one is refused as giving an unknown key). Throws where the head, or a field of it, is not found.
 */
export function withoutFieldsOf(source: string, file: string, head: string, fields: readonly string[]): string {
  const start = source.indexOf(head);
  const end = start < 0 ? undefined : closingBracket(source, start + head.length);
  if (end === undefined) throw new Error(`no "${head} … }" to leave out of ${file}`);
  const body = source.slice(start + head.length, end + 1);
  const field = (name: string) => new RegExp(String.raw`(?:^|[{,\n])\s*${name}\s*:`);
  const missing = fields.find((name) => !field(name).test(body));
  if (missing !== undefined) throw new Error(`no "${missing}:" to leave out of ${file}`);
  const stripped = stripProperties(body, fields);
  if (fields.some((name) => field(name).test(stripped))) throw new Error(`"${fields.join(', ')}" not left out of ${file}`);
  return `${source.slice(0, start + head.length)}${stripped}${source.slice(end + 1)}`;
}

/** The protocol's nodes.ts, which build.ts loads (protocolForWidgetRequests) with nodesForDeadlineOrCurve. */
const NODES_SOURCE = 'protocol/src/search/nodes.ts';

/** The head of the protocol's nodesRequestSchema (search/nodes.ts). */
const NODES_REQUEST = 'export const nodesRequestSchema: Schema<NodesRequest> = object({';

/**
 * The "how many nodes" request fields the widget never gives (search-requests.ts: nodesRequestFor gives the tokens and
 * `days`, frontierRequestFor the tokens and `frontier`): no budget, in GPU-hours or money, no price, no uptime.
 */
export const UNASKED_NODES_FIELDS = ['gpuHours', 'budget', 'pricePerGpuHour', 'uptime'] as const;

/**
 * runNodesWith (the protocol's nodes.ts) for what is left once UNASKED_NODES_FIELDS are refused: no price (`price` is
 * undefined, as it was for the widget's requests, and esbuild folds it: no cost is stated), no uptime to plan at (the
 * search takes 1 where it is absent, as where it is undefined), and, past the time–cost curve, a deadline alone, which
 * runDeadlineNodes answers with fewestNodes: 'fewest-nodes' (never viaBudget) and no `smallest` (only a budget alone
 * states one); the larger batch's hint, which no-larger-batch.ts never gives in the bundle, is not asked (NO_LARGER_BATCH).
 * A request with neither a deadline nor the curve (the widget sends none) is refused in the words a budget was, at `days`.
 */
export const DEADLINE_OR_CURVE: readonly Swap[] = [
  ['const price = req.pricePerGpuHour;', 'const price = undefined;'],
  ['uptime: req.uptime,', ''],
  ['const budget = {\n'
    + '    ...(req.gpuHours !== undefined && { gpuHourBudget: req.gpuHours }),\n'
    + '    ...(req.budget !== undefined && { costBudget: req.budget }),\n'
    + '    ...(price !== undefined && { pricePerGpuHour: price }),\n'
    + '  };', ''],
  ['const budgetOnly = req.days === undefined;', ''],
  ['const budgetSearch = goals.budget;', ''],
  ["const withBudget = 'gpuHourBudget' in budget || 'costBudget' in budget;", ''],
  ['const answer = req.days !== undefined && (!withBudget || budgetSearch !== undefined)\n'
    + '    ? goals.deadline(r.base, req.tokens, { ...budget, deadlineSeconds: days(req.days) }, opts)\n'
    + '    : budgetSearch?.(r.base, req.tokens, budget, opts);',
  "if (req.days === undefined) return invalid([{ path: 'days', message: 'not answered here: ask the API' }]);\n"
    + '  const answer = goals.deadline(r.base, req.tokens, { deadlineSeconds: days(req.days) }, opts);'],
  ["mode: budgetOnly || ('viaBudget' in answer && answer.viaBudget === true) ? 'fastest-within-budget' : 'fewest-nodes',", "mode: 'fewest-nodes',"],
  ['...(answer.smallest && { smallest: { ...sizeJson(answer.smallest), withinBudget: meetsGoal(answer.smallest, budget) } }),', ''],
];

/**
 * runNodesWith's refusal of fewer tokens than one optimizer step: the widget asks "how many nodes" and the time–cost curve
 * only after its estimate of the same scenario (the same global batch and sequence length, kept link fields included)
 * passed its own check of the budget's tokens against one step, which it says beside the token budget
 * (trainplan-estimator.ts update), so no request of its own is under one step (91 B of the 80 kB gzip budget, with the
 * packages of 2026-12-01).
 */
export const WHOLE_STEPS_ASKED: readonly Swap[] = [
  ['const stepTokens = r.base.globalBatchSize * r.base.seqLength;\n'
    + '  if (req.tokens < stepTokens) {\n'
    + '    return invalid([{\n'
    + "      path: 'tokens',\n"
    + "      message: `${req.tokens.toLocaleString('en-US')} token${req.tokens === 1 ? '' : 's'} ${req.tokens === 1 ? 'is' : 'are'} less than one optimizer step, "
    + "a global batch of ${formatGrouped(r.base.globalBatchSize)} × ${formatGrouped(r.base.seqLength)} = ${stepTokens.toLocaleString('en-US')} tokens (training takes whole steps)`,\n"
    + '    }]);\n'
    + '  }', ''],
];

/** The head of runNodesWith's refusal of a budget when its build has no budget search (runDeadlineNodes). */
const NO_BUDGET_SEARCH = 'if (answer === undefined) {';

/**
 * The protocol's nodes.ts (withoutNodesModes, build.ts, first) for the widget's requests: UNASKED_NODES_FIELDS refused,
 * DEADLINE_OR_CURVE, WHOLE_STEPS_ASKED, what the widget's calls never reach there (withoutUnreached), and no refusal of a budget past it (a
 * deadline's answer is always there).
 */
export function nodesForDeadlineOrCurve(source: string): string {
  source = swapped(withoutFieldsOf(source, 'nodes.ts', NODES_REQUEST, UNASKED_NODES_FIELDS), 'nodes.ts', [...DEADLINE_OR_CURVE, ...WHOLE_STEPS_ASKED]);
  source = withoutUnreached(`/packages/${NODES_SOURCE}`, source);
  const start = source.indexOf(NO_BUDGET_SEARCH);
  const end = start < 0 ? undefined : closingBracket(source, start + NO_BUDGET_SEARCH.length);
  if (end === undefined) throw new Error(`no "${NO_BUDGET_SEARCH} … }" to leave out of nodes.ts`);
  return `${source.slice(0, start)}${source.slice(end + 1)}`;
}

/**
 * The search request fields the widget never gives (searchRequestFor: `cluster.nodes`, never `cluster.gpus`; no price,
 * no candidateBudget), by the head of the schema they are in (search-schema.ts).
 */
export const UNASKED_SEARCH_FIELDS: readonly (readonly [string, readonly string[]])[] = [
  ['const cluster = object({', ['gpus']],
  ['export const searchRequestSchema: Schema<SearchRequest> = object({', ['pricePerGpuHour', 'candidateBudget']],
];

/** search-schema.ts (withoutSearchRules, build.ts, first) without UNASKED_SEARCH_FIELDS. */
export const searchSchemaOnGivenNodes = (source: string): string =>
  UNASKED_SEARCH_FIELDS.reduce((s, [head, fields]) => withoutFieldsOf(s, 'search-schema.ts', head, fields), source);

/**
 * @trainplan/search's search-space.ts with no constraints to narrow the default space by: the widget's searches and "how
 * many nodes" give none (withoutConstraintFields refuses one), so their `constraints` is `{}`, and each dimension is the
 * list it was without one, in the same order (a cap not given filtered nothing). With UNCONSTRAINED_SEARCH, 0.2 kB of the
 * 80 kB gzip budget (79,909 → 79,708 B with the serving work of the day).
 */
export const UNCONSTRAINED_SPACE: readonly Swap[] = [
  ['const maxTensor = Math.min(constraints.maxTensor ?? 2 * domain, constraints.tensorWithinNode ? domain : Infinity);', 'const maxTensor = 2 * domain;'],
  ['const pipeline = constraints.pipelineSizes ? distinct(constraints.pipelineSizes) : range(1, Math.min(layers, constraints.maxPipeline ?? layers));',
    'const pipeline = range(1, layers);'],
  ['const pipelineSlots = constraints.pipelineSlots ? [...new Set(constraints.pipelineSlots)] : PIPELINE_SLOTS;', 'const pipelineSlots = PIPELINE_SLOTS;'],
  ['const virtualStages = constraints.virtualStageCounts\n'
    + '    ? distinct(constraints.virtualStageCounts)\n'
    + '    : megatronVirtualStages(layers, pipeline, pipelineSlots).filter((v) => v <= (constraints.maxVirtualStages ?? Infinity));',
  'const virtualStages = megatronVirtualStages(layers, pipeline, pipelineSlots);'],
  ['tensor: constraints.tensorSizes ? distinct(constraints.tensorSizes) : powersOfTwoUpTo(maxTensor),', 'tensor: powersOfTwoUpTo(maxTensor),'],
  ['context: constraints.contextSizes ? distinct(constraints.contextSizes) : powersOfTwoUpTo(constraints.maxContext ?? defaultMaxContext(base.seqLength)),',
    'context: powersOfTwoUpTo(defaultMaxContext(base.seqLength)),'],
  // Only the constraint's test: the default after it (the micro-batches 1 to 16, or their powers of two) stays as written.
  ['microBatchSize: constraints.microBatchSizes ? distinct(constraints.microBatchSizes) : ', 'microBatchSize: '],
  ['sequenceParallel: constraints.sequenceParallel ?? [false, true],', 'sequenceParallel: [false, true],'],
  ["recompute: constraints.recompute ?? ['none', 'selective', 'full', 'full-partial'],", "recompute: ['none', 'selective', 'full', 'full-partial'],"],
  ['sharding: constraints.sharding ?? megatronShardings(base),', 'sharding: megatronShardings(base),'],
];

/**
 * @trainplan/search's search.ts with no constraints to cap a space by (UNCONSTRAINED_SPACE says why): the searched space
 * is the given or default one, and the memory left usable is the default share.
 */
export const UNCONSTRAINED_SEARCH: readonly Swap[] = [
  ['return constrain(options.space ?? defaultSearchSpace(base, constraints), constraints, base.nvlinkDomainGpus);', 'return options.space ?? defaultSearchSpace(base);'],
  ['const memoryBudget = memoryBudgetBytes(base, constraints.memoryFraction);', 'const memoryBudget = memoryBudgetBytes(base);'],
];


/** Per source (the end of its path), what the widget's bundle leaves out of it for the requests it never makes. */
export const NEVER_MADE: readonly (readonly [RegExp, (source: string) => string])[] = [
  [/[\\/]protocol[\\/]src[\\/]search[\\/]run-search\.ts$/, (s) => swapped(s, 'run-search.ts', SEARCH_ON_GIVEN_NODES)],
  [/[\\/]protocol[\\/]src[\\/]search[\\/]inference-request\.ts$/, inferenceRequestWithoutShapes],
  [/[\\/]protocol[\\/]src[\\/]search[\\/]inference-messages\.ts$/, (s) => swapped(s, 'inference-messages.ts', SOME_SHAPE_TRIED)],
  [/[\\/]protocol[\\/]src[\\/]search[\\/]request-parts\.ts$/, withoutConstraintFields],
  [/[\\/]search[\\/]src[\\/]search-space\.ts$/, (s) => swapped(s, 'search-space.ts', UNCONSTRAINED_SPACE)],
  [/[\\/]search[\\/]src[\\/]search\.ts$/, (s) => swapped(s, 'search.ts', UNCONSTRAINED_SEARCH)],
  [/[\\/]search[\\/]src[\\/]inference[\\/]frontier\.ts$/, (s) => swapped(s, 'frontier.ts', DEFAULT_BATCHES)],
  [/[\\/]search[\\/]src[\\/]inference[\\/]inference-plan\.ts$/, (s) => swapped(s, 'inference-plan.ts', ONE_STAGE_SPECULATING)],
];

/**
 * The UNREACHED sources build.ts loads with trims of its own, calling withoutUnreached itself: nodes.ts
 * (nodesForDeadlineOrCurve) and @trainplan/search's capacity.ts (capacityForWidgetRequests).
 */
export const LOADED_IN_BUILD: readonly string[] = [NODES_SOURCE, 'search/src/capacity.ts'];

/**
 * Loads each NEVER_MADE source with its trim, the protocol's withoutJsonSchema first (`prepare`, build.ts's; before
 * protocolWithoutJsonSchema in the plugins: esbuild takes the first onLoad that answers), and withoutUnreached: it and the
 * other UNREACHED sources but LOADED_IN_BUILD. Any other source it leaves to the next plugin.
 */
export function requestsNeverMade(prepare: (source: string) => string): Plugin {
  const unreached = (path: string) => {
    const at = path.replace(/\\/g, '/');
    const ends = (file: string) => at.endsWith(`/packages/${file}`);
    return UNREACHED_SOURCES.some(ends) && !LOADED_IN_BUILD.some(ends);
  };
  return {
    name: 'trainplan-requests-never-made',
    setup(b) {
      b.onLoad({ filter: /[\\/]packages[\\/](?:protocol|search)[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const trim = NEVER_MADE.find(([filter]) => filter.test(args.path))?.[1];
        if (trim === undefined && !unreached(args.path)) return undefined;
        const source = await readFile(args.path, 'utf8');
        const trimmed = (trim ?? ((s: string) => s))(/[\\/]protocol[\\/]src[\\/]/.test(args.path) ? prepare(source) : source);
        return { contents: withoutUnreached(args.path, trimmed), loader: 'ts' };
      });
    },
  };
}
