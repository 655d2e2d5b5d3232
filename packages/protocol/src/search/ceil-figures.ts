/** Significant figures a loosened bound (or a rate that is served) is written to. */
const FIGURES = 3;

/** x rounded up to three significant figures (12.23 → 12.3, 109.3 → 110): never below x, so the plan it comes from meets it. */
export function ceilFigures(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return x;
  const step = 10 ** (Math.floor(Math.log10(x)) - (FIGURES - 1));
  const up = Number((Math.ceil(x / step) * step).toPrecision(FIGURES));
  // toPrecision may land a hair below x (1.005 → "1.00"); one more step then.
  return up >= x ? up : Number(((Math.ceil(x / step) + 1) * step).toPrecision(FIGURES));
}

/** x rounded down to three significant figures (12.38 → 12.3): never above x, so a rate x is served at is served at it too. */
export function floorFigures(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return x;
  const step = 10 ** (Math.floor(Math.log10(x)) - (FIGURES - 1));
  const down = Number((Math.floor(x / step) * step).toPrecision(FIGURES));
  // toPrecision may land a hair above x; one step less then.
  return down <= x ? down : Number(((Math.floor(x / step) - 1) * step).toPrecision(FIGURES));
}
