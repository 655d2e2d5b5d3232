import type { Bytes, BytesPerSecond, Count, FlopPerSecond, Ratio, Seconds } from './quantities.ts';

/** Significant-figure formatting, in powers of ten only below a millionth's precision (1e-9 → "1.00e-9", never "0.000000"). */
export function formatNumber(x: number, significant = 3): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  // The decimals of the value rounded to `significant` figures: 99.997 is "100", not "100.0" (four figures).
  const digits = Math.max(0, significant - 1 - Math.floor(Math.log10(Math.abs(Number(x.toPrecision(significant))))));
  // Past six decimals, powers of ten to the same figures ("1.00e-9", "2.35e-7"): toFixed would write 1e-9 as "0.000000".
  return digits > 6 ? x.toPrecision(significant) : x.toFixed(digits);
}

/**
 * A rate or count read as a whole number from a thousand up, grouped ("5,390"), and to `significant`
 * figures below ("337", "0.0240"): tokens/s and requests/s as tables and prose show them alike. A whole
 * number is shown whole ("20", not "20.0"): a rate a request gives reads as it was given.
 */
export function formatGrouped(x: number, significant = 3): string {
  // A whole number (a rate as given: 20 requests/s) keeps its digits, no trailing zeros added.
  if (Number.isInteger(x)) return x.toLocaleString('en-US');
  const text = formatNumber(x, significant);
  // Judged after rounding, so 999.6 is "1,000" as 1000.4 is.
  return Number.isFinite(x) && Math.abs(Number(text)) >= 1000 ? Math.round(x).toLocaleString('en-US') : text;
}

/**
 * An amount summed over a run (GPU-hours, a cost): whole and grouped by thousands from 100 up ("476,157"), where a
 * fraction is noise; to `significant` figures below, where rounding to a whole number would hide it (a few minutes on
 * 16 GPUs are 0.250 GPU-hours, not "0"). A whole number stays whole ("5", a count of sizes).
 */
export const formatAmount = (x: number, significant = 3): string =>
  (Math.abs(x) >= 100 || Number.isInteger(x) || !Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : formatNumber(x, significant));

function scaled(x: number, steps: readonly (readonly [number, string])[], significant: number): string {
  const abs = Math.abs(x);
  for (let i = 0; i < steps.length; i++) {
    const [factor, unit] = steps[i]!;
    if (abs < factor) continue;
    const text = formatNumber(x / factor, significant);
    // Rounded up to the next step's size (999,998 is "1000 k" at three figures): said in that step, "1.00 M".
    const up = steps[i - 1];
    return up !== undefined && Math.abs(Number(text)) * factor >= up[0] ? `${formatNumber(x / up[0], significant)} ${up[1]}` : `${text} ${unit}`;
  }
  const last = steps[steps.length - 1]!;
  return `${formatNumber(x / last[0], significant)} ${last[1]}`;
}

const BINARY_BYTES = [
  [2 ** 50, 'PiB'], [2 ** 40, 'TiB'], [2 ** 30, 'GiB'], [2 ** 20, 'MiB'], [2 ** 10, 'KiB'], [1, 'B'],
] as const;
const DECIMAL_BYTES = [
  [1e15, 'PB'], [1e12, 'TB'], [1e9, 'GB'], [1e6, 'MB'], [1e3, 'KB'], [1, 'B'],
] as const;

/** Memory sizes in binary units (what `nvidia-smi` and allocators show). */
export const formatBytes = (b: Bytes, significant = 3): string => scaled(b, BINARY_BYTES, significant);
/** Message sizes in decimal units (nccl-tests convention). */
export const formatBytesDecimal = (b: Bytes, significant = 3): string => scaled(b, DECIMAL_BYTES, significant);

export function formatSeconds(s: Seconds, significant = 3): string {
  // Each unit is judged on the figure as it will be shown, so 0.9996 s is "1.00 s", never "1000 ms".
  const abs = Math.abs(Number(s.toPrecision(significant)));
  if (abs >= 86400 * 2) return `${formatNumber(s / 86400, significant)} days`;
  if (abs >= 3600 * 2) return `${formatNumber(s / 3600, significant)} h`;
  // From two minutes, minutes: "24.4 min" reads at a glance where "1463 s" does not.
  if (abs >= 60 * 2) return `${formatNumber(s / 60, significant)} min`;
  if (abs >= 1 || abs === 0) return `${formatNumber(s, significant)} s`;
  if (abs >= 1e-3) return `${formatNumber(s * 1e3, significant)} ms`;
  if (abs >= 1e-6) return `${formatNumber(s * 1e6, significant)} µs`;
  return `${formatNumber(s * 1e9, significant)} ns`;
}

/**
 * A mean wait for a serving slot: formatSeconds, but "under 1 µs" below a microsecond. On a lightly loaded replica Erlang C's
 * probability of waiting falls to 1e-50 and below, a figure no server's clock tells from none (QA: the CLI printed "9.90e-32 ns
 * on average for a slot", where the bot and the widget said "under 1 µs").
 */
export const formatWaitSeconds = (s: Seconds): string => (s < 1e-6 ? 'under 1 µs' : formatSeconds(s));

/**
 * A figure to a fixed number of decimals, grouped by thousands: 3140.06 to 1 decimal is "3,140.1", as formatDuration writes
 * days (QA: the search's days column, toFixed's "3140.1 d", beside "3,140.1 days"). formatDuration keeps its own call, so
 * that the widget, which shows no such column, does not carry this one (its test holds the two alike).
 */
