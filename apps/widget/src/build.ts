import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { blankLiteralArguments, closingBracket, stripProperties } from './strip-properties.ts';
import { DID_YOU_MEAN, KEY_HINT, returningNothing } from './without-suggestions.ts';
import { nodesForDeadlineOrCurve, requestsNeverMade, searchSchemaOnGivenNodes } from './requests-never-made.ts';
import { withoutUnreached } from './unreached-by-calls.ts';
import { withIdsFromKeys } from './ids-from-keys.ts';
import { collectiveCostOfNcclsChoice } from './nccl-own-choice.ts';
import { specsWithoutUnreadFields } from './unread-spec-fields.ts';

/** The browser entry; build.ts itself is Node-only and never part of the bundle. */
const ENTRY = fileURLToPath(new URL('./entry.ts', import.meta.url));
/** What the bundle takes in place of the collectives emulator's entry points (closed-form-emulation.ts says why). */
const CLOSED_FORM_EMULATION = fileURLToPath(new URL('./compute/closed-form-emulation.ts', import.meta.url));

/** What the bundle takes in place of the search's explanations of the runner-up plans (no-alternatives.ts says why). */
const NO_ALTERNATIVES = fileURLToPath(new URL('./compute/no-alternatives.ts', import.meta.url));

/** What the bundle takes in place of the collectives' opt-in CollNet model (collnet-off.ts says why). */
const COLLNET_OFF = fileURLToPath(new URL('./compute/collnet-off.ts', import.meta.url));

const NO_BANDWIDTH_ASSERTION = fileURLToPath(new URL('./compute/no-bandwidth-assertion.ts', import.meta.url));

const NO_ALL_TO_ALL = fileURLToPath(new URL('./compute/no-all-to-all.ts', import.meta.url));

/** What the bundle takes in place of the protocol's warning about a gated shape's GPT defaults (no-shape-defaults.ts says why). */
const NO_SHAPE_DEFAULTS = fileURLToPath(new URL('./compute/no-shape-defaults.ts', import.meta.url));

/** What the bundle takes in place of the protocol's tally of what a search ruled out (no-pruned-tally.ts says why). */
const NO_PRUNED_TALLY = fileURLToPath(new URL('./compute/no-pruned-tally.ts', import.meta.url));

/** What the bundle takes in place of the protocol's smaller cluster that steps faster (no-fewer-nodes.ts says why). */
const NO_FEWER_NODES = fileURLToPath(new URL('./compute/no-fewer-nodes.ts', import.meta.url));

/** What the bundle takes in place of the protocol's twice-the-batch hint on a capacity answer (no-larger-batch.ts says why). */
const NO_LARGER_BATCH = fileURLToPath(new URL('./compute/no-larger-batch.ts', import.meta.url));

/** What the bundle takes in place of the search's words for contradicting constraints (no-empty-space.ts says why). */
const NO_EMPTY_SPACE = fileURLToPath(new URL('./compute/no-empty-space.ts', import.meta.url));

/** What the bundle takes in place of the protocol's resolved fields for feeding an estimate back (no-resolved-extensions.ts says why). */
const NO_RESOLVED_EXTENSIONS = fileURLToPath(new URL('./compute/no-resolved-extensions.ts', import.meta.url));

/** What the bundle takes in place of the schema's "did you mean" for an enumerated field (no-meant-choice.ts says why). */
const NO_MEANT_CHOICE = fileURLToPath(new URL('./compute/no-meant-choice.ts', import.meta.url));

/**
 * Resolves @trainplan/collectives' emulator entry points to the widget's closed-form stand-in, its CollNet model to one
 * that is always off, @trainplan/protocol's shape-defaults warning, search tally, smaller faster cluster and twice-the-batch hint to none, and @trainplan/search's
 * explain.ts to one that explains no alternatives and its empty-space.ts to one that finds no constraint contradicting, and
 * the schema's suggestion for a slip of an enumerated value to none.
 */
