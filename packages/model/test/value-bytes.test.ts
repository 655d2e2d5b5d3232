import { describe, expect, it } from 'vitest';
import { bytesPerValue } from '../src/index.ts';

describe('bytes per value', () => {
  // fp16 and bf16 are 16-bit formats (2 bytes); FP8 (E4M3 or E5M2) is 8 bits (1 byte).
  it.each([['fp16', 2], ['bf16', 2], ['fp8', 1]] as const)('a %s value takes %i bytes', (format, bytes) => {
    expect(bytesPerValue(format)).toBe(bytes);
  });
});
