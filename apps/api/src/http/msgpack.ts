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