const withoutEmulator: Plugin = {
  name: 'trainplan-without-emulator',
  setup(b) {
    b.onResolve({ filter: /\/emulator\/emulated-collective-cost\.ts$/ }, () => ({ path: CLOSED_FORM_EMULATION }));
    b.onResolve({ filter: /^\.\/nccl-collnet-model\.ts$/ }, () => ({ path: COLLNET_OFF }));
    b.onResolve({ filter: /^\.\/bandwidth-bound\.ts$/ }, () => ({ path: NO_BANDWIDTH_ASSERTION }));
    b.onResolve({ filter: /^\.\/direct-all-to-all\.ts$/ }, () => ({ path: NO_ALL_TO_ALL }));
    b.onResolve({ filter: /^\.\/shape-defaults-warning\.ts$/ }, () => ({ path: NO_SHAPE_DEFAULTS }));
    b.onResolve({ filter: /^\.\/pruned-json\.ts$/ }, () => ({ path: NO_PRUNED_TALLY }));
    b.onResolve({ filter: /^\.\/fewer-nodes-json\.ts$/ }, () => ({ path: NO_FEWER_NODES }));
    b.onResolve({ filter: /^\.\/nodes-larger-batch\.ts$/ }, () => ({ path: NO_LARGER_BATCH }));
    b.onResolve({ filter: /^\.\.\/meant-choice\.ts$/ }, () => ({ path: NO_MEANT_CHOICE }));
    b.onResolve({ filter: /^\.\/resolved-extensions\.ts$/ }, () => ({ path: NO_RESOLVED_EXTENSIONS }));
    const inSearch = (dir: string) => /[\\/]packages[\\/]search[\\/]src$/.test(dir);
    b.onResolve({ filter: /^\.\/explain\.ts$/ }, (args) => (inSearch(args.resolveDir) ? { path: NO_ALTERNATIVES } : undefined));
    b.onResolve({ filter: /^\.\/empty-space\.ts$/ }, (args) => (inSearch(args.resolveDir) ? { path: NO_EMPTY_SPACE } : undefined));
  },
};

/** A string literal, single-, double- or back-quoted (no nested template literal). */
const STRING = String.raw`(?:'[^'\\\n]*(?:\\.[^'\\\n]*)*'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\`[^\`\\]*(?:\\.[^\`\\]*)*\`)`;
/** `description: '…' + '…',` in a schema builder's options, with its comma. */
const DESCRIPTION = new RegExp(String.raw`\bdescription:\s*${STRING}(?:\s*\+\s*${STRING})*\s*,?`, 'g');

/**
 * The protocol source without what only the OpenAPI document reads: each schema's `toJsonSchema` method and the
 * `jsonSchema` keywords of an object's options (which only `toJsonSchema` spreads), then the descriptions, which only
 * `toJsonSchema` read (through withDescription): the literal ones in options, and the literals passed to a helper's
 * `description` parameter (`flag(true, '…')`). The widget never builds a JSON Schema: the protocol's
 * `*JsonSchema` documents are pure constants it does not import, so they drop out, and the bundle test checks that
 * no `toJsonSchema` is left to call. Validation and its messages read none of these (schema/scalars.ts,
 * schema/object.ts); a description that is not a literal (a variable) is left as it is.
 */
export function withoutJsonSchema(source: string): string {
  const stripped = stripProperties(source, ['toJsonSchema', 'jsonSchema']).replace(DESCRIPTION, '');
  return blankLiteralArguments(stripped, 'description', IMPORTED_DESCRIPTION_HELPERS);
}

/**
 * Description-only helpers that other protocol sources import (blankLiteralArguments reads one source at a time), with
 * the description's position: request-parts.ts's pricePerGpuHourField, to which inference-request.ts passes 0.3 kB of
 * text (135 B of the 80 kB gzip budget). The bundle test checks that it still qualifies in request-parts.ts.
 */
export const IMPORTED_DESCRIPTION_HELPERS: Readonly<Record<string, number>> = { pricePerGpuHourField: 0 };

/** The head of the days-on-nodes branch of @trainplan/protocol's runNodesWith (search/nodes.ts). */
const DAYS_ON_NODES = 'if (req.nodes !== undefined) {';

/** What the widget's nodes.ts says of a request it does not answer (a budget, the days on given nodes). */
const NOT_HERE = "'not answered here: ask the API'";

/** runNodesWith's refusal of a budget, which names what the full build plans (the days on given nodes among them). */
const BUDGET_REFUSAL = /'a budget is not answered here \(this build plans (?:[^'\\]|\\.)*'/;

/**
 * The protocol's nodes.ts without what only requests the widget never makes reach. The widget asks a deadline's fewest
 * nodes (tokens and days) and the time–cost curve (tokens and frontier), and nothing else (search-requests.ts), so:
 * - no answer to `nodes` (the days on a given cluster size, and the sizes nearest it when nothing runs there): such a
 *   request is refused, as runDeadlineNodes refuses a budget (0.47 kB of the 80 kB gzip budget);
 * - no `refine` of nodesRequestSchema, whose rules refuse a request giving two goals, none, or a money budget without
 *   a price: the widget's two requests pass them as built (0.21 kB);
 * - a budget's refusal (runDeadlineNodes) in the same words, not naming what this build no longer plans.
 * Throws where the `nodes` branch is not found, so that a change to nodes.ts fails the build, not the bundle.
 */
