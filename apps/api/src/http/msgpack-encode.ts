/**
 * A JSON value as plain MessagePack, readable by any client (spec: github.com/msgpack/msgpack/blob/
 * master/spec.md, "Formats"): objects as maps of their own enumerable keys (a property whose value is
 * undefined left out, as JSON.stringify leaves it out), arrays, str, true/false, nil, and numbers: a
 * safe integer in its smallest int or uint format, every other number as float 64, never float 32,
 * so that each reads back exactly. -0 is written as the integer 0, as JSON.stringify writes it "0".
 * No extensions and no msgpackr records, which only msgpackr reads.
 *
 * Answers are built from JSON.parse of their JSON text (respond.ts), so plain JSON values are all this
 * meets; anything else (a Date, a Uint8Array, a bigint, a function) is a programmer's error, a TypeError.
 *
 * Returns a copy the caller owns; the packing buffer is kept for the next answer.
 */
export function encodeMsgpack(value: unknown): Uint8Array<ArrayBuffer> {
  pos = 0;
  write(value);
  return out.slice(0, pos);
}

// The packing buffer: grown by doubling and kept between calls, at the largest answer's size (the OpenAPI document's, 1 MiB).
let out = new Uint8Array(8192);
let view = new DataView(out.buffer);
let pos = 0;

const utf8 = new TextEncoder();

/** Room for `bytes` more at `pos`. */
function reserve(bytes: number): void {
  if (pos + bytes <= out.byteLength) return;
  let size = out.byteLength * 2;
  while (size < pos + bytes) size *= 2;
  const grown = new Uint8Array(size);
  grown.set(out.subarray(0, pos));
  out = grown;
  view = new DataView(out.buffer);
}

