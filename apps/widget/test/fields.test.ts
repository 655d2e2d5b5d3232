import { describe, expect, it } from 'vitest';
import { DEFAULT_VALUES, FIELD_NAMES } from '../src/form/fields.ts';
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
