import { inLabels } from '../form/field-names.ts';
import { SERVING_PATHS } from './request-from-fields.ts';
import { SERVING_FIELDS } from './serving-fields.ts';

/**
 * A protocol sentence (a warning, why a plan does not serve) with each request field it names said by the serving
 * form's label ("give maxDecodeSecondsPerToken" → give “Per token ≤ (ms)”): form/field-names.ts.
 */
export const inFieldLabels = (message: string): string => inLabels(message, SERVING_FIELDS, SERVING_PATHS).text;
