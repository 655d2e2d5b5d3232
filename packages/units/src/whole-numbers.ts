/** Whole-number arithmetic the packages share: divisibility of GPUs, batches and layers. */

/** Greatest common divisor of two whole numbers (Euclid). */
export const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Least common multiple of two whole numbers above 0. */
export const lcm = (a: number, b: number): number => (a / gcd(a, b)) * b;
