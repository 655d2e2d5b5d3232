/**
 * The deepest nesting of arrays and maps a body may have: far past any request's shape (the schemas
 * stop at 32 levels, as for JSON), and well inside what the decoder, which recurses once a level,
 * reads on every runtime's stack (Node's overflows near 5,000 levels; a 64 KiB body holds 65,536).
 */
export const MAX_MSGPACK_DEPTH = 512;

/** Why a body is not read: its `message` is for the client ("the body is nested deeper than 512 levels"). */
export class MessagePackError extends Error {
  override readonly name = 'MessagePackError';
}

const notMessagePack = (why: string): MessagePackError => new MessagePackError(`the body is not valid MessagePack: ${why}`);

/** "1 byte", "2 bytes". */
export const bytesCount = (n: number): string => `${n} ${n === 1 ? 'byte' : 'bytes'}`;

/** One value's header at a byte offset. */
export interface Header {
  /** The bytes of its header, and of its payload for a scalar, a string, bin and ext. */
  readonly size: number;
  /** The values inside an array (its items) or a map (keys and values, alternately); -1 for any other value. */
  readonly items: number;
  readonly kind: 'array' | 'map' | 'bin' | 'ext' | 'scalar';
  /** An ext's type, a signed byte (-1 is a timestamp); undefined where the body ends before it. */
  readonly extType?: number | undefined;
}

/** The payload bytes of float 32/64, uint 8/16/32/64 and int 8/16/32/64 (0xca–0xd3). */
const NUMBER_BYTES = [4, 8, 1, 2, 4, 8, 1, 2, 4, 8];

/** A length or count of `size` bytes after the header byte at `at`; throws where the body ends inside it. */
function word(bytes: Uint8Array, view: DataView, at: number, size: 1 | 2 | 4): number {
  if (at + 1 + size > bytes.byteLength) throw notMessagePack(`it ends inside the value at byte ${at}`);
  return size === 1 ? bytes[at + 1]! : size === 2 ? view.getUint16(at + 1) : view.getUint32(at + 1);
}

const scalar = (size: number): Header => ({ size, items: -1, kind: 'scalar' });

/** An ext of `size` bytes whose type byte is at `typeAt`. */
const ext = (bytes: Uint8Array, view: DataView, size: number, typeAt: number): Header =>
  ({ size, items: -1, kind: 'ext', extType: typeAt < bytes.byteLength ? view.getInt8(typeAt) : undefined });

/**
 * The header of the value at `at`; throws where `bytes` ends inside its length. Lengths per the
 * MessagePack specification (github.com/msgpack/msgpack/blob/master/spec.md, "Formats").
 */
export function readHeader(bytes: Uint8Array, view: DataView, at: number): Header {
  const b = bytes[at]!;
  if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) return scalar(1); // fixint, nil, false, true
  if (b <= 0x8f) return { size: 1, items: 2 * (b & 0x0f), kind: 'map' };
  if (b <= 0x9f) return { size: 1, items: b & 0x0f, kind: 'array' };
  if (b <= 0xbf) return scalar(1 + (b & 0x1f)); // fixstr
  if (b === 0xc1) throw notMessagePack(`byte ${at} is 0xC1, which the MessagePack specification marks "never used"`);
  if (b <= 0xc6) { const n = 1 << (b - 0xc4) as 1 | 2 | 4; return { size: 1 + n + word(bytes, view, at, n), items: -1, kind: 'bin' }; } // bin 8/16/32
  if (b <= 0xc9) { const n = 1 << (b - 0xc7) as 1 | 2 | 4; return ext(bytes, view, 2 + n + word(bytes, view, at, n), at + 1 + n); } // ext 8/16/32 (and its type)
  if (b <= 0xd3) return scalar(1 + NUMBER_BYTES[b - 0xca]!); // float 32/64, uint 8–64, int 8–64
  if (b <= 0xd8) return ext(bytes, view, 2 + (1 << (b - 0xd4)), at + 1); // fixext 1–16 (and its type)
  if (b <= 0xdb) { const n = 1 << (b - 0xd9) as 1 | 2 | 4; return scalar(1 + n + word(bytes, view, at, n)); } // str 8/16/32
  const n = b === 0xdc || b === 0xde ? 2 : 4; // array 16/32, map 16/32 (0xdc–0xdf)
  return b >= 0xde ? { size: 1 + n, items: 2 * word(bytes, view, at, n), kind: 'map' } : { size: 1 + n, items: word(bytes, view, at, n), kind: 'array' };
}

/**
 * Walks the body's headers without building a value (iteratively, so no nesting overflows it) and
 * throws where it is not one MessagePack value or nests too deeply. A body it passes is whole: every
 * length and count the decoder reads after it lies inside the body (so no count can ask for more
 * items than the body has bytes), no byte is 0xC1, and nothing nests past MAX_MSGPACK_DEPTH.
 */
export function checkFraming(bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.byteLength;
  let at = 0;
  // Values still to read in each open array or map, the outermost first; the body is one value.
  // Level `depth` is open[depth]; a map 32's count (2 · (2^32 − 1) values) needs a float's range.
  const open = new Float64Array(MAX_MSGPACK_DEPTH + 1);
  open[0] = 1;
  let depth = 0;
  while (depth >= 0) {
    if (open[depth] === 0) { depth -= 1; continue; }
    open[depth]! -= 1;
    if (at >= end) throw notMessagePack(`it ends before its last value (after ${bytesCount(at)})`);
    // The formats whose first byte fixes their size, inline (they are most of a body, and readHeader
    // builds an object a value); readHeader for those with a length or count, 0xC1 and ext.
    const b = bytes[at]!;
    let size = 1;
    let items = -1;
    if (b < 0x80 || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) size = 1; // fixint, nil, false, true
    else if (b < 0x90) items = 2 * (b & 0x0f); // fixmap
    else if (b < 0xa0) items = b & 0x0f; // fixarray
    else if (b < 0xc0) size = 1 + (b & 0x1f); // fixstr
    else if (b >= 0xca && b <= 0xd3) size = 1 + NUMBER_BYTES[b - 0xca]!;
    else ({ size, items } = readHeader(bytes, view, at));
    if (items >= 0) {
      // The body is level 0; this array or map is one level inside the innermost one open.
      if (depth === MAX_MSGPACK_DEPTH) throw new MessagePackError(`the body is nested deeper than ${MAX_MSGPACK_DEPTH} levels`);
      depth += 1;
      open[depth] = items;
    }
    at += size;
    if (at > end) throw notMessagePack(`it ends inside the value at byte ${at - size}`);
  }
  const after = end - at;
  if (after > 0) throw notMessagePack(`${bytesCount(after)} ${after === 1 ? 'follows' : 'follow'} its value`);
}
