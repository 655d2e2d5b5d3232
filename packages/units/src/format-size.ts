import { formatBytes, formatBytesDecimal } from './format.ts';
import { parseBytes } from './parse.ts';
import type { Bytes } from './quantities.ts';

/**
 * A message size in the units it was likely given in: binary (KiB, MiB, GiB) when they show it exactly, else
 * decimal (1GB → 1.00 GB, not 954 MiB; 1TB → 1.00 TB, not 931 GiB, though 1024 divides 10¹²). A whole number of
 * bytes under a kilobyte is that number ("8 B", as nccl-tests prints 8), so 1KB stays 1.00 KB rather than 1000 B.
 * One rule for a size's row and for every note or error that names it.
 */
export function formatSize(bytes: Bytes): string {
  if (Number.isInteger(bytes) && bytes < 1000) return `${bytes} B`;
  const binary = formatBytes(bytes);
  return bytes >= 1024 && parseBytes(binary) === bytes ? binary : formatBytesDecimal(bytes);
}
