import { bytesCount, checkFraming, type Header, readHeader } from './msgpack-framing.ts';

/**
 * A MessagePack request body as the JSON value it stands for (spec: github.com/msgpack/msgpack/blob/
 * master/spec.md, "Formats"): nil, booleans, every int and uint width and both float widths as numbers,
 * str as strings, arrays, and maps as plain objects. An int 64 or uint 64 reads as a number, as
 * JSON.parse reads the same digits: msgpack-python, Go's and Rust's encoders write every integer over
 * 2^32 − 1 that way (300 billion tokens), and a bigint no schema accepts. A float 32 reads as its
 * exact value (0x3dcccccd is 0.100000001490116…), not rounded to a shorter decimal.
 *
 * Throws on malformed input (the caller answers 400), a MessagePackError whose message says how:
 * 0xC1, a byte no encoder writes; nesting past MAX_MSGPACK_DEPTH, where a decoder would overflow the
 * stack; a body cut short or with bytes after its value. checkFraming says all that before a value
 * is built, so the decoder below never reads past the body nor recurses deeper than 512 levels.
 *
 * Valid MessagePack that JSON has no equivalent of (bin, a timestamp or any other ext, a map key
 * that is an array, map, bin or ext) is not built: an UnbuiltBody comes back instead, naming the
 * first such value in body order and where it is, for firstNonJson. Built as objects, the schemas
 * would take a bin for one with keys '0', '1', … and a timestamp for one with none, and say back
 * fields the client never sent. No extension is read, msgpackr's own included: with its shared
 * references (ext 0x69 names a value, ext 0x70 points back at it) a 1,270-byte body stood for 16^12
 * leaves, and held Node's event loop past a minute when msgpackr was this decoder.
 */
export function decodeMsgpack(bytes: Uint8Array): unknown {
  checkFraming(bytes);
  src = bytes;
  view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  pos = 0;
  try {
    return read();
  } catch (error) {
    if (!(error instanceof NotJson)) throw error;
    const header = readHeader(bytes, view, error.offset);
    const what = describe(header, bytes.subarray(error.offset, error.offset + header.size));
    return new UnbuiltBody({ at: error.at, what: error.asKey ? `${what} as a map key` : what });
  } finally {
    src = EMPTY; // the body is not kept alive by the decoder
    view = new DataView(EMPTY.buffer);
  }
}

/** A value in a decoded body that JSON has no equivalent of, and where it is (object keys and array indices). */
export interface NonJsonValue {
  readonly at: (string | number)[];
  /** e.g. 'binary data (bin, 9 bytes)', 'a timestamp (ext -1)'. */
  readonly what: string;
}

/** Stands in for a body with a value JSON has no equivalent of: `found` is the first, and where it is. */
export class UnbuiltBody {
  constructor(readonly found: NonJsonValue) {}
}

/**
 * The value in a decoded body that JSON cannot hold, if any: decodeMsgpack builds JSON values alone,
 * and hands back an UnbuiltBody that names the first other one.
 */
export const firstNonJson = (value: unknown): NonJsonValue | undefined => (value instanceof UnbuiltBody ? value.found : undefined);

/** Thrown from where a value JSON cannot hold starts; each array and map it passes on the way out adds its key. */
class NotJson {
  readonly at: (string | number)[] = [];
  constructor(readonly offset: number, readonly asKey: boolean) {}
}

const EMPTY = new Uint8Array(0);
// The body being decoded: one at a time, as decoding is synchronous.
let src: Uint8Array = EMPTY;
let view: DataView = new DataView(EMPTY.buffer);
let pos = 0;

/**
 * Not fatal: a str that is not UTF-8 reads with U+FFFD in place of each bad sequence (WHATWG Encoding,
 * the UTF-8 decoder's "replacement" error mode); the spec ("Limitation") leaves that to each decoder.
 */
const utf8 = new TextDecoder();

/** The value at `pos`, which is left after it. Header bytes per the spec's "Formats" table. */
function read(): unknown {
  const b = src[pos]!;
  if (b < 0x80) { pos += 1; return b; } // positive fixint 0xxxxxxx
  if (b < 0x90) { pos += 1; return readMap(b & 0x0f); } // fixmap 1000xxxx
  if (b < 0xa0) { pos += 1; return readArray(b & 0x0f); } // fixarray 1001xxxx
  if (b < 0xc0) { pos += 1; return readString(b & 0x1f); } // fixstr 101xxxxx
  if (b >= 0xe0) { pos += 1; return b - 0x100; } // negative fixint 111xxxxx
  const at = pos + 1;
  switch (b) {
    case 0xc0: pos = at; return null;
    case 0xc2: pos = at; return false;
    case 0xc3: pos = at; return true;
    case 0xca: pos = at + 4; return view.getFloat32(at); // float 32
    case 0xcb: pos = at + 8; return view.getFloat64(at); // float 64
    case 0xcc: pos = at + 1; return src[at]!; // uint 8
    case 0xcd: pos = at + 2; return view.getUint16(at); // uint 16
    case 0xce: pos = at + 4; return view.getUint32(at); // uint 32
    // uint 64, int 64: the high word times 2^32 is exact and so is the low word, so their sum is rounded
    // once, to the double nearest the integer, as JSON.parse rounds its digits (2^53 + 1 → 2^53).
    case 0xcf: pos = at + 8; return view.getUint32(at) * 0x1_0000_0000 + view.getUint32(at + 4);
    case 0xd0: pos = at + 1; return view.getInt8(at); // int 8
    case 0xd1: pos = at + 2; return view.getInt16(at); // int 16
    case 0xd2: pos = at + 4; return view.getInt32(at); // int 32
    case 0xd3: pos = at + 8; return view.getInt32(at) * 0x1_0000_0000 + view.getUint32(at + 4);
    case 0xd9: pos = at + 1; return readString(src[at]!); // str 8
    case 0xda: pos = at + 2; return readString(view.getUint16(at)); // str 16
    case 0xdb: pos = at + 4; return readString(view.getUint32(at)); // str 32
    case 0xdc: pos = at + 2; return readArray(view.getUint16(at)); // array 16
    case 0xdd: pos = at + 4; return readArray(view.getUint32(at)); // array 32
    case 0xde: pos = at + 2; return readMap(view.getUint16(at)); // map 16
    case 0xdf: pos = at + 4; return readMap(view.getUint32(at)); // map 32
  }
  // bin 8/16/32 (0xc4–0xc6), ext 8/16/32 (0xc7–0xc9), fixext 1–16 (0xd4–0xd8); checkFraming refused 0xc1.
  throw new NotJson(pos, false);
}

