import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * docs/benchmarks.md as a header and one part per bench section, each part found by the "Rerun:
 * `BENCH_SECTIONS=<name> npm run bench`" line run.ts writes under its heading. A partial run
 * (BENCH_SECTIONS=estimate) replaces its own parts and keeps the others, in BENCH_SECTIONS order.
 */

/** The line run.ts writes under each section's heading; it names the section. */
export const rerunLine = (name: string): string => `Rerun: \`BENCH_SECTIONS=${name} npm run bench\`.`;
const RERUN = /^Rerun: `BENCH_SECTIONS=([\w-]+) npm run bench`\.$/;

/** A section's lines: its heading, the rerun line, then what the section wrote after its heading. */
export function sectionLines(name: string, markdown: readonly string[]): string[] {
  const [heading, ...rest] = markdown;
  return [heading ?? `## ${name}`, '', rerunLine(name), ...rest];
}

/**
 * The parts of an existing report by section name, each from its `## ` heading to the next; the text before the first
 * heading is the header. A part without a rerun line is no section's and is dropped, as a full run would drop it.
 */
export function splitReport(text: string): Map<string, string[]> {
  const parts: string[][] = [];
  for (const line of text.split('\n')) {
    if (/^## /.test(line)) parts.push([line]);
    else parts.at(-1)?.push(line);
  }
  return new Map(parts.flatMap((lines) => {
    const name = lines.map((l) => RERUN.exec(l)?.[1]).find((n) => n !== undefined);
    return name === undefined ? [] : [[name, lines] as const];
  }));
}

/** The header's line that says how the report was measured: "(BENCH_SECONDS=2 per measurement; Node 20.20.2, AMD EPYC)". */
const MEASURED = /\((BENCH_SECONDS=.*)\)\.$/m;

/** The text before a report's first section. */
function headerOf(report: string): string[] {
  const lines = report.split('\n');
  const first = lines.findIndex((l) => /^## /.test(l));
  return first < 0 ? lines : lines.slice(0, first);
}

/**
 * The report after a run: a header, then for each name of `order` the part just measured (`ran`) or, when this run
 * skipped that section, the part the existing report holds (none when it holds none).
 *
 * A full run writes `header`. A partial run keeps the existing header, which says how the last full run measured
 * (BENCH_SECONDS, Node, CPU): were it rewritten, a `BENCH_SECONDS=10 BENCH_SECTIONS=search` run would restate every
 * other section as measured at 10 s. Where this run measured otherwise, its sections say how under their rerun line.
 */
export function mergeReport(existing: string | undefined, header: readonly string[], ran: ReadonlyMap<string, readonly string[]>, order: readonly string[]): string {
  const kept = existing === undefined ? new Map<string, string[]>() : splitReport(existing);
  const partial = order.some((name) => !ran.has(name)) && kept.size > 0;
  const keptHeader = partial && existing !== undefined ? headerOf(existing) : undefined;
  const measuredNow = MEASURED.exec(header.join('\n'))?.[1];
  const measuredThen = keptHeader === undefined ? undefined : MEASURED.exec(keptHeader.join('\n'))?.[1];
  const noted = (lines: readonly string[]): readonly string[] =>
    keptHeader === undefined || measuredNow === undefined || measuredNow === measuredThen
      ? lines
      : [...lines.slice(0, 3), `Measured with ${measuredNow} (this section only; the header is the last full run's).`, ...lines.slice(3)];
  const body = order.flatMap((name) => { const fresh = ran.get(name); return fresh !== undefined ? noted(fresh) : kept.get(name) ?? []; });
  return [...(keptHeader ?? header), ...body].join('\n');
}

/** Merges this run's sections into the report at `path` (created when missing) and returns what was written. */
export function updateReportFile(path: string, header: readonly string[], ran: ReadonlyMap<string, readonly string[]>, order: readonly string[]): string {
  const report = mergeReport(existsSync(path) ? readFileSync(path, 'utf8') : undefined, header, ran, order);
  writeFileSync(path, report);
  return report;
}
