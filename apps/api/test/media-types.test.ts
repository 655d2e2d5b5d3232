import { describe, expect, it } from 'vitest';
import { requestEncoding, responseEncoding } from '../src/http/media-types.ts';

describe('content negotiation', () => {
  it.each([
    [undefined, 'json'],
    ['*/*', 'json'],
    ['application/json', 'json'],
    ['application/msgpack', 'msgpack'],
    ['application/x-msgpack', 'msgpack'],
    ['application/json;q=0.5, application/msgpack', 'msgpack'],
    ['application/msgpack;q=0.4, application/json;q=0.9', 'json'],
    ['application/msgpack;q=0', 'json'],
    ['text/html', 'json'],
    ['application/json, application/msgpack', 'json'],
    // RFC 9110 §12.5.1: JSON takes the quality of the most specific range that matches it, wildcards included.
    ['*/*;q=0.1, application/msgpack;q=0.05', 'json'],
    ['application/*, application/msgpack;q=0.5', 'json'],
    ['application/msgpack;q=0.5, */*', 'json'],
    ['*/*, application/json;q=0.1, application/msgpack;q=0.5', 'msgpack'],
    ['application/*;q=0.2, application/msgpack', 'msgpack'],
  ])('Accept %s answers in %s', (accept, expected) => {
    expect(responseEncoding(accept)).toBe(expected);
  });
  it.each([
    ['application/json', 'json'],
    ['application/json; charset=utf-8', 'json'],
    ['Application/JSON', 'json'],
    ['application/msgpack', 'msgpack'],
    ['application/x-msgpack', 'msgpack'],
    ['text/plain', undefined],
    [undefined, undefined],
  ])('Content-Type %s reads as %s', (type, expected) => {
    expect(requestEncoding(type)).toBe(expected);
  });
});