export function withoutNodesModes(source: string): string {
  source = stripProperties(source, ['refine']).replace(BUDGET_REFUSAL, NOT_HERE);
  const start = source.indexOf(DAYS_ON_NODES);
  const end = start < 0 ? undefined : closingBracket(source, start + DAYS_ON_NODES.length);
  if (end === undefined) throw new Error(`no "${DAYS_ON_NODES} … }" to leave out of nodes.ts`);
  return `${source.slice(0, start)}if (req.nodes !== undefined) return invalid([{ path: 'nodes', message: ${NOT_HERE} }]);${source.slice(end + 1)}`;
}

/**
 * The protocol's search-schema.ts without the `refine` rules of a search request and its cluster: they refuse both or
 * neither of nodes and gpus, and an objective or price without the tokens it needs. The widget's search request gives
 * nodes, objective "throughput" and no price (search-requests.ts), so it passes them as built.
 */
const withoutSearchRules = (source: string): string => stripProperties(source, ['refine']);

/** fewestOn's last step for a deadline with a budget that no power of two met (@trainplan/search's capacity.ts). */
const DEADLINE_OR_BUDGET = 'return deadlineOrBudget(s, goal, answer, deadlineUnreachable, scan, reachFor);';

/** What the widget's bundle does in its place: a budget never gets there (withoutBudgetOrNote says why). */
const NO_BUDGET_HERE = "throw new Error('fewestOn: no budget is searched in the widget');";

/** Where fewestOn's answer says how thoroughly the sizes below it were searched (capacity.ts, calling capacity-text.ts checkNote). */
const CHECK_NOTE = 'note: checkNote(point, checked), ';

/**
 * @trainplan/search's capacity.ts without what the widget's "how many nodes" never reaches or shows:
 * - a deadline with a budget (deadlineOrBudget, with the words it says it in, capacity-text.ts: bothMissedText, spendText,
 *   budgetsText, overText, apartText). The widget's requests give no budget (search-requests.ts), runDeadlineNodes refuses one
 *   before it searches (protocol nodes.ts: no budget goal), and the time–cost curve asks fewestOn for deadlines alone
 *   (capacity-frontier.ts), so a budget reaching fewestOn here is a programmer error, and throws (0.47 kB of the 80 kB
 *   gzip budget alone, 80,189 → 79,723 B);
 * - the answer's `note` ("every size from 40 to 63 nodes misses the goal (every one searched); …", capacity-text.ts
 *   checkNote and the checkedText and noPlanText it says it with): searchedNodesSection shows the nodes, GPUs, plan, days and GPU-hours
 *   and never the note, and no event carries the searched answer ('trainplan-sized' carries nodesAnswer's), so the
 *   in-page answer goes without it (the API's and the CLI's keep it), for 0.44 kB (80,189 → 79,746 B alone).
 * Together 80,189 → 79,213 B, the room the planner's and protocol's changes of 2026-11-29 took past the budget. Throws
 * where either is not found, so that a change to capacity.ts fails the build, not the bundle.
 */
export function withoutBudgetOrNote(source: string): string {
  for (const part of [DEADLINE_OR_BUDGET, CHECK_NOTE]) {
    if (!source.includes(part)) throw new Error(`no "${part}" to leave out of capacity.ts`);
  }
  return source.replace(DEADLINE_OR_BUDGET, NO_BUDGET_HERE).replace(CHECK_NOTE, '');
}

/** Loads @trainplan/search's capacity.ts withoutBudgetOrNote, then withoutUnreached (unreached-by-calls.ts: ONE_BATCH_A_SIZE). */
export const capacityForWidgetRequests: Plugin = {
  name: 'trainplan-capacity-without-budget-or-note',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/]search[\\/]src[\\/]capacity\.ts$/ }, async (args) => ({
      contents: withoutUnreached(args.path, withoutBudgetOrNote(await readFile(args.path, 'utf8'))),
      loader: 'ts',
    }));
  },
};

/**
 * Loads the protocol's nodes.ts withoutNodesModes and search-schema.ts withoutSearchRules (both withoutJsonSchema too),
 * then without the request fields the widget never gives and what only they reach (requests-never-made.ts:
 * nodesForDeadlineOrCurve, searchSchemaOnGivenNodes; 0.26 kB of the 80 kB gzip budget, 80,184 → 79,929 B with the
 * serving work of the day): unlike withoutJsonSchema, these change what a malformed or budget request is told, for
 * requests only other clients make. Before protocolWithoutJsonSchema in the plugins (esbuild takes the first onLoad that
 * answers).
 */
