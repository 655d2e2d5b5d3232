import { takeAlgorithm, takeBytes, takeCollectiveOp } from '../lexicon/quantities.ts';
import { takeInNetworkReduction } from '../lexicon/network.ts';
import type { ParseState } from './state.ts';

/**
 * A collective asked alone ("all-reduce 1 GiB on 4 DGX H100"): its op, in-network reduction, algorithm and message size.
 * Read after the memory settings and before the counts; SHARP asked of a training plan is said not read.
 */
export function readCollective(st: ParseState): void {
  const { s, stated, notRead } = st;
  stated.op = takeCollectiveOp(s);
  if (stated.op !== undefined) {
    // "with SHARP", "with CollNet": before the algorithm, whose "nvls" and "tree" it never holds.
    stated.collnet = takeInNetworkReduction(s);
    stated.algorithm = takeAlgorithm(s);
    stated.bytes = takeBytes(s);
  } else if (takeInNetworkReduction(s) === true) {
    // A plan "with SHARP": CollNet is costed for a collective asked alone (`trainplan collective --collnet`); a training
    // plan's reductions are NCCL's default, CollNet off. Said, never dropped unsaid (QA: the plan came back silent on it).
    notRead.push({ phrase: '"with SHARP" (CollNet)', why: 'in-network reduction is modelled for a collective asked alone ("all-reduce 1 GiB on 4 DGX H100 with SHARP"); this plan\'s reductions are costed as NCCL runs them by default, without it' });
  }
}
