/** The number formats weights, activations and KV-cache values are kept in: 16-bit floats or FP8. */
export type ValueFormat = 'fp16' | 'bf16' | 'fp8';

/** Bytes of a 16-bit value (fp16 or bf16). */
export const BYTES_16BIT = 2;

/** Bytes of a 32-bit float (IEEE 754 binary32): master weights, optimizer moments, fp32 gradients and logits. */
export const BYTES_FP32 = 4;

/** Bytes of one value in `format`: FP8's one, else 16 bits. */
export const bytesPerValue = (format: ValueFormat): number => (format === 'fp8' ? 1 : BYTES_16BIT);
