import { Packr } from 'msgpackr';

/**
 * Plain MessagePack, readable by any client: `useRecords: false` turns off msgpackr's record
 * extension (which only msgpackr understands), so objects are ordinary maps. Float64 throughout
 * (msgpackr's default), so numbers round-trip exactly. An int 64 or uint 64 reads as a number, as
 * JSON.parse reads the same digits: msgpack-python, Go's and Rust's encoders write every integer over
 * 2^32 − 1 that way (300 billion tokens), and msgpackr's default, a bigint, no schema accepts.
 * `structuredClone: false` refuses msgpackr's own shared-reference extensions (ext 0x69 names a value,
 * ext 0x70 points back at it), which no other client writes: with them a 1,270-byte body decoded to
 * 16^12 leaves, and a trailing byte made msgpackr JSON-stringify them all for its error message,
 * holding Node's event loop past a minute (640 bytes: 3.5 s).
 */
const packr = new Packr({ useRecords: false, mapsAsObjects: true, moreTypes: false, int64AsType: 'number', structuredClone: false });

/** A copy the caller owns: msgpackr packs into a shared buffer that a later pack may reuse. */
export function encodeMsgpack(value: unknown): Uint8Array<ArrayBuffer> {
  return new Uint8Array(packr.pack(value));
}

/**
 * The deepest nesting of arrays and maps a body may have: far past any request's shape (the schemas
 * stop at 32 levels, as for JSON), and well inside what msgpackr, which recurses once a level, decodes
 * on every runtime's stack (Node's overflows near 5,000 levels; a 64 KiB body holds 65,536).
 */
export const MAX_MSGPACK_DEPTH = 512;

/** Why a body is not read: its `message` is for the client ("the body is nested deeper than 512 levels"). */
export class MessagePackError extends Error {
  override readonly name = 'MessagePackError';
}

/**
 * Decodes a request body; throws on malformed input (the caller answers 400), a MessagePackError
 * where its message says more than that: 0xC1, a byte no encoder writes, where msgpackr would hand
 * back a marker object (then called "an extension value"); nesting past MAX_MSGPACK_DEPTH, where it
 * would overflow the stack; a body cut short or with bytes after its value.
 *
 * Valid MessagePack that JSON has no equivalent of comes back for firstNonJson to name: as msgpackr
 * reads it (a Date for a timestamp, a Uint8Array for bin) where msgpackr can build it; else (it throws
 * on an extension type it has no reader for, `d4 01 00`, and on a map key that is binary data,
 * `81 c4 01 61 01`) as an UnbuiltBody that says what and where, so that these too are named with
 * their path rather than called "not valid MessagePack".
 */
export function decodeMsgpack(bytes: Uint8Array): unknown {
  checkFraming(bytes);
  try {
    return packr.unpack(bytes);
  } catch (error) {
    // Only on this path: a second walk of the headers, which keeps track of where each value is.
    const found = firstUnbuildable(bytes);
    if (found === undefined) throw error;
    return new UnbuiltBody(found);
  }
}

/** Stands in for a body msgpackr could not build: `found` is the value it stopped at, and where it is. */
export class UnbuiltBody {
  constructor(readonly found: NonJsonValue) {}
}

const notMessagePack = (why: string): MessagePackError => new MessagePackError(`the body is not valid MessagePack: ${why}`);

/** "1 byte", "2 bytes". */
const bytesCount = (n: number): string => `${n} ${n === 1 ? 'byte' : 'bytes'}`;

/** One value's header at a byte offset. */
interface Header {
  /** The bytes of its header, and of its payload for a scalar, a string, bin and ext. */
  readonly size: number;
  /** The values inside an array (its items) or a map (keys and values, alternately); -1 for any other value. */
  readonly items: number;
  readonly kind: 'array' | 'map' | 'bin' | 'ext' | 'scalar';
  /** An ext's type, a signed byte (-1 is a timestamp); undefined where the body ends before it. */
  readonly extType?: number | undefined;
}

/**
 * The header of the value at `at`; throws where `bytes` ends inside its length. Lengths per the
 * MessagePack specification (github.com/msgpack/msgpack/blob/master/spec.md, "Formats").
 */
