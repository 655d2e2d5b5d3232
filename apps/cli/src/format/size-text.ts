import { formatBytes, formatBytesDecimal, formatSize, parseBytes } from '@trainplan/units';

/**
 * A message size as the collective table prints it, by one rule whatever the value: in decimal units when they
 * show it exactly (64000 and 64kB → "64.0 KB", 1e9 → "1.00 GB", 64MB → "64.0 MB"), else in binary units when
 * they do (65536 → "64.0 KiB", 1.5GiB → "1.50 GiB", every size of the 8 B … 16 GiB sweep), else decimal; whole
 * bytes under a kilobyte as they are ("8 B", as nccl-tests prints 8). units' formatSize prefers binary wherever
 * it is exact, so 64000 B (62.5 KiB exactly) flipped to binary while 1000 B stayed "1.00 KB" (QA 2026-11-29).
 * A size both systems show exactly (512000 B: 512 KB, 500 KiB) reads as decimal unless `typedBinary` (the
 * user gave it in binary units, --size 500KiB): only there does the value alone not tell.
 */
export function sizeText(bytes: number, typedBinary = false): string {
  if (Number.isInteger(bytes) && bytes < 1000) return `${bytes} B`;
  const binary = formatBytes(bytes);
  if (typedBinary && parseBytes(binary) === bytes) return binary;
  const decimal = formatBytesDecimal(bytes);
  return parseBytes(decimal) === bytes ? decimal : formatSize(bytes);
}

/** Whether a --size was typed in binary units ("500KiB", "1.5 GiB"). */
export const typedInBinary = (text: string): boolean => /\d\s*[KMGTP]iB$/i.test(text.trim());
