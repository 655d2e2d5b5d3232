import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { blankLiteralArguments, stripProperties } from './strip-properties.ts';

/** The browser entry; build.ts itself is Node-only and never part of the bundle. */
const ENTRY = fileURLToPath(new URL('./entry.ts', import.meta.url));
/** What the bundle takes in place of the collectives emulator's entry points (closed-form-emulation.ts says why). */
const CLOSED_FORM_EMULATION = fileURLToPath(new URL('./compute/closed-form-emulation.ts', import.meta.url));

/** What the bundle takes in place of the search's explanations of the runner-up plans (no-alternatives.ts says why). */
const NO_ALTERNATIVES = fileURLToPath(new URL('./compute/no-alternatives.ts', import.meta.url));

/** What the bundle takes in place of the collectives' opt-in CollNet model (collnet-off.ts says why). */
const COLLNET_OFF = fileURLToPath(new URL('./compute/collnet-off.ts', import.meta.url));

/** What the bundle takes in place of the protocol's warning about a gated shape's GPT defaults (no-shape-defaults.ts says why). */
const NO_SHAPE_DEFAULTS = fileURLToPath(new URL('./compute/no-shape-defaults.ts', import.meta.url));

/** What the bundle takes in place of the protocol's tally of what a search ruled out (no-pruned-tally.ts says why). */
const NO_PRUNED_TALLY = fileURLToPath(new URL('./compute/no-pruned-tally.ts', import.meta.url));

/**
 * Resolves @trainplan/collectives' emulator entry points to the widget's closed-form stand-in, its CollNet model to one
 * that is always off, @trainplan/protocol's shape-defaults warning and search tally to none, and @trainplan/search's
 * explain.ts to one that explains no alternatives.
 */
const withoutEmulator: Plugin = {
  name: 'trainplan-without-emulator',
  setup(b) {
    b.onResolve({ filter: /\/emulator\/emulated-collective-cost\.ts$/ }, () => ({ path: CLOSED_FORM_EMULATION }));
    b.onResolve({ filter: /^\.\/nccl-collnet-model\.ts$/ }, () => ({ path: COLLNET_OFF }));
    b.onResolve({ filter: /^\.\/shape-defaults-warning\.ts$/ }, () => ({ path: NO_SHAPE_DEFAULTS }));
    b.onResolve({ filter: /^\.\/pruned-json\.ts$/ }, () => ({ path: NO_PRUNED_TALLY }));
    b.onResolve({ filter: /^\.\/explain\.ts$/ }, (args) => (/[\\/]packages[\\/]search[\\/]src$/.test(args.resolveDir) ? { path: NO_ALTERNATIVES } : undefined));
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
  return blankLiteralArguments(stripped, 'description');
}

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
 * Loads NCCL's constant tables (@trainplan/collectives' nccl-tables.ts and nccl-runtime-tables.ts) without each value's
 * `source`, the NCCL file it was copied from: provenance for the reader and the tests, which no cost reads (the
 * widget reads `value` alone). The source strings were 0.7 kB of the 80 kB gzip budget (80,002 → 79,284 B).
 */
export const ncclTablesWithoutSources: Plugin = {
  name: 'trainplan-nccl-tables-without-sources',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/]collectives[\\/]src[\\/]nccl-(?:runtime-)?tables\.ts$/ }, async (args) => ({
      contents: stripProperties(await readFile(args.path, 'utf8'), ['source']),
      loader: 'ts',
    }));
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

/**
 * Bundles the widget with the core packages into one ES module with esbuild: minified, ES2022
 * for evergreen browsers, no source map, `sideEffects` honoured so unused exports drop out, the
 * collectives emulator left out (closed-form-emulation.ts), the search's explanations of its runner-up plans too
 * (no-alternatives.ts: 1.4 kB gzip, 80,086 → 78,685 B with the packages as committed), and what only the schemas'
 * OpenAPI document reads dropped (withoutJsonSchema).
 */
export async function buildWidgetBundle(): Promise<WidgetBundle> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
    plugins: [withoutEmulator, protocolWithoutJsonSchema, ncclTablesWithoutSources],
  });
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