function readArray(count: number): unknown[] {
  // checkFraming saw every item, so `count` is no larger than the body.
  const items = new Array<unknown>(count);
  let i = 0;
  try {
    for (; i < count; i++) items[i] = read();
  } catch (error) {
    if (error instanceof NotJson) error.at.unshift(i);
    throw error;
  }
  return items;
}

function readMap(count: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  // The key whose value is being read; undefined while a key is (a key thrown names the map's own path).
  let key: string | undefined;
  try {
    for (let i = 0; i < count; i++) {
      key = undefined;
      const name = readKey();
      key = name;
      const value = read();
      // As JSON.parse makes it (ECMA-262 §25.5.1: a "__proto__" member is an own data property), where
      // assigning "__proto__" would set the object's prototype instead. A repeated key keeps its last value, as there.
      if (name === '__proto__') Object.defineProperty(object, name, { value, writable: true, enumerable: true, configurable: true });
      else object[name] = value;
    }
  } catch (error) {
    if (error instanceof NotJson && key !== undefined) error.at.unshift(key);
    throw error;
  }
  return object;
}

/**
 * A map key as a property name: a str as it is; a number, boolean or nil as String makes it
 * (1 → "1", true → "true", nil → "null"), as msgpackr named them. A key that is a container, bin or
 * ext is not built: it is thrown from here with the map's own path (the key has none).
 */
function readKey(): string {
  const b = src[pos]!;
  if (b >= 0xa0 && b < 0xc0) { pos += 1; return readFixstrKey(b & 0x1f); } // fixstr, the usual key
  const container = (b >= 0x80 && b < 0xa0) || (b >= 0xdc && b <= 0xdf);
  const binOrExt = (b >= 0xc4 && b <= 0xc9) || (b >= 0xd4 && b <= 0xd8);
  if (container || binOrExt) throw new NotJson(pos, true);
  return String(read());
}

/**
 * Map keys repeat (each of a body's scenarios has the same ones), and a string built afresh costs V8
 * a lookup in its string table each time it names a property: the last fixstr key read into each of
 * KEY_SLOTS slots (by its length and three of its bytes) is kept with its bytes, and a key whose
 * bytes match those is that same string. A fixstr is at most 31 bytes: 32 a slot, 128 KiB in all.
 */
const KEY_SLOTS = 4096;
const cachedKeys: (string | undefined)[] = new Array<string | undefined>(KEY_SLOTS);
const cachedKeyBytes = new Uint8Array(KEY_SLOTS * 32);

function readFixstrKey(length: number): string {
  if (length === 0) return '';
  const start = pos;
  const end = start + length;
  const slot = ((length << 7) ^ (src[start]! << 4) ^ (src[end - 1]! << 1) ^ src[start + (length >> 1)]!) & (KEY_SLOTS - 1);
  const known = cachedKeys[slot];
  const at = slot * 32;
  if (known !== undefined && cachedKeyBytes[at + 31] === length) {
    let i = 0;
    while (i < length && cachedKeyBytes[at + i] === src[start + i]) i++;
    if (i === length) { pos = end; return known; }
  }
  const key = readString(length);
  cachedKeyBytes.set(src.subarray(start, end), at);
  cachedKeyBytes[at + 31] = length; // the slot's last byte, past any 31-byte key's: its length
  cachedKeys[slot] = key;
  return key;
}

function readString(length: number): string {
  const start = pos;
  pos += length;
  // Short ASCII strings (most keys and enum values) are built directly: cheaper than a call into TextDecoder.
  if (length <= 16) {
    let text = '';
    for (let i = start; i < pos; i++) {
      const byte = src[i]!;
      if (byte >= 0x80) return utf8.decode(src.subarray(start, pos));
      text += String.fromCharCode(byte);
    }
    return text;
  }
  return utf8.decode(src.subarray(start, pos));
}

/** A value's kind in firstNonJson's words: 'binary data (bin, 1 byte)', 'an extension value (ext 1)', 'a map'. */
function describe(header: Header, value: Uint8Array): string {
  switch (header.kind) {
    case 'bin': return `binary data (bin, ${bytesCount(value.byteLength - 1 - (1 << (value[0]! - 0xc4)))})`; // less bin 8/16/32's header
    case 'ext': return header.extType === -1 ? 'a timestamp (ext -1)' : `an extension value (ext ${header.extType})`;
    case 'array': return 'an array';
    case 'map': return 'a map';
    case 'scalar': return 'a value';
  }
}
