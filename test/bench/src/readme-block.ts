import { splitReport } from './report-file.ts';

/**
 * README.md's `npm run bench` block, read off docs/benchmarks.md itself: run.ts writes the report, then this block
 * from the report's text, so the README quotes exactly what the report holds (a partial run included). A section the
 * report lacks (never run) leaves its bullet out.
 */

/** One table row of a section: its first cell starting with `rowStart`, as header → cell. */
export function tableRow(lines: readonly string[], rowStart: string): Map<string, string> | undefined {
  const cells = (line: string) => line.replace(/^\|/, '').replace(/\|\s*$/, '').split('|').map((c) => c.trim());
  const at = lines.findIndex((l) => l.startsWith('|') && cells(l)[0]!.startsWith(rowStart));
  if (at < 0) return undefined;
  let header = at;
  while (header > 0 && lines[header - 1]!.startsWith('|')) header--;
  const names = cells(lines[header]!);
  const row = cells(lines[at]!);
  return new Map(names.map((name, i) => [name, row[i] ?? '']));
}

/** The cell, or a programmer error naming what the report lacks (a renamed row or column). */
function cell(row: Map<string, string> | undefined, rowStart: string, column: string): string {
  const value = row?.get(column);
  if (value === undefined) throw new Error(`docs/benchmarks.md: no "${column}" for the row "${rowStart}"`);
  return value;
}

type Reader = (rowStart: string, column: string) => string;

/** Each bullet: the section it reads and how it words that section's rows. */
const BULLETS: readonly { section: string; render: (get: Reader) => string }[] = [
  {
    section: 'estimate',
    render: (get) => {
      const gpt3 = 'estimatePlan, GPT-3 175B on 1024 A100';
      const llama = 'estimatePlan, Llama 3 70B on 128 H100';
      return `- An estimate in ${get(gpt3, 'µs per call')} µs for GPT-3 175B on 1024 A100 (${get(gpt3, 'estimates/s')}/s) and `
        + `${get(llama, 'µs per call')} µs for Llama 3 70B on 128 H100 with CP 2 and v 5 (the planner alone; target ${get(gpt3, 'target')}).`;
    },
  },
  {
    section: 'search',
    render: (get) => {
      const search = 'searchPlans, 1T on 3072 A100';
      const serve70 = 'runInference, Llama 3 70B on H100';
      const serve8 = 'runInference, Llama 3 8B on H100, 100 requests/s';
      return `- The full configuration search of a 1T model on 3072 A100, every pipeline layout included (${get(search, 'candidates')} candidates), in `
        + `${get(search, 'median ms')} ms (median; best ${get(search, 'best ms')} ms; target ${get(search, 'target')}); a serving plan over every default `
        + `TP × PP shape of Llama 3 70B in ${get(serve70, 'median ms')} ms, and the fewest GPUs for 100 requests/s of Llama 3 8B, each point's `
        + `replicas found by its slot queue, in ${get(serve8, 'median ms')} ms (medians).`;
    },
  },
  {
    section: 'emulator',
    render: (get) => `- A ring all-reduce of 1 GiB over 16,384 H100 GPUs, topology graph built and emulated, in `
      + `${get('wall time', 'value')} (${get('events per second', 'value')} events/s; target ${get('wall time', 'target')}).`,
  },
  {
    section: 'http',
    render: (get) => {
      // "76.8 kB (230.5 kB raw)" → "76.8 kB gzip (230.5 kB raw)"
      const gzip = (size: string) => size.replace(/^(\S+ \S+)/, '$1 gzip');
      return `- The Node API at ${Number(get('requests/s', 'value')).toLocaleString('en-US')} estimates/s with p99 ${get('p99 latency', 'value')} (4 keep-alive connections, `
        + `the load generator on the same cores). The widget module, both elements and the core, is ${gzip(get('widget module', 'value'))}, `
        + `budget ${get('widget module', 'target').replace(/^≤ /, '')}; the Worker bundle ${gzip(get('Worker bundle', 'value'))}.`;
    },
  },
];

export function benchReadme(report: string): string[] {
  const sections = splitReport(report);
  const machine = /\(BENCH_SECONDS=[^;]*; (.*)\)\.$/m.exec(report)?.[1];
  const bullets = BULLETS.flatMap(({ section, render }) => {
    const lines = sections.get(section);
    if (lines === undefined) return [];
    return [render((rowStart, column) => cell(tableRow(lines, rowStart), rowStart, column))];
  });
  return [`From docs/benchmarks.md's run${machine === undefined ? '' : ` (${machine})`}:`, '', ...bullets];
}
