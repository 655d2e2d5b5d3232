import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { runEstimate, validateScenario } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { buildWidgetBundle, protocolWithoutSuggestions } from '../src/build.ts';
import { DEFAULT_VALUES } from '../src/form/fields.ts';
import { scenarioFromFields } from '../src/form/scenario-from-fields.ts';
import { DID_YOU_MEAN, KEY_HINT, returningNothing } from '../src/without-suggestions.ts';

const source = (path: string) => readFile(new URL(`../../../packages/protocol/src/${path}`, import.meta.url), 'utf8');

/** A message as the sources say it, less its suggestion: " (did you mean …?)" or " (known fields: …)". */
const unsuggested = (message: string) => message.replace(/ \((?:did you mean|known fields:) [^)]*\)/g, '');

describe('the bundle without the protocol\'s suggestions for unknown names (protocolWithoutSuggestions)', () => {
  it('finds both functions it empties in the protocol\'s sources as they are', async () => {
    expect(await source('preset-ids.ts')).toContain(DID_YOU_MEAN);
    expect(await source('schema/object.ts')).toContain(KEY_HINT);
  });

  it('empties the function, braces nested, and leaves the rest as written; refuses to build when it is gone', () => {
    const head = 'function f(x: string): string {';
    expect(returningNothing(`const a = 1;\n${head}\n  if (x) { return '}'; }\n  return \`{\${x}\`;\n}\nconst b = 2;`, head))
      .toBe(`const a = 1;\n${head} return ''; }\nconst b = 2;`);
    expect(() => returningNothing('export function didYouMean(id) { return id; }', DID_YOU_MEAN)).toThrow('no "export function didYouMean(');
  });

  it('refuses what the sources refuse, in their words less the suggestion: an unknown preset id, an unknown key', async () => {
    const out = await build({
      stdin: { contents: "export { runEstimate, validateScenario } from '@trainplan/protocol';", resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
      bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent', plugins: [protocolWithoutSuggestions],
    });
    const bundled = (await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.text).toString('base64')}`)) as { runEstimate: typeof runEstimate; validateScenario: typeof validateScenario };
    const base = { cluster: { gpu: 'a100-80gb', nodes: 1 }, training: { globalBatchSize: 8 }, parallelism: { tensor: 1, pipeline: 1 } };
    // A slip of a preset id, and keys a slip or a list away from known ones: each suggested in the sources.
    const slipped = { ...base, model: 'gpt3-175' };
    const keys = { ...base, model: 'gpt3-175b', cluster: { ...base.cluster, gpuz: 8 }, training: { ...base.training, globalBach: 8 } };
    const sources = [runEstimate(slipped), validateScenario(keys)].map((a) => (a as { issues: { path: string; message: string }[] }).issues);
    const bundle = [bundled.runEstimate(slipped), bundled.validateScenario(keys)].map((a) => (a as { issues: { path: string; message: string }[] }).issues);
    expect(sources.flat().map((i) => i.message)).toEqual([
      expect.stringContaining('(did you mean gpt3-175b?)'), expect.stringContaining('(did you mean gpu or gpus?)'), expect.stringContaining('(known fields: globalBatchSize,'),
    ]);
    expect(bundle).toEqual(sources.map((issues) => issues.map((i) => ({ ...i, message: unsuggested(i.message) }))));
  });

  it('leaves no suggestion in the widget\'s bundle, whose form refuses an unknown preset id itself', async () => {
    const { code } = await buildWidgetBundle();
    for (const text of ['did you mean', 'known fields']) expect(code).not.toContain(text);
    // A link's model slip reaches the form's select, which refuses it before the protocol sees it.
    const r = scenarioFromFields({ ...DEFAULT_VALUES, model: 'gpt3-175' });
    expect(!r.ok && r.issues).toEqual([{ field: 'model', message: 'unknown model "gpt3-175"' }]);
  });
});