function readHeader(bytes: Uint8Array, view: DataView, at: number): Header {
  /** A length or count of `size` bytes after the header byte. */
  const word = (size: 1 | 2 | 4): number => {
    if (at + 1 + size > bytes.byteLength) throw notMessagePack(`it ends inside the value at byte ${at}`);
    return size === 1 ? view.getUint8(at + 1) : size === 2 ? view.getUint16(at + 1) : view.getUint32(at + 1);
  };
  const scalar = (size: number): Header => ({ size, items: -1, kind: 'scalar' });
  const ext = (size: number, typeAt: number): Header =>
    ({ size, items: -1, kind: 'ext', extType: typeAt < bytes.byteLength ? view.getInt8(typeAt) : undefined });
  const b = bytes[at]!;
  if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) return scalar(1); // fixint, nil, false, true
  if (b <= 0x8f) return { size: 1, items: 2 * (b & 0x0f), kind: 'map' };
  if (b <= 0x9f) return { size: 1, items: b & 0x0f, kind: 'array' };
  if (b <= 0xbf) return scalar(1 + (b & 0x1f)); // fixstr
  if (b === 0xc1) throw notMessagePack(`byte ${at} is 0xC1, which the MessagePack specification marks "never used"`);
  if (b <= 0xc6) { const n = 1 << (b - 0xc4) as 1 | 2 | 4; return { size: 1 + n + word(n), items: -1, kind: 'bin' }; } // bin 8/16/32
  if (b <= 0xc9) { const n = 1 << (b - 0xc7) as 1 | 2 | 4; return ext(2 + n + word(n), at + 1 + n); } // ext 8/16/32 (and its type)
  if (b <= 0xd3) return scalar(1 + [4, 8, 1, 2, 4, 8, 1, 2, 4, 8][b - 0xca]!); // float 32/64, uint 8–64, int 8–64
  if (b <= 0xd8) return ext(2 + (1 << (b - 0xd4)), at + 1); // fixext 1–16 (and its type)
  if (b <= 0xdb) { const n = 1 << (b - 0xd9) as 1 | 2 | 4; return scalar(1 + n + word(n)); } // str 8/16/32
  const n = b === 0xdc || b === 0xde ? 2 : 4; // array 16/32, map 16/32 (0xdc–0xdf)
  return b >= 0xde ? { size: 1 + n, items: 2 * word(n), kind: 'map' } : { size: 1 + n, items: word(n), kind: 'array' };
}

/**
 * Walks the body's headers without building a value (iteratively, so no nesting overflows it) and
 * throws where it is not one MessagePack value or nests too deeply.
 */
function checkFraming(bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  // Values still to read in each open array or map, the outermost first; the body is one value.
  const open: number[] = [1];
  while (open.length > 0) {
    if (open[open.length - 1] === 0) { open.pop(); continue; }
    open[open.length - 1]! -= 1;
    if (at >= bytes.byteLength) throw notMessagePack(`it ends before its last value (after ${bytesCount(at)})`);
    const { size, items } = readHeader(bytes, view, at);
    if (items >= 0) {
      // The body is level 0; this array or map is one level inside the innermost one open.
      if (open.length > MAX_MSGPACK_DEPTH) throw new MessagePackError(`the body is nested deeper than ${MAX_MSGPACK_DEPTH} levels`);
      open.push(items);
    }
    at += size;
    if (at > bytes.byteLength) throw notMessagePack(`it ends inside the value at byte ${at - size}`);
  }
  const after = bytes.byteLength - at;
  if (after > 0) throw notMessagePack(`${bytesCount(after)} ${after === 1 ? 'follows' : 'follow'} its value`);
}

/**
 * The first value, in body order, that msgpackr cannot build, and where it is: an ext whose type it
 * has no reader for, or a map key other than a string, number, boolean or nil (maps are built as
 * objects, whose keys are strings). For a body checkFraming passed, so every header is whole; keys
 * are decoded only for the path.
 */
