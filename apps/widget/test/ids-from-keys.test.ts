import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { build, type Plugin } from 'esbuild';
import * as hardware from '@trainplan/hardware';
import { idsFromKeys, KEYED_TABLES, withIdsFromKeys } from '../src/ids-from-keys.ts';
import { buildWidgetBundle } from '../src/index.ts';

type Catalogues = Pick<typeof hardware, 'GPUS' | 'NETWORKS' | 'SYSTEMS' | 'NVLINKS' | 'defaultSystemForGpu'>;

/** @trainplan/hardware's catalogues loaded withIdsFromKeys alone, the rest of the sources as they are. */
async function catalogues(): Promise<Catalogues> {
  const plugin: Plugin = {
    name: 'ids-from-keys',
    setup(b) {
      b.onLoad({ filter: /[\\/]packages[\\/]hardware[\\/]src[\\/][\w-]+\.ts$/ }, async (args) => ({
        contents: withIdsFromKeys(args.path, await readFile(args.path, 'utf8')), loader: 'ts',
      }));
    },
  };
  const out = await build({
    stdin: {
      contents: "export { GPUS, NETWORKS, SYSTEMS, NVLINKS, defaultSystemForGpu } from '@trainplan/hardware';",
      resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts',
    },
    bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent', plugins: [plugin],
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.text).toString('base64')}`) as Promise<Catalogues>;
}

describe('the hardware catalogues\' ids set from their keys (ids-from-keys.ts)', () => {
  it('gives every GPU, network, system and NVLink generation the id it states in the sources, and nothing else changes', async () => {
    const bundled = await catalogues();
    for (const name of ['GPUS', 'NETWORKS', 'SYSTEMS', 'NVLINKS'] as const) {
      const sources = hardware[name] as Readonly<Record<string, { id: string }>>;
      expect(Object.keys(sources).length, name).toBeGreaterThan(3);
      for (const [key, spec] of Object.entries(sources)) expect(spec.id, `${name} ${key}`).toBe(key);
      expect(bundled[name], name).toEqual(sources);
    }
    // A GPU's default system is one of the systems' objects, its id set with theirs.
    expect(bundled.defaultSystemForGpu('h100-sxm')).toBe(bundled.SYSTEMS['dgx-h100']);
    expect(bundled.defaultSystemForGpu('h100-sxm').id).toBe('dgx-h100');
  });

  it('spells each id once in the widget\'s bundle: as its key', async () => {
    const { code } = await buildWidgetBundle();
    for (const id of ['dgx-h100', 'hdr-ib-8x', 'h100-sxm', 'nvlink4']) {
      expect(code).toMatch(new RegExp(`"?${id}"?:\\{`));
      expect(code).not.toContain(`id:"${id}"`);
    }
  });

  it('refuses to build when a catalogue no longer states its ids as its keys, or its table is not found', () => {
    const head = KEYED_TABLES['networks.ts']!;
    const table = (entries: string) => `const A = 1;\n${head}\n${entries}};\nexport const B = SPECS;\n`;
    const ok = table("  'a-1': {\n    id: 'a-1',\n    x: 1,\n  },\n  b: {\n    id: 'b',\n    y: { id: 'z' },\n  },\n");
    expect(idsFromKeys(ok, 'networks.ts')).toBe(`const A = 1;\n${head}\n  'a-1': {\n    x: 1,\n  },\n  b: {\n    y: { id: 'z' },\n  },\n};\n`
      + 'for (const id of Object.keys(SPECS)) (SPECS as Record<string, { id: string }>)[id]!.id = id;\nexport const B = SPECS;\n');
    expect(() => idsFromKeys(table("  a: {\n    id: 'b',\n  },\n"), 'networks.ts')).toThrow('the entry "a" states the id "b"');
    expect(() => idsFromKeys(table("  a: {\n    id: 'a',\n  },\n  b: {\n    x: 1,\n  },\n"), 'networks.ts')).toThrow('1 of its 2 entries state no id');
    expect(() => idsFromKeys('const SPECS = {};', 'networks.ts')).toThrow(/^no "const SPECS/);
    expect(withIdsFromKeys('/repo/packages/hardware/src/leaf-switches.ts', 'x')).toBe('x');
  });
});
