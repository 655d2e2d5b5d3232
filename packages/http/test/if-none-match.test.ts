import { describe, expect, it } from 'vitest';
import { ifNoneMatchHolds } from '../src/if-none-match.ts';

const TAG = '"abc123"';

describe('If-None-Match against the current entity tag (RFC 9110 §13.1.2)', () => {
  it('absent or empty never holds', () => {
    expect(ifNoneMatchHolds(undefined, TAG, 'GET')).toBe(false);
    expect(ifNoneMatchHolds('', TAG, 'GET')).toBe(false);
  });
  it('the tag itself, its weak form, or the tag anywhere in a list holds (weak comparison)', () => {
    expect(ifNoneMatchHolds(TAG, TAG, 'GET')).toBe(true);
    expect(ifNoneMatchHolds(`W/${TAG}`, TAG, 'GET')).toBe(true);
    expect(ifNoneMatchHolds(`"other", W/${TAG} , "third"`, TAG, 'POST')).toBe(true);
  });
  it('another tag, or the tag without its quotes, does not', () => {
    expect(ifNoneMatchHolds('"abc1234"', TAG, 'GET')).toBe(false);
    expect(ifNoneMatchHolds('abc123', TAG, 'GET')).toBe(false);
  });
  it('`*` holds on GET and HEAD, not on a POST, whose answer is computed for its body', () => {
    expect(ifNoneMatchHolds('*', TAG, 'GET')).toBe(true);
    expect(ifNoneMatchHolds(' * ', TAG, 'HEAD')).toBe(true);
    expect(ifNoneMatchHolds('*', TAG, 'POST')).toBe(false);
  });
});