function firstUnbuildable(bytes: Uint8Array): NonJsonValue | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Each open array or map: values left, whether a map, values read, and the key of the value being read.
  interface Open { left: number; readonly map: boolean; read: number; key: string | number }
  // The body is the one value of a notional array at the bottom, whose key is no part of a path.
  const open: Open[] = [{ left: 1, map: false, read: 0, key: '' }];
  const path = (): (string | number)[] => open.slice(1).map((o) => o.key);
  let at = 0;
  while (open.length > 0) {
    const parent = open[open.length - 1]!;
    if (parent.left === 0) { open.pop(); continue; }
    parent.left -= 1;
    const isKey = parent.map && parent.read % 2 === 0;
    if (!parent.map) parent.key = parent.read;
    parent.read += 1;
    const header = readHeader(bytes, view, at);
    const value = bytes.subarray(at, at + header.size);
    if (isKey) {
      // The map's path: its own key is not read yet.
      if (header.kind !== 'scalar') return { at: path().slice(0, -1), what: `${describe(header, value)} as a map key` };
      parent.key = String(packr.unpack(value)); // as msgpackr names the property: 1 → "1", nil → "null"
    } else if (header.kind === 'ext' && !readable(value)) {
      return { at: path(), what: describe(header, value) };
    }
    at += header.size;
    if (header.items >= 0) open.push({ left: header.items, map: header.kind === 'map', read: 0, key: '' });
  }
  return undefined;
}

/** Whether msgpackr reads this ext on its own. */
function readable(ext: Uint8Array): boolean {
  try {
    packr.unpack(ext);
    return true;
  } catch {
    return false;
  }
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

/** A value in a decoded body that JSON has no equivalent of, and where it is (object keys and array indices). */
export interface NonJsonValue {
  readonly at: (string | number)[];
  /** e.g. 'binary data (bin, 9 bytes)', 'a timestamp (ext -1)'. */
  readonly what: string;
}

/**
 * The first value, depth first, that JSON cannot hold: MessagePack's bin, a timestamp, an extension
 * (msgpackr reads ext 0 as undefined and has its own for sets, errors, typed arrays…). The schemas
 * would take a bin for an object with keys '0', '1', … and a timestamp for an object with none, and
 * say back fields the client never sent. Iterative, with parent links (the path is built for the
 * offender only), so the deepest nesting a 64 KiB body allows costs one visit a value.
 */
export function firstNonJson(value: unknown): NonJsonValue | undefined {
  interface Visit { value: unknown; key: string | number; parent: Visit | undefined }
  const pathTo = (visit: Visit): (string | number)[] => {
    const at: (string | number)[] = [];
    for (let v: Visit | undefined = visit; v?.parent !== undefined; v = v.parent) at.unshift(v.key);
    return at;
  };
  if (value instanceof UnbuiltBody) return value.found;
  const stack: Visit[] = [{ value, key: '', parent: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const what = nonJsonKind(visit.value);
    if (what !== undefined) return { at: pathTo(visit), what };
    const v = visit.value;
    // Containers are pushed (last first, so the first is visited first); JSON's scalars need no visit.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) if (!isJsonScalar(v[i])) stack.push({ value: v[i], key: i, parent: visit });
    } else if (typeof v === 'object' && v !== null) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const child = (v as Record<string, unknown>)[keys[i]!];
        if (!isJsonScalar(child)) stack.push({ value: child, key: keys[i]!, parent: visit });
      }
    }
  }
  return undefined;
}

const isJsonScalar = (value: unknown): boolean =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

function nonJsonKind(value: unknown): string | undefined {
  if (isJsonScalar(value)) return undefined;
  if (value === undefined) return 'an extension value (ext 0)';
  if (Array.isArray(value)) return undefined;
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype === Object.prototype || prototype === null) return undefined;
    if (value instanceof Date) return 'a timestamp (ext -1)';
    if (value instanceof Uint8Array) return `binary data (bin, ${bytesCount(value.byteLength)})`; // a Buffer on Node
  }
  // A bigint (msgpackr's ext 0x42), a Set, an Error, a RegExp, a typed array: msgpackr's own extensions.
  return `an extension value (msgpackr's ${Object.prototype.toString.call(value).slice(8, -1)})`;
}
