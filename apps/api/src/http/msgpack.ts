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
 */
export function decodeMsgpack(bytes: Uint8Array): unknown {
  checkFraming(bytes);
  return packr.unpack(bytes);
}

const notMessagePack = (why: string): MessagePackError => new MessagePackError(`the body is not valid MessagePack: ${why}`);

/**
 * Walks the body's headers without building a value (iteratively, so no nesting overflows it) and
 * throws where it is not one MessagePack value or nests too deeply. Lengths per the MessagePack
 * specification (github.com/msgpack/msgpack/blob/master/spec.md, "Formats").
 */
function checkFraming(bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  /** A length or count of `size` bytes after the header byte. */
  const word = (size: 1 | 2 | 4): number => {
    if (at + 1 + size > bytes.byteLength) throw notMessagePack(`it ends inside the value at byte ${at}`);
    return size === 1 ? view.getUint8(at + 1) : size === 2 ? view.getUint16(at + 1) : view.getUint32(at + 1);
  };
  // Values still to read in each open array or map, the outermost first; the body is one value.
  const open: number[] = [1];
  while (open.length > 0) {
    if (open[open.length - 1] === 0) { open.pop(); continue; }
    open[open.length - 1]! -= 1;
    if (at >= bytes.byteLength) throw notMessagePack(`it ends before its last value (after ${at} bytes)`);
    const b = bytes[at]!;
    let size = 1; // the bytes of this value's header, and of its payload for a scalar
    let items = -1; // the values inside, for an array or map
    if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) size = 1; // fixint, nil, false, true
    else if (b <= 0x8f) items = 2 * (b & 0x0f);
    else if (b <= 0x9f) items = b & 0x0f;
    else if (b <= 0xbf) size = 1 + (b & 0x1f);
    else if (b === 0xc1) throw notMessagePack(`byte ${at} is 0xC1, which the MessagePack specification marks "never used"`);
    else if (b <= 0xc6) { const n = 1 << (b - 0xc4) as 1 | 2 | 4; size = 1 + n + word(n); } // bin 8/16/32
    else if (b <= 0xc9) { const n = 1 << (b - 0xc7) as 1 | 2 | 4; size = 2 + n + word(n); } // ext 8/16/32 (and its type)
    else if (b <= 0xd3) size = 1 + [4, 8, 1, 2, 4, 8, 1, 2, 4, 8][b - 0xca]!; // float 32/64, uint 8–64, int 8–64
    else if (b <= 0xd8) size = 2 + (1 << (b - 0xd4)); // fixext 1–16 (and its type)
    else if (b <= 0xdb) { const n = 1 << (b - 0xd9) as 1 | 2 | 4; size = 1 + n + word(n); } // str 8/16/32
    else { const n = b === 0xdc || b === 0xde ? 2 : 4; items = (b >= 0xde ? 2 : 1) * word(n); size = 1 + n; } // array 16/32, map 16/32 (0xdc–0xdf)
    if (items >= 0) {
      // The body is level 0; this array or map is one level inside the innermost one open.
      if (open.length > MAX_MSGPACK_DEPTH) throw new MessagePackError(`the body is nested deeper than ${MAX_MSGPACK_DEPTH} levels`);
      open.push(items);
    }
    at += size;
    if (at > bytes.byteLength) throw notMessagePack(`it ends inside the value at byte ${at - size}`);
  }
  if (at < bytes.byteLength) throw notMessagePack(`${bytes.byteLength - at} bytes follow its value`);
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
    if (value instanceof Uint8Array) return `binary data (bin, ${value.byteLength} bytes)`; // a Buffer on Node
  }
  // A bigint (msgpackr's ext 0x42), a Set, an Error, a RegExp, a typed array: msgpackr's own extensions.
  return `an extension value (msgpackr's ${Object.prototype.toString.call(value).slice(8, -1)})`;
}
