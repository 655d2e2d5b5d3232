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

/** Decodes a request body; throws on malformed input (the caller answers 400). */
export function decodeMsgpack(bytes: Uint8Array): unknown {
  return packr.unpack(bytes);
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
