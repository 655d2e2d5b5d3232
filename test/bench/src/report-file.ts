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

/**
 * The report after a run: `header`, then for each name of `order` the part just measured (`ran`) or, when this run
 * skipped that section, the part the existing report holds (none when it holds none).
 */
export function mergeReport(existing: string | undefined, header: readonly string[], ran: ReadonlyMap<string, readonly string[]>, order: readonly string[]): string {
  const kept = existing === undefined ? new Map<string, string[]>() : splitReport(existing);
  const body = order.flatMap((name) => ran.get(name) ?? kept.get(name) ?? []);
  return [...header, ...body].join('\n');
}

/** Merges this run's sections into the report at `path` (created when missing) and returns what was written. */
export function updateReportFile(path: string, header: readonly string[], ran: ReadonlyMap<string, readonly string[]>, order: readonly string[]): string {
  const report = mergeReport(existsSync(path) ? readFileSync(path, 'utf8') : undefined, header, ran, order);
  writeFileSync(path, report);
  return report;
}
