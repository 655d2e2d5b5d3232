import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import { withIdsFromKeys } from './ids-from-keys.ts';
import { stripProperties } from './strip-properties.ts';

/**
 * What the hardware catalogue's and the collectives' constants hold that nothing in the widget's bundle reads, left out of
 * it as systemsAndNetworksWithoutNames leaves out the systems' names (build.ts). Each list is checked by the bundle test:
 * no key left, and no read of one (`.tdpWatts`, `{l2Bytes`, `"collnetDirect"`), where a read would find it stripped.
 * Node-only, never part of the bundle.
 */

/**
 * A GPU's TDP and L2 size (@trainplan/hardware gpus.ts): only the preset JSON (the API's and the CLI's preset lists) and
 * the chat bot's GPU facts read them; the planner's kernel model takes the SMs, the peaks and the HBM bandwidth.
 */
export const UNREAD_GPU_FIELDS = ['tdpWatts', 'l2Bytes'] as const;

/**
 * NCCL_TABLES' (@trainplan/collectives nccl-tables.ts) CollNet rows, read only by nccl-collnet-model.ts, which the bundle
 * replaces with compute/collnet-off.ts (CollNet is an opt-in the widget never sets), and its provenance, the NCCL version
 * and snapshot the tables were read from, which no cost reads (nccl-table-sources.ts keeps the rest of it out too).
 */
export const UNREAD_NCCL_TABLE_FIELDS = ['collnetDirect', 'collnetChain', 'version', 'snapshot'] as const;

/**
 * Loads gpus.ts without UNREAD_GPU_FIELDS and nccl-tables.ts without UNREAD_NCCL_TABLE_FIELDS: 0.15 kB of the 80 kB gzip
 * budget (with the packages of 2026-11-30, each alone: the GPUs' 60 B, the tables' 89 B).
 */
export const specsWithoutUnreadFields: Plugin = {
  name: 'trainplan-specs-without-unread-fields',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/](?:hardware[\\/]src[\\/]gpus|collectives[\\/]src[\\/]nccl-tables)\.ts$/ }, async (args) => ({
      contents: withIdsFromKeys(args.path, stripProperties(await readFile(args.path, 'utf8'), /gpus\.ts$/.test(args.path) ? UNREAD_GPU_FIELDS : UNREAD_NCCL_TABLE_FIELDS)),
      loader: 'ts',
    }));
  },
};
