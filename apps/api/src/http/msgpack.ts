/**
 * MessagePack (github.com/msgpack/msgpack/blob/master/spec.md) as the API speaks it: the JSON data
 * model and nothing more, in both directions, so that a MessagePack request reads as its JSON twin
 * and an answer carries the same data as its JSON text. Our own codec, a few hundred lines, in place
 * of msgpackr (32 KB of the Worker, whose extensions, records and structured clone were all turned
 * off here): encoding in msgpack-encode.ts, the framing check in msgpack-framing.ts, decoding in
 * msgpack-decode.ts.
 */
export { encodeMsgpack } from './msgpack-encode.ts';
export { MAX_MSGPACK_DEPTH, MessagePackError } from './msgpack-framing.ts';
export { decodeMsgpack, firstNonJson, type NonJsonValue, UnbuiltBody } from './msgpack-decode.ts';
