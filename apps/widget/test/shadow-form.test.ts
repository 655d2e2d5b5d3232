import { describe, expect, it } from 'vitest';
import { attributeValue } from '../src/element/shadow-form.ts';
import { SERVING_FIELDS } from '../src/serving/serving-fields.ts';

describe("an attribute's value as the form keeps it", () => {
  it.each([
    // A select's value must be one of its options, or the select shows blank while the request reads the trimmed value.
    ['precision', ' fp16 ', 'fp16'],
    ['model', '  llama3-70b', 'llama3-70b'],
    ['prompt', ' 2048 ', '2048'],
    ['gated', '', 'true'],
    ['gated', 'true', 'true'],
    ['gated', ' true ', 'true'],
    ['gated', 'false', 'false'],
  ])('%s="%s" is "%s"', (name, value, kept) => {
    expect(attributeValue(SERVING_FIELDS, name, value)).toBe(kept);
  });
});
