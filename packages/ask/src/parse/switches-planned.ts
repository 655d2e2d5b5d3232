import { hasFixedConfiguration, searchesLayout } from '../defaults.ts';
import type { AskParameters, IntentName, NotRead } from '../question.ts';
import { TRAINING_PLANS } from './intent-facts.ts';
import type { ParseState } from './state.ts';
import type { SwitchWords } from './switches-read.ts';

/**
 * Which of the switches read (switches-read.ts) the answer to the intent plans, and the rest said not read with why, taken
 * out of the facts: never planned unsaid, never dropped unsaid. A stated layout is one estimate (the scenario takes every
 * switch); a search takes the overlaps, scatter-gather, the kernel, dropout, FP8 weights, the share of memory and the
 * 1F1B or interleaved schedule (as virtual-stage counts), not GPipe, a count of layers recomputed or the emulator.
 */

/** The training switches a non-training answer (serving, a collective, a cluster's price) has no plan to put in. */
const TRAINING_SWITCHES: readonly (keyof AskParameters)[] = [
  'overlapTensorParallelComm', 'overlapGradReduce', 'overlapPipelineComm', 'scatterGather', 'schedule', 'attentionKernel', 'dropout',
  'recomputeLayers', 'memoryFraction', 'emulate',
];

/** Why the search does not take GPipe. */
// The planner costs GPipe's bubble as 1F1B's, (p − 1)/m, and its activations as all m micro-batches' (model activations.ts).
export const GPIPE_NOT_SEARCHED = 'the search tries 1F1B and the interleaved schedule, never GPipe, whose bubble is 1F1B\'s and which holds '
  + 'every micro-batch\'s activations at once: state a layout, e.g. "tp 8 pp 4 with gpipe", to plan it';
/** Why the search does not take a count of layers recomputed. */
export const LAYERS_NOT_SEARCHED = 'the search picks how many layers to recompute itself, the fewest a stage that fit under full '
  + 'recompute: state a layout, e.g. "tp 8 pp 4", to plan a count';
/** Why a stated layout does not take a share of memory. */
export const FRACTION_NOT_FIXED = 'a share of memory limits the layouts a search tries: a stated layout is planned as given, '
  + 'its memory said against the whole GPU';
/** Why the search does not take the emulator. */
export const EMULATOR_NOT_SEARCHED = 'the search costs collectives by NCCL\'s closed form: state a layout, e.g. "tp 8 pp 4", to '
  + 'emulate its step, or ask a collective alone, e.g. "all-reduce 1 GB on 64 H100 emulated"';
/** Why the interleaved schedule on a stated layout needs its chunks. */
export const CHUNKS_UNSAID = 'the interleaved schedule needs its model chunks per stage: say them, e.g. "vp 2"; planned 1F1B';

/** Whether the intent's answer plans a stated layout (one estimate, or layouts compared), not a search (answer.ts dispatch). */
function plansStatedLayout(intent: IntentName, facts: AskParameters): boolean {
  if (facts.layouts !== undefined) return true;
  if (intent === 'memory' || intent === 'estimate') return !searchesLayout(intent, facts);
  return intent === 'time' && hasFixedConfiguration(facts);
}

/** Why a training switch is not read where no training run is planned. */
const notTrainingWhy = (intent: IntentName): string =>
  (intent === 'serving' ? 'a training setting: the serving plan does not take it' : `a training setting: ${intent === 'collective' ? 'a collective' : 'this answer'} plans no training run`);

/**
 * The switches of `facts` the intent's answer plans, the others said in st.notRead and deleted from `facts`. Runs once the
 * intent is known and before the defaults (a count of layers recomputed on a stated layout is full recompute, not the
 * default selective).
 */
export function planSwitches(st: ParseState, intent: IntentName, facts: AskParameters, words: SwitchWords): void {
  const notRead: NotRead[] = [];
  const drop = (field: keyof AskParameters, why: string): void => {
    if (facts[field] === undefined) return;
    const phrase = words[field];
    if (phrase !== undefined) notRead.push({ phrase: `"${phrase}"`, why });
    delete facts[field];
  };
  if (intent === 'help') return;
  if (!TRAINING_PLANS.has(intent)) {
    // FP8 weights served are the serving precision's own (FP8), read already: nothing more to plan.
    delete facts.fp8Params;
    for (const field of TRAINING_SWITCHES) {
      if (field === 'emulate' && intent === 'collective') continue;
      // A serving engine's share of memory is the inference request's gpuMemoryUtilization (vLLM's gpu_memory_utilization).
      if (field === 'memoryFraction' && intent === 'serving') continue;
      drop(field, notTrainingWhy(intent));
    }
    st.notRead.push(...notRead);
    return;
  }
  const stated = plansStatedLayout(intent, facts);
  scheduleWithChunks(facts, words, stated, notRead);
  // Megatron's "--recompute-method uniform": every layer recomputed (its count is each unit's size, Megatron-Core
  // TransformerConfig.recompute_method), full recompute of all layers, where no other mode is asked.
  if (words.recompute !== undefined && facts.recompute === undefined) facts.recompute = 'full';

  if (stated) {
    drop('memoryFraction', FRACTION_NOT_FIXED);
    // A count of layers is full recompute's ("recompute 4 layers": Megatron's --recompute-granularity full with a number).
    if (facts.recomputeLayers !== undefined && facts.recompute !== undefined && facts.recompute !== 'full') {
      drop('recomputeLayers', `contradicts the ${facts.recompute === 'none' ? 'recompute turned off' : 'selective recompute'} asked, which is planned: a count of layers recomputed is full recompute's`);
    } else if (facts.recomputeLayers !== undefined) facts.recompute = 'full';
  } else {
    if (facts.schedule === 'gpipe') drop('schedule', GPIPE_NOT_SEARCHED);
    drop('recomputeLayers', LAYERS_NOT_SEARCHED);
    drop('emulate', EMULATOR_NOT_SEARCHED);
  }
  st.notRead.push(...notRead);
}

/**
 * The schedule beside the chunks stated: 1F1B and GPipe run one chunk a stage, the interleaved schedule more (protocol
 * scenario-schema.ts refuses the rest). A contradiction keeps the chunks, a number, and says the schedule's words; the
 * interleaved schedule on a stated layout with no chunks said is said, its count being the asker's to give.
 */
function scheduleWithChunks(facts: AskParameters, words: SwitchWords, stated: boolean, notRead: NotRead[]): void {
  const { schedule, virtualStages: v } = facts;
  if (schedule === undefined) return;
  const phrase = `"${words.schedule ?? schedule}"`;
  if (v !== undefined && (schedule === 'interleaved') !== (v > 1)) {
    notRead.push({ phrase, why: `contradicts the ${v} model ${v === 1 ? 'chunk' : 'chunks'} per stage asked, which ${v === 1 ? 'is' : 'are'} planned: ${schedule === 'interleaved' ? 'the interleaved schedule runs 2 or more' : '1F1B and GPipe run one'}` });
    delete facts.schedule;
  } else if (stated && schedule === 'interleaved' && v === undefined) {
    notRead.push({ phrase, why: CHUNKS_UNSAID });
    delete facts.schedule;
  }
}
