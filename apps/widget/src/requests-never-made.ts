import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import { closingBracket, stripProperties } from './strip-properties.ts';

/**
 * What only requests the widget never makes reach, left out of its bundle as protocolForWidgetRequests leaves out a
 * budget (build.ts). The widget's requests are its own (compute/search-requests.ts, serving/request-from-fields.ts) and
 * its calls too (compute/off-thread.ts): a search always on given nodes, with no constraints, no candidateBudget and no
 * cap on it; an inference request with no `tensor`, `pipeline` or `batches` (the search's defaults). Each trim throws
 * where the text it replaces is not found, so that a change to the source fails the build, not the bundle. Node-only.
 */

/** `[what, with]`: a statement of a source and what the bundle takes in its place. */
type Swap = readonly [string, string];

function swapped(source: string, file: string, swaps: readonly Swap[]): string {
  for (const [what, by] of swaps) {
    if (!source.includes(what)) throw new Error(`no "${what}" to leave out of ${file}`);
    source = source.replace(what, by);
  }
  return source;
}

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

/** Per source (the end of its path), what the widget's bundle leaves out of it. */
export const NEVER_MADE: readonly (readonly [RegExp, (source: string) => string])[] = [
  [/[\\/]protocol[\\/]src[\\/]search[\\/]run-search\.ts$/, (s) => swapped(s, 'run-search.ts', SEARCH_ON_GIVEN_NODES)],
  [/[\\/]protocol[\\/]src[\\/]search[\\/]inference-request\.ts$/, inferenceRequestWithoutShapes],
  [/[\\/]protocol[\\/]src[\\/]search[\\/]inference-messages\.ts$/, (s) => swapped(s, 'inference-messages.ts', SOME_SHAPE_TRIED)],
  [/[\\/]protocol[\\/]src[\\/]search[\\/]request-parts\.ts$/, withoutConstraintFields],
  [/[\\/]search[\\/]src[\\/]inference[\\/]frontier\.ts$/, (s) => swapped(s, 'frontier.ts', DEFAULT_BATCHES)],
  [/[\\/]search[\\/]src[\\/]inference[\\/]inference-plan\.ts$/, (s) => swapped(s, 'inference-plan.ts', ONE_STAGE_SPECULATING)],
];

/**
 * Loads each NEVER_MADE source with its trim, the protocol's withoutJsonSchema first (`prepare`, build.ts's; before
 * protocolWithoutJsonSchema in the plugins: esbuild takes the first onLoad that answers).
 */
export function requestsNeverMade(prepare: (source: string) => string): Plugin {
  return {
    name: 'trainplan-requests-never-made',
    setup(b) {
      for (const [filter, trim] of NEVER_MADE) {
        b.onLoad({ filter }, async (args) => {
          const source = await readFile(args.path, 'utf8');
          return { contents: trim(/[\\/]protocol[\\/]src[\\/]/.test(args.path) ? prepare(source) : source), loader: 'ts' };
        });
      }
    },
  };
}
