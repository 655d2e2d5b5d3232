import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { README_PATH, readBlock } from '@trainplan/validation/readme-block';
import { benchReadme, tableRow } from '../src/readme-block.ts';
import { mergeReport, sectionLines, splitReport, updateReportFile } from '../src/report-file.ts';

const HEADER = ['# Benchmarks', '', 'Regenerate with `npm run bench` (BENCH_SECONDS=2 per measurement; Node 20.0.0, Test CPU (R)).', ''];
const ORDER = ['estimate', 'emulator', 'http', 'search', 'load'];

/** A section as run.ts writes it: heading, rerun line, then the section's own lines. */
const part = (name: string, ...body: string[]) => sectionLines(name, [`## ${name} section`, '', ...body, '']);

/** A small report shaped like docs/benchmarks.md (the tables' headers as the bench sections write them). */
const FIXTURE = [
  ...HEADER,
  ...part('estimate', '| benchmark | estimates/s | µs per call | target |', '|---|---|---|---|',
    '| estimatePlan, GPT-3 175B on 1024 A100 (planner only) | 200,000 | 5.00 | ≥ 100,000/s (≤ 10 µs) met |',
    '| estimatePlan, Llama 3 70B on 128 H100, CP 2, v 5 (planner only) | 125,000 | 8.00 | ≥ 100,000/s (≤ 10 µs) met |'),
  ...part('emulator', '| measure | value | target |', '|---|---|---|', '| wall time (graph + emulation) | 0.500 s | ≤ 2 s: met |',
    '| events per second | 2.10 M | ≥ 2 M: met |'),
  ...part('http', '| measure | value | target | |', '|---|---|---|---|', '| requests/s | 3000 | ≥ 2000 | met |', '| p99 latency | 4.00 ms | ≤ 10 ms | met |',
    '| Worker bundle (wrangler deploy --dry-run), gzip -9 | 190.0 KiB (550.0 KiB raw) | ≤ 250 KiB | met |',
    '| widget module (both elements, the core included), gzip -9 | 77.0 kB (231.0 kB raw) | ≤ 80 kB | met |'),
  ...part('search', '| benchmark | candidates | full estimates | cold ms | median ms | best ms | candidates/s (median) | target |', '|---|---|---|---|---|---|---|---|',
    '| searchPlans, 1T on 3072 A100, batch 3072 (full default space, top 10) | 6,553,600 | 219 | 89 | 20.0 | 18.0 | 1 | ≤ 100 ms: met |',
    '', '### Inference planning speed', '', '| benchmark | shapes | cold ms | median ms | best ms |', '|---|---|---|---|---|',
    '| runInference, Llama 3 70B on H100, 2,048 + 512 tokens | 16 | 21 | 9.5 | 5.8 |',
    '| runInference, Llama 3 8B on H100, 100 requests/s, ≤ 30 ms/token | 16 | 28 | 16.5 | 12.6 |'),
  ...part('load', '| runtime | p99 |', '|---|---|', '| node | 8.5 ms |'),
].join('\n');