export const protocolForWidgetRequests: Plugin = {
  name: 'trainplan-widget-requests-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/]protocol[\\/]src[\\/]search[\\/](?:nodes|search-schema)\.ts$/ }, async (args) => {
      const source = withoutJsonSchema(await readFile(args.path, 'utf8'));
      return {
        contents: /nodes\.ts$/.test(args.path) ? nodesForDeadlineOrCurve(withoutNodesModes(source)) : searchSchemaOnGivenNodes(withoutSearchRules(source)),
        loader: 'ts',
      };
    });
  },
};

/**
 * Loads the protocol's preset-ids.ts and schema/object.ts withoutJsonSchema and without their suggestions for an unknown
 * preset id or key, which the widget's own requests never need (without-suggestions.ts says why). They and the edit
 * distance they are found by were 0.46 kB of the 80 kB gzip budget (80,250 → 79,788 B), room for the time–cost chart's
 * labels beside their own dots and its caption's rings, the price's currency and the grouped bounds (QA). Before
 * protocolWithoutJsonSchema in the plugins (esbuild takes the first onLoad that answers).
 */
export const protocolWithoutSuggestions: Plugin = {
  name: 'trainplan-protocol-without-suggestions',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/]protocol[\\/]src[\\/](?:preset-ids|schema[\\/]object)\.ts$/ }, async (args) => ({
      contents: returningNothing(withoutJsonSchema(await readFile(args.path, 'utf8')), /preset-ids\.ts$/.test(args.path) ? DID_YOU_MEAN : KEY_HINT),
      loader: 'ts',
    }));
  },
};

/**
 * Loads the protocol's sources withoutJsonSchema. The option descriptions were 3.7 kB of the 80 kB gzip budget; the rest
 * (toJsonSchema, jsonSchema, the emptied description keys, the helpers' descriptions) a further 1.3 kB (79,925 → 78,649 B).
 */
export const protocolWithoutJsonSchema: Plugin = {
  name: 'trainplan-without-json-schema',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/]protocol[\\/]src[\\/].*\.ts$/ }, async (args) => ({
      contents: withoutJsonSchema(await readFile(args.path, 'utf8')),
      loader: 'ts',
    }));
  },
};

/**
 * Loads the hardware catalogue's systems and networks without their `name`s ("8 × HDR InfiniBand 200 Gb/s (DGX A100,
 * Selene, Azure NDm A100 v4)"): the widget lists them by id, and nothing it runs reads a system's or a network's name (the
 * CLI, the API's preset lists and the bot do, and keep them). GPU names stay: the widget's precision note says one. The
 * names were 0.34 kB of the 80 kB gzip budget (79,974 → 79,631 B); the bundle test checks that none is left. The NVLink
 * generations' names (nvlink.ts), which nothing in the widget reads either (fabric-from-specs.ts reads a generation's id
 * and bandwidth), a further 32 B. The catalogues' ids are set from their keys (ids-from-keys.ts).
 */
export const systemsAndNetworksWithoutNames: Plugin = {
  name: 'trainplan-systems-networks-without-names',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/]hardware[\\/]src[\\/](?:networks|systems|nvlink)\.ts$/ }, async (args) => ({
      contents: withIdsFromKeys(args.path, stripProperties(await readFile(args.path, 'utf8'), ['name'])),
      loader: 'ts',
    }));
  },
};

/**
 * What a model preset says that only the CLI, the API's preset list, the bot and the config export read: the published
 * figures and the tokenizer, and the architecture flags only the NeMo/Megatron export writes out (the protocol's
 * export-architecture.ts: --rotary-base, --rotary-percent, --rope-scaling-factor, squared-ReLU, --apply-layernorm-1p),
 * which no estimate reads (the planner's costs take the shape alone).
 */
export const UNREAD_PRESET_FIELDS = [
  'publishedParameters', 'publishedGlobalBatchSize', 'defaultTrainingTokens', 'tokenizer',
  'rotaryBase', 'ropeScalingFactor', 'rotaryPercent', 'mlpActivation', 'layerNorm1p',
] as const;

/**
 * Loads the model presets (@trainplan/presets' llama.ts, gpt3.ts, …) without UNREAD_PRESET_FIELDS: the published
 * parameter count and batch, the default token budget and the tokenizer, which the chat bot's defaults, the preset
 * JSON and the NeMo/Megatron export read, and nothing the widget runs does (it computes parameters from the shape and
 * takes the form's batch and budget). The bundle test checks that no code left in it reads one. They were 0.22 kB of the
 * 80 kB gzip budget (79,990 → 79,774 B with the packages of the day), room for the charts' text alternatives (QA); the
 * export's architecture flags a further 80 B (with the packages of 2026-11-30).
 */
