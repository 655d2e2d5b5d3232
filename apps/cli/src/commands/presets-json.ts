import { PRESET_LISTS } from '@trainplan/presets';
import { PRESET_LINES, type PresetCatalogue } from './presets-list.ts';

/**
 * `trainplan presets --json`: each preset as the API's GET /v1/presets/{kind} serves it (@trainplan/presets
 * preset-json.ts: every figure in SI units named in its key, hbmBytes, nvlinkBandwidthBytesPerSecond, latencySeconds, and
 * its source beside it), with the `summary` line the list prints, which this JSON carried before the figures did (kept:
 * scripts read it). Catalogues in the CLI's order, the order `trainplan presets` lists them.
 */
const withSummary = <P extends { id: string }>(kind: PresetCatalogue, presets: readonly P[]) =>
  presets.map((p) => ({ ...p, summary: PRESET_LINES[kind].find((line) => line.id === p.id)!.summary }));

export const PRESET_JSON = {
  models: withSummary('models', PRESET_LISTS.models),
  gpus: withSummary('gpus', PRESET_LISTS.gpus),
  systems: withSummary('systems', PRESET_LISTS.systems),
  networks: withSummary('networks', PRESET_LISTS.networks),
} as const;
