import type { Citation } from '@trainplan/hardware';
import { PRESET_LISTS } from '@trainplan/presets';

/** One preset as the list shows it: its id, name, key figures in words, and the source it cites. */
export interface PresetLine {
  id: string;
  name: string;
  summary: string;
  source: Citation;
}

/**
 * A catalogue's lines: each preset's `summary` as the catalogue's JSON carries it (@trainplan/presets preset-summary.ts),
 * the field GET /v1/presets/{kind} and --json serve, so that the list and both JSONs say one line.
 */
const lines = (presets: readonly PresetLine[]): PresetLine[] => presets.map(({ id, name, summary, source }) => ({ id, name, summary, source }));

/** The catalogues in the order the list shows them, each preset in its catalogue's order. */
export const PRESET_LINES = {
  models: lines(PRESET_LISTS.models),
  gpus: lines(PRESET_LISTS.gpus),
  systems: lines(PRESET_LISTS.systems),
  networks: lines(PRESET_LISTS.networks),
} as const;

export type PresetCatalogue = keyof typeof PRESET_LINES;
export const CATALOGUES = Object.keys(PRESET_LINES) as PresetCatalogue[];

/** One catalogue as text: a heading, then each id padded to a column, its name and figures, and its source on the next line. */
export function catalogueText(kind: PresetCatalogue): string {
  const lines = PRESET_LINES[kind];
  const width = Math.max(...lines.map((p) => p.id.length));
  return [`${kind} (${lines.length}):`, ...lines.flatMap((p) => [
    `  ${p.id.padEnd(width)}  ${p.name} · ${p.summary}`,
    `  ${''.padEnd(width)}  source: ${p.source.title}`,
  ])].join('\n');
}