export const modelPresetsWithoutUnreadFields: Plugin = {
  name: 'trainplan-model-presets-without-unread-fields',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/]presets[\\/]src[\\/](?:llama|gpt3|megatron|nemotron|bloom)\.ts$/ }, async (args) => ({
      contents: stripProperties(await readFile(args.path, 'utf8'), UNREAD_PRESET_FIELDS),
      loader: 'ts',
    }));
  },
};

/**
 * The stylesheet's sources (element/styles.ts: the STYLES, LIGHT and DARK literals, ` = \`…\`;`) on one line: its
 * lines, each ending a rule or a declaration, are for the reader, and CSS needs no newline between rules. The newlines
 * were 38 B of the 80 kB gzip budget (80,057 → 80,019 B), room for the worker's stopped searches.
 */
export const stylesOnOneLine = (source: string): string => source.replace(/ = `[^`]*`;/g, (css) => css.replace(/\n/g, ''));

const stylesWithoutNewlines: Plugin = {
  name: 'trainplan-styles-one-line',
  setup(b) {
    b.onLoad({ filter: /[\\/]element[\\/]styles\.ts$/ }, async (args) => ({ contents: stylesOnOneLine(await readFile(args.path, 'utf8')), loader: 'ts' }));
  },
};

export interface WidgetBundle {
  /** The ES module `trainplan-widget.js`, minified. */
  readonly code: string;
  readonly bytes: number;
  /** Its size after gzip (level 9): what the bundle budget is measured on. */
  readonly gzipBytes: number;
}

/** The bundle budget: at most 80 KB gzip, the core included. */
export const WIDGET_BUDGET_GZIP_BYTES = 80 * 1000;

/** How esbuild builds the bundle: one minified ES module for browsers, with the stand-ins and trims above (a size audit reuses it). */
export const WIDGET_BUILD_OPTIONS = {
  entryPoints: [ENTRY],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  // The global Infinity (read-only, so no page can change it), which esbuild prints as 1/0, is the value of
  // Number.POSITIVE_INFINITY, +∞ (ECMA-262, the value properties of the global object and of the Number constructor),
  // spelled in 24 letters at each of the sources' 14 uses: 65 B of the 80 kB gzip budget (with the packages of 2026-11-30).
  define: { 'Number.POSITIVE_INFINITY': 'Infinity' },
  write: false,
  logLevel: 'silent',
  plugins: [
    withoutEmulator, protocolForWidgetRequests, protocolWithoutSuggestions, requestsNeverMade(withoutJsonSchema), protocolWithoutJsonSchema, systemsAndNetworksWithoutNames, modelPresetsWithoutUnreadFields,
    stylesWithoutNewlines, capacityForWidgetRequests, collectiveCostOfNcclsChoice, specsWithoutUnreadFields,
  ],
} as const satisfies BuildOptions & { write: false };

/**
 * Bundles the widget with the core packages into one ES module with esbuild: minified, ES2022
 * for evergreen browsers, no source map, `sideEffects` honoured so unused exports drop out, the
 * collectives emulator left out (closed-form-emulation.ts), the search's explanations of its runner-up plans too
 * (no-alternatives.ts: 1.4 kB gzip, 80,086 → 78,685 B with the packages as committed), what only the schemas'
 * OpenAPI document reads dropped (withoutJsonSchema), and what only requests the widget never makes reach
 * (protocolForWidgetRequests, no-empty-space.ts, withoutBudgetOrNote) or its calls never reach (unreached-by-calls.ts
 * UNREACHED, nccl-own-choice.ts: a forced collective algorithm), nor what a model preset, a GPU or NCCL's tables say that
 * it never reads (modelPresetsWithoutUnreadFields, unread-spec-fields.ts), nor the suggestions for an unknown id or key
 * (protocolWithoutSuggestions).
 */
export async function buildWidgetBundle(): Promise<WidgetBundle> {
  const result = await build(WIDGET_BUILD_OPTIONS);
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output');
  const code = file.text;
  return { code, bytes: file.contents.byteLength, gzipBytes: gzipSync(file.contents, { level: 9 }).byteLength };
}

let cached: Promise<WidgetBundle> | undefined;

/** The bundle, built once per process on first use and kept (a failed build is retried next time). */
export function widgetBundle(): Promise<WidgetBundle> {
  cached ??= buildWidgetBundle().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