export const formatFixedGrouped = (x: number, decimals: number): string =>
  x.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/**
 * A long span, as a time to train reads: days to one decimal, grouped by thousands ("34.2 days",
 * "8,764.4 days"); under a day, where that would read "0.1 days" for anything from 2 to 4 hours, hours
 * ("3.2 hours"), then whole minutes ("12 minutes"), then formatSeconds ("23.7 s"). Each unit is judged on its figure
 * as rounded, so a span that rounds up to the next unit is said in that one (QA: 0.999 days read "24.0 hours", 59.9
 * minutes "60 minutes").
 */
export function formatDuration(s: Seconds): string {
  if (Number((s / 3600).toFixed(1)) >= 24) return `${(s / 86400).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} days`;
  if (Math.round(s / 60) >= 60) return `${(s / 3600).toFixed(1)} hours`;
  return Number(formatNumber(s)) >= 60 ? countOf(Math.round(s / 60), 'minute') : formatSeconds(s);
}

export const formatFlops = (f: FlopPerSecond, significant = 3): string =>
  scaled(f, [[1e18, 'EFLOP/s'], [1e15, 'PFLOP/s'], [1e12, 'TFLOP/s'], [1e9, 'GFLOP/s'], [1e6, 'MFLOP/s'], [1e3, 'kFLOP/s'], [1, 'FLOP/s']], significant);

export const formatBandwidth = (r: BytesPerSecond, significant = 3): string =>
  scaled(r, [[1e12, 'TB/s'], [1e9, 'GB/s'], [1e6, 'MB/s'], [1e3, 'KB/s'], [1, 'B/s']], significant);

/** Counts: "2.08 k", "1.23 M"; a whole count under a thousand as it is ("72", not "72.0"). */
export const formatCount = (c: Count, significant = 3): string =>
  Number.isInteger(c) && Math.abs(c) < 1e3 ? String(c)
    : scaled(c, [[1e12, 'T'], [1e9, 'B'], [1e6, 'M'], [1e3, 'k'], [1, '']], significant).trimEnd();

/**
 * A count as chat and papers write one, its scale letter against the figure: "300B", "8.07B", "15.6T", "72" (formatCount
 * without the space). Beside byte sizes ("weights 58.0 B") a spaced "8.07 B parameters" reads as bytes.
 */
export const formatCountCompact = (c: Count, significant = 3): string => formatCount(c, significant).replace(/\s+/g, '');

export const formatPercent = (r: Ratio, decimals = 1): string => `${(r * 100).toFixed(decimals)}%`;

/**
 * A share as a percentage to as many decimals as it has, up to two ("90%", "95.5%", "99.99%"), or more where two would
 * round a share below 1 up to 100% ("99.999%"): an uptime of 0.99999 is not written 100% beside the time it loses.
 */
export function formatShare(r: Ratio): string {
  let decimals = 2;
  while (r < 1 && Number((r * 100).toFixed(decimals)) >= 100 && decimals < 12) decimals += 1;
  return `${Number((r * 100).toFixed(decimals))}%`;
}

/** Decimals a load may take before it reads below 100% (ρ is below 1 whenever a rate is served). */
const MAX_LOAD_DECIMALS = 3;

/**
 * A load (a share of capacity in use) as a percentage, whole unless that rounds a load below capacity up to "100%",
 * which reads as saturated (a wait without bound): 0.998 is "99.8%", 0.9996 "99.96%", 0.95 "95%".
 */
export function formatLoad(utilization: Ratio): string {
  for (let decimals = 0; decimals < MAX_LOAD_DECIMALS; decimals++) {
    const text = formatPercent(utilization, decimals);
    if (utilization >= 1 || Number.parseFloat(text) < 100) return text;
  }
  // Within a thousandth of a per cent of capacity: cut, not rounded, so that it still reads below 100% ("99.999%").
  return `${(Math.floor(utilization * 10 ** (MAX_LOAD_DECIMALS + 2)) / 10 ** MAX_LOAD_DECIMALS).toFixed(MAX_LOAD_DECIMALS)}%`;
}

/**
 * A change as a signed percentage: one decimal under 10% ("+0.5%", "−4.2%"), whole from 10% ("+31%").
 * Decided on the rounded figure, so 9.96% reads "+10%", not "+10.0%". A change that is not zero but rounds to it reads
 * "+<0.1%" (QA: "CP 2: +0.0% step time … (+42.2 ms per step)" read as a tie beside a time that is not one).
 */
export function formatPercentChange(r: Ratio): string {
  const tenth = formatPercent(Math.abs(r), 1);
  if (r !== 0 && parseFloat(tenth) === 0) return `${r > 0 ? '+' : '−'}<0.1%`;
  return `${r >= 0 ? '+' : '−'}${parseFloat(tenth) < 10 ? tenth : formatPercent(Math.abs(r), 0)}`;
}

/**
 * `n` and a noun, plural unless n is 1: `1 node`, `8 nodes`, `1 GPU`, a whole count grouped by thousands as every
 * count in messages is (`8,192 nodes`). Nouns whose plural adds "s" only.
 */
export const countOf = (n: number, noun: string): string =>
  `${Number.isSafeInteger(n) ? n.toLocaleString('en-US') : n} ${noun}${n === 1 ? '' : 's'}`;
