/** Significant figures a loosened bound is written to, rounded up so that the plan it comes from meets it. */
const FIGURES = 3;

/** x rounded up to three significant figures (12.23 → 12.3, 109.3 → 110): never below x, so the plan it comes from meets it. */
export function ceilFigures(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return x;
  const step = 10 ** (Math.floor(Math.log10(x)) - (FIGURES - 1));
  const up = Number((Math.ceil(x / step) * step).toPrecision(FIGURES));
  // toPrecision may land a hair below x (1.005 → "1.00"); one more step then.
  return up >= x ? up : Number(((Math.ceil(x / step) + 1) * step).toPrecision(FIGURES));
}
