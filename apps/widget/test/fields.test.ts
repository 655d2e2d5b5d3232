import { describe, expect, it } from 'vitest';
import { DEFAULT_VALUES, FIELD_NAMES, hiddenFor, type FieldSpec } from '../src/form/fields.ts';
import { scenarioFromFields } from '../src/form/scenario-from-fields.ts';

/** HTML's global attributes (WHATWG HTML §3.2.6): on `<trainplan-estimator>` they keep their own meaning. */
const GLOBAL_ATTRIBUTES = [
  'accesskey', 'autocapitalize', 'autocorrect', 'autofocus', 'class', 'contenteditable', 'dir', 'draggable', 'enterkeyhint',
  'hidden', 'id', 'inert', 'inputmode', 'is', 'itemid', 'itemprop', 'itemref', 'itemscope', 'itemtype', 'lang', 'nonce',
  'part', 'popover', 'slot', 'spellcheck', 'style', 'tabindex', 'title', 'translate', 'writingsuggestions',
];

describe("the widget's attributes", () => {
  it.each(FIELD_NAMES)('"%s" is none of HTML\'s global attributes (hidden="4096" hid the whole element)', (name) => {
    expect(GLOBAL_ATTRIBUTES).not.toContain(name);
  });

  it('takes a custom shape\'s hidden size as hidden-size', () => {
    const r = scenarioFromFields({ ...DEFAULT_VALUES, model: 'custom', 'hidden-size': '4096' });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.scenario.model).toMatchObject({ hiddenSize: 4096 });
  });
});

describe('hiddenFor: the one rule for what the form hides and the request leaves out', () => {
  const shape: FieldSpec = { name: 'layers', label: 'Layers', kind: 'integer', group: 'model', customOnly: true };
  const gamma: FieldSpec = { name: 'draft-tokens', label: 'γ', kind: 'integer', group: 'speculation', shownWith: 'draft-model' };
  const plain: FieldSpec = { name: 'nodes', label: 'Nodes', kind: 'integer', group: 'cluster' };
  it.each([
    ['a custom shape field under a preset', shape, { model: 'gpt3-175b' }, true],
    ['a custom shape field with model "custom"', shape, { model: 'custom' }, false],
    ['a shownWith field while its field is blank', gamma, { 'draft-model': '' }, true],
    ['a shownWith field while its field is only spaces', gamma, { 'draft-model': '  ' }, true],
    ['a shownWith field while its field is missing', gamma, {}, true],
    ['a shownWith field while its field has a value', gamma, { 'draft-model': 'llama3.2-1b' }, false],
    ['any other field', plain, { model: 'gpt3-175b' }, false],
  ] as const)('%s: hidden is %s', (_what, spec, values, hidden) => {
    expect(hiddenFor(values)(spec)).toBe(hidden);
  });
});
