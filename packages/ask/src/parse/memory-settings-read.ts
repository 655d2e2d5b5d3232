import { takeDistributedOptimizer, takeSequenceParallel, takeZeroStage } from '../lexicon/quantities.ts';
import { takeRecompute } from '../lexicon/recompute.ts';
import { asTyped } from './as-typed.ts';
import type { ParseState } from './state.ts';

/** The memory settings written: a ZeRO stage, a recompute mode (or one asked about), sequence parallelism, a distributed optimizer. */
export type MemorySettingsRead = ReturnType<typeof readMemorySettings>;

/** The settings that shard or recompute training state, read after the precision and before any collective. */
export function readMemorySettings(st: ParseState) {
  const { s, text, stated, notRead } = st;
  const zero = takeZeroStage(s);
  stated.zeroStage = zero?.stage;
  const recompute = takeRecompute(s);
  stated.recompute = recompute.recompute;
  if (recompute.conflict !== undefined) {
    notRead.push({ phrase: `"${asTyped(text, recompute.conflict.other)}"`, why: `contradicts "${asTyped(text, recompute.conflict.read)}", which is planned; say one` });
  }
  stated.sequenceParallel = takeSequenceParallel(s);
  stated.distributedOptimizer = takeDistributedOptimizer(s);
  return { zero, recompute };
}
