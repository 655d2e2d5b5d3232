import type { Bytes, Seconds } from '@trainplan/units';

/**
 * The α-β(-γ) model of Hockney, as used by Thakur, Rabenseifner & Gropp (IJHPCA 19(1), 2005):
 * a message of m bytes costs α + m·β; reducing m bytes costs m·γ.
 */
export interface AlphaBetaOptions {
  /** The collective's "size" (what each formula calls n; see each function). */
  readonly bytes: Bytes;
  /** Processes (p). */
  readonly ranks: number;
  /** Per-message start-up latency (α). */
  readonly alphaSeconds: Seconds;
  /** Transfer time per byte (β = 1 / link bandwidth). */
  readonly betaSecondsPerByte: number;
  /** Reduction time per byte (γ); 0 when the reduction hides behind the transfer. */
  readonly gammaSecondsPerByte?: number;
}

/** Programmer errors in α-β arguments throw (house style: throw is for programmer errors only). */
export function checkAlphaBeta(options: AlphaBetaOptions): void {
  const { bytes, ranks, alphaSeconds, betaSecondsPerByte, gammaSecondsPerByte = 0 } = options;
  if (!Number.isInteger(ranks) || ranks < 1) throw new RangeError(`ranks must be a positive integer, got ${ranks}`);
  checkFiniteNonNegative('bytes', bytes);
  checkFiniteNonNegative('alphaSeconds', alphaSeconds);
  checkFiniteNonNegative('betaSecondsPerByte', betaSecondsPerByte);
  checkFiniteNonNegative('gammaSecondsPerByte', gammaSecondsPerByte);
}

/** A quantity that must be a finite number ≥ 0 (NaN, −1 and Infinity are programmer errors, not costs). */
export function checkFiniteNonNegative(name: string, value: number): void {
  if (!(value >= 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be a finite number ≥ 0, got ${value}`);
}

/** ⌈log2 p⌉: rounds of a binomial tree. */
export function ceilLog2(ranks: number): number {
  return ranks <= 1 ? 0 : Math.ceil(Math.log2(ranks));
}

/**
 * How MPICH's recursive-doubling and recursive-halving all-reduces handle p ranks: among p' = 2^⌊lg p⌋ of
 * them (`pof2`), in lg p' rounds; when p' < p the first 2(p − p') ranks pair up in a step before (each even
 * rank sends its whole buffer to rank + 1, which reduces it) and a step after (rank + 1 sends the result
 * back): `folded` is 1 then, else 0 (MPICH src/mpi/coll/allreduce/allreduce_intra_recursive_doubling.c and
 * allreduce_intra_reduce_scatter_allgather.c).
 */
export function powerOfTwoCore(ranks: number): { readonly pof2: number; readonly rounds: number; readonly folded: 0 | 1 } {
  let pof2 = 1;
  let rounds = 0;
  while (pof2 * 2 <= ranks) {
    pof2 *= 2;
    rounds += 1;
  }
  return { pof2, rounds, folded: pof2 < ranks ? 1 : 0 };
}
