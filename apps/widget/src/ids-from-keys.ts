import { closingBracket } from './strip-properties.ts';

/**
 * The hardware catalogues keyed by id whose every entry also states its id (`'dgx-h100': { id: 'dgx-h100', … }`), by
 * file (@trainplan/hardware), with the head of the table. Node-only, never part of the bundle.
 */
export const KEYED_TABLES: Readonly<Record<string, string>> = {
  'gpus.ts': 'const SPECS: Readonly<Record<GpuId, GpuSpec>> = {',
  'networks.ts': 'const SPECS: Readonly<Record<NetworkId, NetworkSpec>> = {',
  'systems.ts': 'const SPECS: Readonly<Record<SystemId, KnownSystem>> = {',
  'nvlink.ts': 'export const NVLINKS: Readonly<Record<NvlinkGenerationId, NvlinkGeneration>> = {',
};

/** An entry's head and its id on the next line: `  'dgx-h100': {\n    id: 'dgx-h100',\n` (the key quoted or bare). */
const ENTRY_WITH_ID = /^( +)('?)([\w.-]+)\2: \{\n +id: '([\w.-]+)',\n/gm;

/**
 * A catalogue's source (`file`, one of KEYED_TABLES) with each entry's id left out of its literal and set from its key
 * once the table is built, as the entry stated it: the same objects, each with the same id (last among its keys rather
 * than first). The 35 ids spelled twice were 99 B of the 80 kB gzip budget
 * (with the packages of 2026-12-01). Throws where the table's head is not found,
 * an entry states no id or one that is not its key, so that a change to the catalogue fails the build, not the bundle.
 */
export function idsFromKeys(source: string, file: string): string {
  const head = KEYED_TABLES[file];
  const start = head === undefined ? -1 : source.indexOf(head);
  const end = start < 0 ? undefined : closingBracket(source, start + head!.length);
  if (end === undefined || source[end + 1] !== ';') throw new Error(`no "${head ?? file} … };" to set the ids of in ${file}`);
  const body = source.slice(start + head!.length, end);
  let entries = 0;
  const stripped = body.replace(ENTRY_WITH_ID, (_m, indent: string, quote: string, key: string, id: string) => {
    if (id !== key) throw new Error(`${file}: the entry "${key}" states the id "${id}"`);
    entries += 1;
    return `${indent}${quote}${key}${quote}: {\n`;
  });
  const keys = body.match(/^ {2}'?[\w.-]+'?: \{/gm)?.length ?? 0;
  if (entries === 0 || entries !== keys) throw new Error(`${file}: ${keys - entries} of its ${keys} entries state no id on their first line`);
  const table = head!.replace(/^(?:export )?const (\w+).*$/, '$1');
  return `${source.slice(0, start + head!.length)}${stripped}};\nfor (const id of Object.keys(${table})) (${table} as Record<string, { id: string }>)[id]!.id = id;${source.slice(end + 2)}`;
}

/** `source` read from `path` with idsFromKeys where it is one of KEYED_TABLES' files, else as it is. */
export function withIdsFromKeys(path: string, source: string): string {
  const file = path.replace(/\\/g, '/').match(/\/packages\/hardware\/src\/([\w-]+\.ts)$/)?.[1];
  return file !== undefined && file in KEYED_TABLES ? idsFromKeys(source, file) : source;
}
