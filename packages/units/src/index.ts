export type { Bytes, BytesPerSecond, Count, Flop, FlopPerSecond, Ratio, Seconds } from './quantities.ts';
export {
  KB, MB, GB, TB, KiB, MiB, GiB, TiB,
  ns, us, ms, seconds, minutes, hours, days, HOURS_PER_DAY,
  TFLOPS, GBps, TBps, Gbps,
  thousand, million, billion, trillion,
  toGiB, toMs, toUs, toDays, toHours, toTFLOPS, toGBps,
} from './quantities.ts';
export {
  formatNumber, formatGrouped, formatBytes, formatBytesDecimal, formatSeconds, formatWaitSeconds, formatDuration, formatFlops, formatBandwidth,
  formatCount, formatCountCompact, formatPercent, formatShare, formatPercentChange, countOf, formatAmount, formatLoad, formatFixedGrouped,
} from './format.ts';
export { formatCountExact, parseBytes, parseCount, parseDecimal, parseTokenLength } from './parse.ts';
export { formatSize, typedInBinary } from './format-size.ts';
export { gcd, lcm } from './whole-numbers.ts';
