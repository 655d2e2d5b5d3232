import { POINT_DECIMAL } from './numbers.ts';
import type { Scanner } from './quantities.ts';

/**
 * An MFU the question states ("at 50% MFU", "assuming 45% mfu", "mfu of 0.4", "40% model flops
 * utilization"). MFU is model FLOP/s over peak (as Chowdhery et al. 2022, PaLM, Appendix B define it), so a fraction in
 * (0, 1]: a number with % (or "percent") is a percentage of at most 100, a bare number a fraction.
 */
type StatedMfu = { ok: true; mfu: number } | { ok: false; problem: string };

const NAME = String.raw`(?:mfu|model[\s-]*flops?[\s-]*utili[sz]ation)`;
const VALUE = String.raw`(-?${POINT_DECIMAL}) ?(%|percent)?`;
// Single spaces only: the scanner blanks what it took with runs of spaces, and a number across a blank
// belongs to another phrase ("mfu of llama3-8b 8 h100" is no MFU of 8). Nor a count: "mfu 8 gpus".
const NOT_A_COUNT = String.raw`(?![\w.])(?! ?(?:x\b|HW\b|gpus?\b|nodes?\b))`;
const BEFORE = new RegExp(String.raw`(?<![\w.])${VALUE} ?${NAME}\b`);
const AFTER = new RegExp(String.raw`\b${NAME}(?: (?:of|is|at|around|about|near|~)| ?[=:~])? ?${VALUE}${NOT_A_COUNT}`);

/** The stated MFU, taken out of the text; a problem naming it when it is no fraction of peak. */
export function takeStatedMfu(s: Scanner): StatedMfu | undefined {
  const m = s.take(BEFORE) ?? s.take(AFTER);
  if (!m) return undefined;
  const value = Number(m[1]);
  const percent = m[2] !== undefined;
  const mfu = percent ? value / 100 : value;
  if (mfu > 0 && mfu <= 1) return { ok: true, mfu };
  const written = `${m[1]}${percent ? '%' : ''}`;
  return {
    ok: false,
    problem: percent
      ? `an MFU of ${written} is out of range: MFU is a share of the GPU's peak, above 0% and at most 100%`
      : `an MFU of ${written} is out of range: give a fraction above 0 and at most 1 (0.4) or a percentage (40%)`,
  };
}
