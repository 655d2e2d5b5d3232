import { formatBytes, formatBytesDecimal } from './format.ts';
import { parseBytes } from './parse.ts';
import type { Bytes } from './quantities.ts';

/**
 * A message size in the units it was likely given in, by one rule whatever the value: decimal units when they show
 * it exactly (64000 and 64kB → "64.0 KB", 1e9 → "1.00 GB", not 954 MiB), else binary units when they do (65536 →
 * "64.0 KiB", 1.5GiB → "1.50 GiB", every size of nccl-tests' 8 B … 16 GiB sweep), else decimal to three digits.
 * Whole bytes under a kilobyte are that number ("8 B", as nccl-tests prints 8). A size both systems show exactly
 * (512,000 B: 512 KB and 500 KiB) reads as decimal unless `typedBinary` (the user gave it in binary units): only
 * there does the value alone not tell. Decimal comes first because binary-first flipped 64,000 B (62.5 KiB
 * exactly) to binary while 1000 B stayed "1.00 KB" (QA 2026-11-29). One rule for a size's row and for every note
 * or error that names it.
 */
export function formatSize(bytes: Bytes, typedBinary = false): string {
  if (Number.isInteger(bytes) && bytes < 1000) return `${bytes} B`;
  const binary = formatBytes(bytes);
  const binaryExact = bytes >= 1024 && parseBytes(binary) === bytes;
  if (typedBinary && binaryExact) return binary;
  const decimal = formatBytesDecimal(bytes);
  return parseBytes(decimal) === bytes || !binaryExact ? decimal : binary;
}

/** Whether a size was typed in binary units ("500KiB", "1.5 GiB"): formatSize's `typedBinary`. */
export const typedInBinary = (text: string): boolean => /\d\s*[KMGTP]iB$/i.test(text.trim());
