import { runEstimate, type EstimateJson, type EstimateOk } from '@trainplan/protocol';
import { countOf, formatBytes } from '@trainplan/units';
import type { ParsedQuestion } from '../question.ts';
import { scenarioOf } from '../scenario.ts';

/**
 * A memory question that names no layout and no cluster ("how much vram does a 7b model need to train with adam") is
 * answered on the layout the defaults took (TP 8 over one node: defaults.ts), whose memory per GPU is a share of the
 * whole. QA: "17.9 GiB per GPU" led unqualified, read as what one GPU needs. The headline says the split, and what one GPU
 * alone would need: the same run on one GPU, no model or data parallelism (its weights, gradients, optimizer states and
 * activations whole), through the same runEstimate.
 */

/** Whether the question left the layout and the cluster to the defaults. */
const layoutAssumed = (q: ParsedQuestion): boolean =>
  (['tensor', 'pipeline', 'context', 'data', 'nodes', 'gpus', 'layouts'] as const).every((f) => q.stated[f] === undefined);

/** "TP 8", "TP 4 · PP 2", "ZeRO-3 over DP 8": the sizes above 1 that split the model, as the configuration names them. */
function splitText(e: EstimateOk): string {
  const r = e.resolved;
  const sharded = r.zeroStage !== undefined && r.zeroStage > 0 ? `ZeRO-${r.zeroStage} over ` : r.distributedOptimizer && r.data > 1 ? 'the distributed optimizer over ' : '';
  const sizes = [['TP', r.tensor], ['PP', r.pipeline], ['CP', r.context]].flatMap(([name, size]) => (Number(size) > 1 ? [`${name} ${size}`] : []));
  const data = sharded === '' ? [] : [`${sharded}DP ${r.data}`];
  return [...sizes, ...data].join(' · ');
}

/**
 * " when split over 8 GPUs with TP 8 (fits for training); 133 GiB on one GPU alone (does not fit)" beside the memory per GPU, or
 * undefined where the question stated a layout or a cluster, or the plan is one GPU.
 */
export function splitMemoryText(q: ParsedQuestion, e: EstimateOk): string | undefined {
  if (q.intent !== 'memory' || !layoutAssumed(q) || e.resolved.gpus <= 1) return undefined;
  const split = splitText(e);
  if (split === '') return undefined;
  const p = q.parameters;
  const single = runEstimate(scenarioOf({
    ...p, tensor: 1, pipeline: 1, context: 1, data: undefined, virtualStages: undefined, nodes: undefined, gpus: 1,
    sequenceParallel: undefined, distributedOptimizer: undefined, zeroStage: undefined,
    // Its memory alone is said: not emulated (memory does not depend on how collectives are costed), and with no pipeline's
    // schedule or sends (one GPU has one stage; the interleaved schedule without its chunks is refused).
    emulate: undefined, schedule: undefined, overlapPipelineComm: undefined, scatterGather: undefined,
  })) as EstimateJson;
  const fits = e.memory.fits ? 'fits' : 'does not fit';
  const whole = single.memory === undefined ? ''
    : `; ${formatBytes(single.memory.totalBytes)} on one GPU alone (${single.memory.fits ? 'fits' : 'does not fit'})`;
  return ` when split over ${countOf(e.resolved.gpus, 'GPU')} with ${split} (${fits} for training)${whole}`;
}
