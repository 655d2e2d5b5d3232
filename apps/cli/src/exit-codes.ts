/** The CLI's exit codes, stated once so that the help text and the commands agree. */
export const EXIT = {
  /** Every answer is ok. */
  ok: 0,
  /** Some scenario is infeasible: out-of-memory, indivisible or invalid. */
  infeasible: 1,
  /** A usage error, or input that cannot be read or is not JSON. */
  usage: 2,
  /** A bug: something threw that should not have (sysexits' EX_SOFTWARE). */
  internal: 70,
} as const;