describe('docs/benchmarks.md: a partial run replaces only its own sections', () => {
  let dir: string | undefined;
  afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); dir = undefined; });

  it('splits a report into its sections by their rerun lines, in file order', () => {
    expect([...splitReport(FIXTURE).keys()]).toEqual(ORDER);
  });

  it('rewrites an unchanged report byte for byte', () => {
    expect(mergeReport(FIXTURE, HEADER, new Map(), ORDER)).toBe(FIXTURE);
  });

  it('BENCH_SECTIONS=estimate on a temporary file: estimate replaced, the others kept in their order', () => {
    dir = mkdtempSync(join(tmpdir(), 'trainplan-bench-'));
    const path = join(dir, 'benchmarks.md');
    writeFileSync(path, FIXTURE);
    const fresh = part('estimate', '| benchmark | estimates/s | µs per call | target |', '|---|---|---|---|',
      '| estimatePlan, GPT-3 175B on 1024 A100 (planner only) | 250,000 | 4.00 | ≥ 100,000/s (≤ 10 µs) met |');
    const written = updateReportFile(path, HEADER, new Map([['estimate', fresh]]), ORDER);
    expect(readFileSync(path, 'utf8')).toBe(written);
    const after = splitReport(written);
    expect([...after.keys()]).toEqual(ORDER);
    expect(after.get('estimate')).toEqual(fresh);
    for (const name of ORDER.slice(1)) expect(after.get(name)).toEqual(splitReport(FIXTURE).get(name));
  });

  it('a partial run at another budget keeps the header and says how its own sections were measured', () => {
    const otherHeader = HEADER.map((l) => l.replace('BENCH_SECONDS=2', 'BENCH_SECONDS=10'));
    const fresh = part('search', 'z');
    const written = mergeReport(FIXTURE, otherHeader, new Map([['search', fresh]]), ORDER);
    // The header still says 2 s: the estimate, emulator, http and load sections were measured so.
    expect(written.split('\n').slice(0, HEADER.length)).toEqual(HEADER);
    const search = splitReport(written).get('search')!;
    expect(search).toContain('Measured with BENCH_SECONDS=10 per measurement; Node 20.0.0, Test CPU (R) (this section only; the header is the last full run\'s).');
    expect(splitReport(written).get('estimate')).toEqual(splitReport(FIXTURE).get('estimate'));
    // The same budget and machine as the header: nothing to say.
    expect(splitReport(mergeReport(FIXTURE, HEADER, new Map([['search', fresh]]), ORDER)).get('search')).toEqual(fresh);
    // A full run writes its own header and no notes.
    const full = mergeReport(FIXTURE, otherHeader, new Map(ORDER.map((n) => [n, part(n, 'w')])), ORDER);
    expect(full.split('\n').slice(0, HEADER.length)).toEqual(otherHeader);
    expect(full).not.toContain('Measured with');
  });

  it('creates the file when missing, with only the sections run', () => {
    dir = mkdtempSync(join(tmpdir(), 'trainplan-bench-'));
    const path = join(dir, 'benchmarks.md');
    const written = updateReportFile(path, HEADER, new Map([['search', part('search', 'x')], ['estimate', part('estimate', 'y')]]), ORDER);
    expect([...splitReport(written).keys()]).toEqual(['estimate', 'search']);
  });
});

describe('README.md\'s npm run bench block', () => {
  it('reads a table row by its first cell, its header by column name', () => {
    const row = tableRow(FIXTURE.split('\n'), 'runInference, Llama 3 8B');
    expect(row?.get('median ms')).toBe('16.5');
    expect(tableRow(FIXTURE.split('\n'), 'no such row')).toBeUndefined();
  });

  it('quotes the report\'s figures (fixture)', () => {
    const text = benchReadme(FIXTURE).join('\n');
    expect(text).toContain('(Node 20.0.0, Test CPU (R))');
    for (const figure of ['5.00 µs', '(200,000/s)', '8.00 µs', '6,553,600 candidates', '20.0 ms (median; best 18.0 ms', 'Llama 3 70B in 9.5 ms',
      'in 16.5 ms', 'in 0.500 s (2.10 M events/s', '3,000 estimates/s with p99 4.00 ms', '77.0 kB gzip (231.0 kB raw), budget 80 kB',
      'Worker bundle 190.0 KiB gzip']) {
      expect(text).toContain(figure);
    }
  });

  it('leaves out the bullets of sections the report lacks', () => {
    const onlyEstimate = mergeReport(FIXTURE, HEADER, new Map(), ['estimate']);
    const lines = benchReadme(onlyEstimate).filter((l) => l.startsWith('- '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('5.00 µs');
  });

  it('names the row or column a renamed report lacks', () => {
    const renamed = FIXTURE.replace('| measure | value | target |', '| measure | figure | target |');
    expect(() => benchReadme(renamed)).toThrow(/"value" for the row "wall time"/);
  });

  it('README.md holds the block docs/benchmarks.md gives now', () => {
    const report = readFileSync(new URL('../../../docs/benchmarks.md', import.meta.url), 'utf8');
    const block = readBlock(readFileSync(README_PATH, 'utf8'), 'npm run bench');
    expect(block.ok && block.lines).toEqual(benchReadme(report));
  });
});
