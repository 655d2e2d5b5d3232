import { matchHardware, type HardwareMatch } from '../lexicon/hardware.ts';
import { matchInstance, type InstanceMatch } from '../lexicon/instances.ts';
import { HW_TOKEN } from '../lexicon/quantities.ts';
import { instanceHardware } from './instance-hardware.ts';
import type { ParseState } from './state.ts';

/** Words comparing two things: "vs", "or", "compare", "against", "better". */
const COMPARES = /\b(?:vs\.?|versus|or|compar\w*|against|better)\b/;

/** Two GPUs each with a count, joined by "and" ("512 HW and 512 a100"): one of them not yet a token. */
const COUNTED = String.raw`(?<![a-z\d.])\d+k?\s*(?:x\s*)?`;
const TWO_COUNTED_GPUS = new RegExp(String.raw`${COUNTED}${HW_TOKEN}\s+and\s+${COUNTED}[a-z]|${COUNTED}[a-z][\w.-]*\s+and\s+${COUNTED}${HW_TOKEN}\b`);

/**
 * The GPUs compared with the one named (its marker already in the text): stated as comparedGpus, the first written planned
 * first; undefined where the question names one GPU.
 */
export function readComparedGpus(st: ParseState, instance: InstanceMatch | undefined, hardware: HardwareMatch | undefined): HardwareMatch[] | undefined {
  const { s, stated } = st;
  // "A100 vs H100 for 70B", "H100 or A100", "compare H100 and H200": a second GPU compared with the first, answered beside it.
  // The GPU named first is answered first, whichever the lexicon's order finds first ("H100 or A100": H100, then A100).
  // Two instance types compare as their GPUs do ("p4d vs p5": A100 40GB beside H100).
  const otherInstance = instance !== undefined && COMPARES.test(s.text) ? matchInstance(s.text) : undefined;
  // "512 H100 and 512 A100": two GPUs each counted compare as "vs" does (only the last was planned).
  const other = hardware === undefined || !(COMPARES.test(s.text) || TWO_COUNTED_GPUS.test(s.text)) ? undefined
    : instance === undefined ? matchHardware(s.text) : otherInstance === undefined ? undefined : instanceHardware(otherInstance);
  const compared = other !== undefined && hardware !== undefined && other.gpu !== hardware.gpu
    ? (other.index < hardware.index ? [other, hardware] : [hardware, other])
    : undefined;
  if (other !== undefined && compared !== undefined) {
    s.replace(other, ` ${HW_TOKEN} `);
    // "512 H100 or 512 H200 or 512 B200": a third GPU and on compared too (QA: the third was dropped unsaid). The lexicon
    // finds GPUs in its own order; all are put in the question's, so that the sizes written beside them (in the
    // question's order too) go each to its own GPU. A replacement shifts only the text after it, so indices found
    // before and after one keep their order.
    const found = [...compared];
    for (let more = matchHardware(s.text); more !== undefined; more = matchHardware(s.text)) {
      s.replace(more, ` ${HW_TOKEN} `);
      if (!found.some((g) => g.gpu === more.gpu)) found.push(more);
    }
    const [first, ...rest] = found.sort((a, b) => a.index - b.index);
    stated.gpu = first!.gpu;
    if (first!.system !== undefined) stated.system = first!.system;
    else delete stated.system;
    stated.comparedGpus = rest.map((g) => ({ gpu: g.gpu, ...(g.system !== undefined && { system: g.system }) }));
  }
  return compared;
}