function write(value: unknown): void {
  switch (typeof value) {
    case 'string': writeString(value); return;
    case 'number': writeNumber(value); return;
    case 'boolean': reserve(1); out[pos++] = value ? 0xc3 : 0xc2; return; // true, false
    case 'undefined': reserve(1); out[pos++] = 0xc0; return; // an array item: nil, as JSON.stringify writes null
    case 'object':
      if (value === null) { reserve(1); out[pos++] = 0xc0; return; } // nil
      if (Array.isArray(value)) { writeArray(value); return; }
      if (isPlainObject(value)) { writeObject(value); return; }
  }
  throw new TypeError(`encodeMsgpack writes JSON values, not ${Object.prototype.toString.call(value)}`);
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function writeNumber(n: number): void {
  reserve(9);
  if (!Number.isSafeInteger(n)) { // float 64: a fraction, an integer past 2^53 − 1 (1e300), NaN, ±Infinity
    out[pos] = 0xcb;
    view.setFloat64(pos + 1, n);
    pos += 9;
  } else if (n >= 0) { // -0 too, written 0
    if (n < 0x80) out[pos++] = n; // positive fixint 0xxxxxxx
    else if (n < 0x100) { out[pos] = 0xcc; out[pos + 1] = n; pos += 2; } // uint 8
    else if (n < 0x1_0000) { out[pos] = 0xcd; view.setUint16(pos + 1, n); pos += 3; } // uint 16
    else if (n < 0x1_0000_0000) { out[pos] = 0xce; view.setUint32(pos + 1, n); pos += 5; } // uint 32
    else { out[pos] = 0xcf; writeInt64(n); } // uint 64
  } else {
    if (n >= -0x20) out[pos++] = n & 0xff; // negative fixint 111xxxxx
    else if (n >= -0x80) { out[pos] = 0xd0; view.setInt8(pos + 1, n); pos += 2; } // int 8
    else if (n >= -0x8000) { out[pos] = 0xd1; view.setInt16(pos + 1, n); pos += 3; } // int 16
    else if (n >= -0x8000_0000) { out[pos] = 0xd2; view.setInt32(pos + 1, n); pos += 5; } // int 32
    else { out[pos] = 0xd3; writeInt64(n); } // int 64
  }
}

/**
 * A safe integer as 8 big-endian bytes after its header byte: two's complement, the high word
 * floor(n / 2^32) (negative for n < 0) and the low word n − high · 2^32, in [0, 2^32); both exact.
 */
function writeInt64(n: number): void {
  const high = Math.floor(n / 0x1_0000_0000);
  view.setInt32(pos + 1, high);
  view.setUint32(pos + 5, n - high * 0x1_0000_0000);
  pos += 9;
}

/** A str header for `length` bytes at `at`: fixstr 101xxxxx, str 8 (0xd9), str 16 (0xda), str 32 (0xdb). */
function strHeader(at: number, length: number): void {
  if (length < 0x20) out[at] = 0xa0 | length;
  else if (length < 0x100) { out[at] = 0xd9; out[at + 1] = length; }
  else if (length < 0x1_0000) { out[at] = 0xda; view.setUint16(at + 1, length); }
  else { out[at] = 0xdb; view.setUint32(at + 1, length); }
}

const strHeaderSize = (length: number): number => (length < 0x20 ? 1 : length < 0x100 ? 2 : length < 0x1_0000 ? 3 : 5);

/**
 * UTF-8, as TextEncoder writes it (a lone surrogate, which JSON.parse can make of "\ud800", becomes
 * U+FFFD). Each UTF-16 code unit is at most 3 bytes, so 3 × length bounds the bytes: the header is
 * sized for that, and the text moved down after it when the bytes came to fewer.
 */
function writeString(text: string): void {
  const length = text.length;
  if (length < 0x40) {
    // ASCII, the usual key or enum value: one byte a character, written directly (a call to
    // TextEncoder costs more than the copy); the first non-ASCII character falls through.
    reserve(2 + length);
    const asciiHead = length < 0x20 ? 1 : 2;
    let i = 0;
    for (; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) break;
      out[pos + asciiHead + i] = code;
    }
    if (i === length) { strHeader(pos, length); pos += asciiHead + length; return; }
  }
  const head = strHeaderSize(3 * length);
  reserve(head + 3 * length);
  const { written } = utf8.encodeInto(text, out.subarray(pos + head));
  const needed = strHeaderSize(written);
  if (needed < head) out.copyWithin(pos + needed, pos + head, pos + head + written);
  strHeader(pos, written);
  pos += needed + written;
}

function writeArray(items: readonly unknown[]): void {
  const count = items.length;
  reserve(5);
  if (count < 0x10) out[pos++] = 0x90 | count; // fixarray 1001xxxx
  else if (count < 0x1_0000) { out[pos] = 0xdc; view.setUint16(pos + 1, count); pos += 3; } // array 16
  else { out[pos] = 0xdd; view.setUint32(pos + 1, count); pos += 5; } // array 32
  for (let i = 0; i < count; i++) write(items[i]);
}

/** A map header for `count` pairs at `at`: fixmap 1000xxxx, map 16 (0xde), map 32 (0xdf). */
function mapHeader(at: number, count: number): void {
  if (count < 0x10) out[at] = 0x80 | count;
  else if (count < 0x1_0000) { out[at] = 0xde; view.setUint16(at + 1, count); }
  else { out[at] = 0xdf; view.setUint32(at + 1, count); }
}

const countHeaderSize = (count: number): number => (count < 0x10 ? 1 : count < 0x1_0000 ? 3 : 5);

function writeObject(object: Record<string, unknown>): void {
  const keys = Object.keys(object);
  // The header is sized for every key; where undefined values were left out, it is written for the
  // pairs that were, and the pairs moved down after it when that header came out shorter.
  const at = pos;
  const head = countHeaderSize(keys.length);
  reserve(head);
  pos += head;
  let count = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = object[key];
    if (item === undefined) continue;
    writeString(key);
    write(item);
    count++;
  }
  const needed = countHeaderSize(count);
  if (needed < head) {
    out.copyWithin(at + needed, at + head, pos);
    pos -= head - needed;
  }
  mapHeader(at, count);
}
