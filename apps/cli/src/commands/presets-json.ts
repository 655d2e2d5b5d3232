import { PRESET_LISTS } from '@trainplan/presets';

/**
 * `trainplan presets --json`: each preset as the API's GET /v1/presets/{kind} serves it (@trainplan/presets
 * preset-json.ts: every figure in SI units named in its key, hbmBytes, nvlinkBandwidthBytesPerSecond, latencySeconds, its
 * source beside it, and the `summary` line the list prints, which this JSON carried before the figures did and the API
 * now serves too). Catalogues in the CLI's order, the order `trainplan presets` lists them.
 */
export const PRESET_JSON = {
  models: PRESET_LISTS.models,
  gpus: PRESET_LISTS.gpus,
  systems: PRESET_LISTS.systems,
  networks: PRESET_LISTS.networks,
} as const;
