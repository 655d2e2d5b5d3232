import { parseBytes } from '@trainplan/units';
import type { CollectiveAlgorithm, CollectiveOp } from '../question.ts';
import { DECIMAL } from './numbers.ts';
import type { Scanner } from './scanner.ts';

const OPS: readonly [CollectiveOp, RegExp][] = [
  ['all-reduce', /\ball[\s-]*reduce\b|\ballreduce\b/],
  ['all-gather', /\ball[\s-]*gather\b|\ballgather\b/],
  ['reduce-scatter', /\breduce[\s-]*scatter\b|\breducescatter\b/],
  ['all-to-all', /\ball[\s-]*to[\s-]*all\b|\balltoall\b|\ba2a\b/],
  ['broadcast', /\bbroadcast\b|\bbcast\b/],
  ['reduce', /\breduce\b/],
];

/** The NCCL collective a question names, if any. */
export function takeCollectiveOp(s: Scanner): CollectiveOp | undefined {
  for (const [op, pattern] of OPS) if (s.take(pattern)) return op;
  return undefined;
}

export function takeAlgorithm(s: Scanner): CollectiveAlgorithm | undefined {
  const m = s.take(/\b(ring|tree|nvls)\b/);
  return m ? (m[1] as CollectiveAlgorithm) : undefined;
}

/** A message size with an explicit byte unit ("1 GB", "256MiB", "4096 bytes"); a bare "B" is billions elsewhere. */
export function takeBytes(s: Scanner): number | undefined {
  const m = s.take(new RegExp(String.raw`(${DECIMAL})\s*(kib|mib|gib|tib|pib|kb|mb|gb|tb|pb|bytes?)\b`));
  if (!m) return undefined;
  return parseBytes(`${m[1]}${m[2]?.startsWith('byte') === true ? '' : m[2] ?? ''}`);
}
