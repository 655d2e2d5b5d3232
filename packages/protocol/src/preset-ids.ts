import { gpuById, GPU_IDS, modelById, MODEL_IDS, networkById, NETWORK_IDS, systemById, SYSTEM_IDS } from '@trainplan/presets';
import { meantPhrase, nearestAll } from './nearest.ts';
import type { FieldIssue } from './wire.ts';

const known = (ids: readonly string[]): string => ids.join(', ');

/** The preset ids of each kind a person types: a GPU's place takes a system id too. */
const IDS_BY_KIND = {
  model: MODEL_IDS,
  gpu: [...GPU_IDS, ...SYSTEM_IDS],
  network: NETWORK_IDS,
} as const satisfies Record<string, readonly string[]>;
export type PresetKind = keyof typeof IDS_BY_KIND;

/**
 * The preset id a person meant when only its case differs ("llama3-70B", "H100-SXM" → llama3-70b,
 * h100-sxm), else the text as typed, for validation to refuse with its did-you-mean. For the CLI, where
 * a person types; the API and the contract keep ids exact.
 */
export function presetIdAnyCase(kind: PresetKind, typed: string): string {
  const lower = typed.toLowerCase();
  return IDS_BY_KIND[kind].find((id) => id.toLowerCase() === lower) ?? typed;
}

/** Ties offered at most: more is no suggestion. */
const MAX_MEANT = 3;

/**
 * ' (did you mean gpt3-175b?)' when a known id is a slip away from the one given, ' (did you mean
 * llama3-70b or llama3.1-405b?)' when a few tie (nearestAll), else ''.
 */
export function didYouMean(id: string, ids: readonly string[]): string {
  const meant = nearestAll(id, ids);
  if (meant.length === 0 || meant.length > MAX_MEANT) return '';
  return meantPhrase(meant);
}

/** The issue for a model id no preset has. */
export const unknownModel = (id: string): FieldIssue => ({
  path: 'model', message: `unknown model "${id}"${didYouMean(id, MODEL_IDS)}; known: ${known(MODEL_IDS)}`,
});
/** The issue for a GPU id no preset has (a system id is one too). */
export const unknownGpu = (id: string): FieldIssue => ({
  path: 'cluster.gpu', message: `unknown GPU "${id}"${didYouMean(id, [...GPU_IDS, ...SYSTEM_IDS])}; known: ${known(GPU_IDS)}; or a system id: ${known(SYSTEM_IDS)}`,
});
/** The issue for a network id no preset has. */
export const unknownNetwork = (id: string): FieldIssue => ({
  path: 'cluster.network', message: `unknown network "${id}"${didYouMean(id, NETWORK_IDS)}; known: ${known(NETWORK_IDS)}`,
});

const record = (x: unknown): Record<string, unknown> | undefined =>
  typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;

/**
 * The unknown preset ids of a scenario that has not passed validation, read from wherever they stand,
 * so that one answer names every wrong field instead of the ids only after the rest is mended. A path in
 * `named` (one a schema issue already names: a 1 MB id is "at most 64 characters") is skipped, its
 * suggestion not sought.
 */
export function presetIdIssues(raw: unknown, named: readonly string[] = []): FieldIssue[] {
  const s = record(raw);
  if (!s) return [];
  const issues: FieldIssue[] = [];
  const sought = (path: string): boolean => !named.includes(path);
  if (typeof s.model === 'string' && sought('model') && !modelById(s.model)) issues.push(unknownModel(s.model));
  const cluster = record(s.cluster);
  if (typeof cluster?.gpu === 'string' && sought('cluster.gpu') && !gpuById(cluster.gpu) && !systemById(cluster.gpu)) issues.push(unknownGpu(cluster.gpu));
  if (typeof cluster?.network === 'string' && sought('cluster.network') && !networkById(cluster.network)) issues.push(unknownNetwork(cluster.network));
  return issues;
}
