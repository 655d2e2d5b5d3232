import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** The browser entry; build.ts itself is Node-only and never part of the bundle. */
const ENTRY = fileURLToPath(new URL('./entry.ts', import.meta.url));
/** What the bundle takes in place of the collectives emulator's entry points (closed-form-emulation.ts says why). */
const CLOSED_FORM_EMULATION = fileURLToPath(new URL('./compute/closed-form-emulation.ts', import.meta.url));

/** Resolves @trainplan/collectives' emulator entry points to the widget's closed-form stand-in. */
const withoutEmulator: Plugin = {
  name: 'trainplan-without-emulator',
  setup(b) {
    b.onResolve({ filter: /\/emulator\/emulated-collective-cost\.ts$/ }, () => ({ path: CLOSED_FORM_EMULATION }));
  },
};

/** A string literal, single-, double- or back-quoted (no nested template literal). */
const STRING = String.raw`(?:'[^'\\\n]*(?:\\.[^'\\\n]*)*'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\`[^\`\\]*(?:\\.[^\`\\]*)*\`)`;
/** `description: '…' + '…'` in a schema builder's options. */
const DESCRIPTION = new RegExp(String.raw`\bdescription:\s*${STRING}(?:\s*\+\s*${STRING})*`, 'g');

/**
 * Drops the protocol schemas' descriptions: they feed only the OpenAPI document (withDescription, toJsonSchema), which
 * the widget never builds, and they were 3.7 kB of its 80 kB budget (72 strings). Validation and its messages
 * do not read them (schema/scalars.ts). A description that is not a literal (a variable) is left as it is.
 */
const withoutSchemaDescriptions: Plugin = {
  name: 'trainplan-without-schema-descriptions',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/]protocol[\\/]src[\\/].*\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replace(DESCRIPTION, "description: ''"),
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
 * collectives emulator left out (closed-form-emulation.ts) and the schemas' OpenAPI descriptions dropped.
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
    plugins: [withoutEmulator, withoutSchemaDescriptions],
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
