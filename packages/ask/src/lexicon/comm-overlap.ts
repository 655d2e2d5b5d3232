import type { Scanner } from './quantities.ts';
import { switchPattern, takeSwitch, takeSwitchReading, type SwitchReading } from './switch-words.ts';

/**
 * The overlaps of communication with compute a question may turn on, each the scenario's parallelism extension and the
 * search's `settings` of the same name (protocol scenario-schema.ts): tensor-parallel collectives with the GEMMs
 * (Transformer Engine's --tp-comm-overlap, "TE comm overlap"), the gradient reduction with the backward pass
 * (Megatron's --overlap-grad-reduce, and --overlap-param-gather, which the plan turns on with it: protocol
 * export-sharding.ts), pipeline sends with compute (Megatron-Core's overlap_p2p_comm), and Megatron's scatter-gather of
 * pipeline sends (Narayanan et al. SC'21 §4.1). QA: "with tp 8 pp 4 and tp comm overlap" planned 11.2 s a step with no
 * word of the overlap, where the API with overlapTensorParallelComm plans 8.68 s. Read before the collectives (the
 * "reduce" and "gather" they hold would name one) and the parallel sizes ("tp" and "pp").
 */

type OverlapField = 'overlapTensorParallelComm' | 'overlapGradReduce' | 'overlapPipelineComm' | 'scatterGather';

/** Communication's names, and the collectives' own ("overlap the tp all-gather"). */
const COMM = String.raw`(?:comm(?:unication)?s?|collectives?|all[\s-]*reduces?|all[\s-]*gathers?|reduce[\s-]*scatters?)`;
const OVERLAP = String.raw`overlap(?:s|ped|ping)?`;
/** Tensor parallelism's names: "tp", "tensor parallel". */
const TP = String.raw`(?:tp|tensor[\s-]*(?:model[\s-]*)?parallel(?:ism)?)`;
/**
 * Transformer Engine's "te", whose userbuffers overlap TP's collectives: only before a word of communication ("te comm
 * overlap", "overlap te comm"), never "the" mistyped nor "te" alone ("with the te" is no overlap).
 */
const TE_COMM = String.raw`te[\s-]*${COMM}`;
/** The gradient reduction's names: "grad reduce", "gradient all-reduce", "dp comm", "param gather". */
const GRAD = String.raw`(?:(?:grad(?:ient)?s?|dp|data[\s-]*parallel(?:ism)?)[\s-]*(?:reduc(?:e|es|tion)|all[\s-]*reduces?|reduce[\s-]*scatters?|sync\w*|${COMM})|param(?:eter)?s?[\s-]*(?:all[\s-]*)?gathers?)`;
/** Pipeline sends' names: "p2p (comm)", "pp comm", "pipeline sends". */
const P2P = String.raw`(?:p2p(?:[\s-]*${COMM})?|(?:pp|pipeline(?:[\s-]*parallel(?:ism)?)?)[\s-]*(?:${COMM}|sends?|send[\s-]*recv))`;

/** Each overlap's names: the thing overlapped before "overlap" ("tp comm overlap") or after it ("overlap tp comm"). */
const OVERLAPS: readonly [OverlapField, RegExp][] = [
  ['overlapTensorParallelComm', switchPattern(String.raw`\b(?:${TP}[\s-]*(?:${COMM}[\s-]*)?|${TE_COMM}[\s-]*)${OVERLAP}\b|\b${OVERLAP}[\s-]*(?:of\s+)?(?:the\s+)?(?:${TP}|te)[\s-]*${COMM}\b`)],
  ['overlapGradReduce', switchPattern(String.raw`\b${GRAD}[\s-]*${OVERLAP}\b|\b${OVERLAP}[\s-]*(?:of\s+)?(?:the\s+)?${GRAD}\b`)],
  ['overlapPipelineComm', switchPattern(String.raw`\b(?:p2p|pp|pipeline)(?:[\s-]*(?:${COMM}|sends?))?[\s-]*${OVERLAP}\b|\b${OVERLAP}[\s-]*(?:of\s+)?(?:the\s+)?${P2P}\b`)],
  // Never a reduce-scatter's "scatter" (a collective, read later).
  ['scatterGather', switchPattern(String.raw`(?<!reduce[\s-]*)\bscatter[\s-]*(?:\/|and)?[\s-]*gather(?:[\s-]*optimi[sz]ation)?\b`)],
];

/** An overlap with no word of what it overlaps: "with comm overlap", "overlapping communication with compute". */
const WHICH_UNSAID = switchPattern(String.raw`\b(?:compute[\s-]*)?${COMM}[\s-]*(?:and[\s-]*compute[\s-]*)?${OVERLAP}\b|\b${OVERLAP}[\s-]*(?:of\s+)?(?:the\s+)?${COMM}(?:\s+(?:with|and)\s+compute)?\b`);

/** Why an overlap named with no word of what it overlaps is not read: the plan has three, each its own switch. */
export const WHICH_OVERLAP_UNSAID = 'which communication is overlapped is not said: say "tp comm overlap" for tensor-parallel collectives with '
  + 'the GEMMs, "overlap grad reduce" for the gradient reduction with the backward pass, or "overlap p2p" for pipeline sends; each is off unless said';

/**
 * Each overlap's reading, in OVERLAPS' order (undefined where the text names it not), every mention taken out of the text,
 * for switches-read.ts to set as every switch is; and the words of an overlap of nothing named, to say.
 */
export function takeCommOverlaps(s: Scanner): { readings: [OverlapField, SwitchReading | undefined][]; whichUnsaid?: string } {
  const readings = OVERLAPS.map(([field, pattern]): [OverlapField, SwitchReading | undefined] => [field, takeSwitchReading(s, pattern)]);
  const unsaid = takeSwitch(s, WHICH_UNSAID);
  return { readings, ...(unsaid !== undefined && { whichUnsaid: unsaid.written }) };
}
