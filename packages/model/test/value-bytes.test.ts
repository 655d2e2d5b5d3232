import { describe, expect, it } from 'vitest';
import { BYTES_16BIT, BYTES_FP32, bytesPerValue } from '../src/index.ts';

describe('bytes per value', () => {
  // fp16 and bf16 are 16-bit formats (2 bytes); FP8 (E4M3 or E5M2) is 8 bits (1 byte).
  it.each([['fp16', 2], ['bf16', 2], ['fp8', 1]] as const)('a %s value takes %i bytes', (format, bytes) => {
    expect(bytesPerValue(format)).toBe(bytes);
  });
  // IEEE 754 binary16 is 16 bits, binary32 (fp32: master weights, Adam's moments, fp32 gradient buffers) 32 bits.
  it('a 16-bit value takes 2 bytes and an fp32 one 4', () => {
    expect(BYTES_16BIT).toBe(2);
    expect(BYTES_FP32).toBe(4);
  });
});
