/**
 * Dimensioned quantities. Every value inside trainplan is SI: bytes, seconds, FLOP, FLOP/s,
 * bytes/s. The aliases document the unit at the type level; the constructors below are the only
 * place where scale literals (1e9, 2**30, …) may appear (house style, habit 1).
 */
export type Bytes = number;
export type Seconds = number;
export type Flop = number;
export type FlopPerSecond = number;
export type BytesPerSecond = number;
export type Count = number;
export type Ratio = number;

const KILO = 1e3;
const MEGA = 1e6;
const GIGA = 1e9;
const TERA = 1e12;
const KIBI = 2 ** 10;
const MEBI = 2 ** 20;
const GIBI = 2 ** 30;
const TEBI = 2 ** 40;
const BITS_PER_BYTE = 8;
const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 3600;
/** Hours in a day: the civil day, 24 hours of 3,600 seconds (no leap seconds in a plan's span). */
export const HOURS_PER_DAY = 24;
const SECONDS_PER_DAY = HOURS_PER_DAY * SECONDS_PER_HOUR;

// Sizes (decimal, as datasheets and nccl-tests use them, and binary, as allocators use them).
export const KB = (x: number): Bytes => x * KILO;
export const MB = (x: number): Bytes => x * MEGA;
export const GB = (x: number): Bytes => x * GIGA;
export const TB = (x: number): Bytes => x * TERA;
export const KiB = (x: number): Bytes => x * KIBI;
export const MiB = (x: number): Bytes => x * MEBI;
export const GiB = (x: number): Bytes => x * GIBI;
export const TiB = (x: number): Bytes => x * TEBI;

// Times.
export const ns = (x: number): Seconds => x / GIGA;
export const us = (x: number): Seconds => x / MEGA;
export const ms = (x: number): Seconds => x / KILO;
export const seconds = (x: number): Seconds => x;
export const minutes = (x: number): Seconds => x * SECONDS_PER_MINUTE;
export const hours = (x: number): Seconds => x * SECONDS_PER_HOUR;
export const days = (x: number): Seconds => x * SECONDS_PER_DAY;

// Rates.
export const TFLOPS = (x: number): FlopPerSecond => x * TERA;
export const GBps = (x: number): BytesPerSecond => x * GIGA;
export const TBps = (x: number): BytesPerSecond => x * TERA;
/** Line rates of links are quoted in bits per second: 200 Gb/s HDR is 25 GB/s. */
export const Gbps = (x: number): BytesPerSecond => (x * GIGA) / BITS_PER_BYTE;

// Counts.
export const thousand = (x: number): Count => x * KILO;
export const million = (x: number): Count => x * MEGA;
export const billion = (x: number): Count => x * GIGA;
export const trillion = (x: number): Count => x * TERA;

// Conversions back to the human units used in tables and the contract's examples.
export const toGiB = (b: Bytes): number => b / GIBI;
export const toMs = (s: Seconds): number => s * KILO;
export const toUs = (s: Seconds): number => s * MEGA;
export const toDays = (s: Seconds): number => s / SECONDS_PER_DAY;
export const toHours = (s: Seconds): number => s / SECONDS_PER_HOUR;
export const toTFLOPS = (f: FlopPerSecond): number => f / TERA;
export const toGBps = (r: BytesPerSecond): number => r / GIGA;
