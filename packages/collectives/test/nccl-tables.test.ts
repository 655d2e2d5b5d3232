import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NCCL_TABLES } from '../src/index.ts';
import { NCCL_COLLNET_TABLES } from '../src/nccl-collnet-model.ts';
import { NCCL_RUNTIME_TABLES } from '../src/nccl-runtime-tables.ts';
import { NCCL_TABLE_SOURCES } from '../src/nccl-table-sources.ts';

/** Each table's entries, its plain-string labels (version, snapshot) aside: what NCCL_TABLE_SOURCES must cite. */
const TABLES = { NCCL_TABLES, NCCL_RUNTIME_TABLES, NCCL_COLLNET_TABLES };
const entryNames = (table: object): string[] => Object.entries(table).filter(([, entry]) => typeof entry !== 'string').map(([name]) => name);

describe('NCCL_TABLES: versioned, cited constants', () => {
  it('names the NCCL version its constants come from', () => {
    expect(NCCL_TABLES.version).toBe('v2.30.x');
    expect(NCCL_TABLES.snapshot).toMatch(/NVIDIA\/nccl/);
  });

  it('cites an NVIDIA/nccl source file for every entry of every table, in NCCL_TABLE_SOURCES', () => {
    for (const [table, entries] of Object.entries(TABLES)) {
      const sources: Record<string, string> = NCCL_TABLE_SOURCES[table as keyof typeof TABLES];
      for (const name of entryNames(entries)) expect(sources[name], `${table}.${name}`).toMatch(/NVIDIA\/nccl src\/\S+\.(cc|h)/);
    }
  });

  it('cites no entry a table no longer has, and no table that is not one', () => {
    expect(Object.keys(NCCL_TABLE_SOURCES).sort()).toEqual(Object.keys(TABLES).sort());
    for (const [table, entries] of Object.entries(TABLES)) {
      expect(Object.keys(NCCL_TABLE_SOURCES[table as keyof typeof TABLES]).sort(), table).toEqual(entryNames(entries).sort());
    }
  });

  it('is imported by no runtime file, so the sources stay out of the Worker and the widget', () => {
    const src = new URL('../src/', import.meta.url);
    const importers = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && /from '[./]+nccl-table-sources\.ts'/.test(readFileSync(new URL(file, src), 'utf8')));
    expect(importers).toEqual([]);
  });

  it('keeps the sources out of the tables: an entry holds its value alone', () => {
    for (const [table, entries] of Object.entries(TABLES)) {
      for (const name of entryNames(entries)) expect(Object.keys((entries as Record<string, object>)[name]!), `${table}.${name}`).toEqual(['value']);
    }
  });

  it('keeps the reference\'s latency tables (µs): Ring LL/LL128/Simple base 6.6/14/8.4, NVLS NVLink 25', () => {
    expect(NCCL_TABLES.baseLatencyUs.value.ring).toEqual({ LL: 6.6, LL128: 14, Simple: 8.4 });
    expect(NCCL_TABLES.hwLatencyUs.value.nvlink.nvls.Simple).toBe(25);
    expect(NCCL_TABLES.hwLatencyUs.value.net.nvlsTree.Simple).toBe(20.9);
  });

  it('has 24 tree-correction factors per protocol (64 B · 2^i)', () => {
    for (const row of Object.values(NCCL_TABLES.treeCorrectionFactor.value)) expect(row).toHaveLength(24);
  });

  it('orders every speed ladder fastest first, as the search walks it', () => {
    for (const byGeneration of Object.values(NCCL_TABLES.speedLadderGBps.value)) {
      for (const ladder of Object.values(byGeneration)) {
        expect([...ladder].sort((a, b) => b - a)).toEqual(ladder);
      }
    }
  });
});
