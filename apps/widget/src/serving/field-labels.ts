import { SERVING_FIELDS } from './serving-fields.ts';
import { servingFieldForPath } from './request-from-fields.ts';

/**
 * The protocol's messages are written for API callers and name request fields by their wire names: "give
 * maxDecodeSecondsPerToken and maxPrefillSeconds", `use batching "continuous"`, `kvCachePrecision "fp8"`. The serving
 * element shows them beside its own form, so each field it has is named by the label a reader sees there ("Per token
 * ≤ (ms)"), and a quoted value stays after it. A camelCase name is a field wherever it stands; a one-word name
 * ("batching", "precision") only with a quoted value after it, since it is an English word too.
 */
const LABELS: ReadonlyMap<string, string> = new Map(SERVING_FIELDS.map((f) => [f.name, f.label]));

const labelOf = (path: string): string | undefined => LABELS.get(servingFieldForPath(path));

const FIELD = /(?<![\w.])([a-z]+(?:[A-Z][a-z]*)+|[a-z]+)(?![\w])(?: "([\w.-]+)")?/g;

export function inFieldLabels(message: string): string {
  return message.replace(FIELD, (whole, name: string, value: string | undefined) => {
    const label = labelOf(name);
    const camel = /[A-Z]/.test(name);
    if (label === undefined || (!camel && value === undefined)) return whole;
    return value === undefined ? `“${label}”` : `“${label}” ${value}`;
  });
}
