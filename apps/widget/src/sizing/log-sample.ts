/** The most node counts tried for "how many nodes" (one request to an API stays well under its body limit). */
export const MAX_SIZING_CANDIDATES = 96;

/** Up to n of a sorted list, evenly spaced on a log scale, always keeping the ends. */
export function logSample(sorted: readonly number[], n: number): number[] {
  if (sorted.length <= n) return [...sorted];
  const lo = Math.log(sorted[0]!);
  const hi = Math.log(sorted[sorted.length - 1]!);
  const out = new Set<number>();
  let j = 0;
  for (let i = 0; i < n; i += 1) {
    const target = lo + ((hi - lo) * i) / (n - 1);
    while (j < sorted.length - 1 && Math.log(sorted[j]!) < target) j += 1;
    out.add(sorted[j]!);
  }
  return [...out];
}
