import { pipelineSplit } from '@trainplan/model';
import { runEstimate, type EstimateJson, type EstimateOk } from '@trainplan/protocol';
import { countOf, formatBytes } from '@trainplan/units';

import { gpusPerNodeOf } from '../defaults.ts';
import { modelShapeOf } from '../model-of.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import { scenarioOf } from '../scenario.ts';
import { refusalWords } from './issue-words.ts';

/**
 * A stated layout that runs out of memory, answered with the smallest one that fits (the project's rule: the
 * closest feasible alternative and why, never a bare refusal). Pipeline stages are added at the asked tensor
 * (and context) parallelism, each depth a Megatron split of the layers (@trainplan/model's pipelineSplit) on whole
 * nodes, each checked by the protocol's runEstimate, the same path as the answer's own estimate.
 *
 * The levers, in order, the first that fits answering:
 *   1. deeper pipelines on the cluster the question names (data parallelism shrinks), when it names one and no
 *      data-parallel size;
 *   2. deeper pipelines at the asked data-parallel size, on as many more GPUs as the stages take;
 *   3. and 4. the same with full recompute, unless the question states a recompute. Under 1F1B the first stage
 *      holds the activations of one micro-batch per stage for its 1/p of the layers, so past the weights and
 *      optimizer states no depth brings activations down (Llama 3 405B at TP 8: 93.5 GiB per GPU at PP 63);
 *      full recompute keeps only each layer's input.
 *
 * Each lever is a binary search over its depths (fitting taken as monotone in depth), so it runs at most
 * ⌈log2(depths + 1)⌉ estimates (7 for 126 layers), and the depth it names fits while the one before it, which
 * it estimated, does not.
 */

/** Estimates one question may spend on finding a layout, at about half a millisecond each: four levers' searches. */
const MAX_ESTIMATES = 32;

export interface Lever {
  /** 'kept': on the cluster the question names; 'grown': at the asked data-parallel size, on more GPUs. */
  readonly cluster: 'kept' | 'grown';
  /** Set when the asked recompute fits at no depth. */
  readonly recompute?: 'full';
}

/** A depth the search estimated: its parameters and the protocol's answer. */
export interface Tried {
  readonly pipeline: number;
  readonly result: EstimateJson;
}

export interface FittingLayout {
  /** The question's parameters with the layout that fits. */
  readonly parameters: AskParameters;
  readonly estimate: EstimateOk;
  readonly lever: Lever;
  /** The lever's depth before this one, estimated and not fitting; undefined when the lever's first depth fits. */
  readonly shallower?: Tried;
  /** With full recompute: the deepest depth tried at the asked recompute, which did not fit either. */
  readonly deepestAsked?: Tried;
}

const fits = (r: EstimateJson): r is EstimateOk => r.ok && r.memory.fits;

/** The parameters of each depth a lever tries, shallowest first. */
function leverDepths(p: AskParameters, lever: Lever, layers: number, firstDepth: number): AskParameters[] {
  const perNode = gpusPerNodeOf(p);
  const width = (p.tensor ?? 1) * (p.context ?? 1);
  // After defaults every fixed layout has its cluster: the nodes or GPUs asked, or one model replica's (times the data size stated).
  const clusterGpus = p.gpus ?? (p.nodes ?? 1) * perNode;
  const data = p.data ?? clusterGpus / (width * (p.pipeline ?? 1));
  const recompute = lever.recompute === undefined ? {} : { recompute: lever.recompute };
  const depths: AskParameters[] = [];
  for (let pipeline = firstDepth; pipeline <= layers; pipeline++) {
    if (pipelineSplit(layers, pipeline) === undefined) continue;
    if (lever.cluster === 'kept') {
      if (clusterGpus % (width * pipeline) === 0) depths.push({ ...p, ...recompute, pipeline });
      continue;
    }
    const gpus = width * pipeline * data;
    // The protocol takes part of one node, or whole nodes.
    if (gpus % perNode === 0) depths.push({ ...p, ...recompute, pipeline, nodes: gpus / perNode, gpus: undefined });
    else if (perNode % gpus === 0) depths.push({ ...p, ...recompute, pipeline, gpus, nodes: undefined });
  }
  return depths;
}

/**
 * The fewest stages of `depths` that fit, by bisection: `below` is the depth before it, estimated (undefined when
 * the first fits), `deepest` the last depth estimated when none fits. Undefined when the budget runs out.
 */
function bisect(depths: readonly AskParameters[], estimate: (p: AskParameters) => EstimateJson | undefined):
  { fit?: { parameters: AskParameters; estimate: EstimateOk }; below?: Tried; deepest?: Tried } | undefined {
  const seen = new Map<number, EstimateJson>();
  // depths[low] does not fit (or low is −1), depths[high] fits (or high is past the end).
  let low = -1;
  let high = depths.length;
  while (low + 1 < high) {
    const middle = Math.floor((low + high) / 2);
    const result = estimate(depths[middle]!);
    if (result === undefined) return undefined;
    seen.set(middle, result);
    if (fits(result)) high = middle; else low = middle;
  }
  const tried = (i: number): Tried | undefined => (i < 0 || !seen.has(i) ? undefined : { pipeline: depths[i]!.pipeline ?? 1, result: seen.get(i)! });
  const found = high < depths.length ? seen.get(high) : undefined;
  return {
    ...(found !== undefined && fits(found) && { fit: { parameters: depths[high]!, estimate: found } }),
    ...(tried(low) !== undefined && { below: tried(low) }),
    ...(found === undefined && tried(depths.length - 1) !== undefined && { deepest: tried(depths.length - 1) }),
  };
}

/** No lever fits: the deepest depth the last lever estimated (undefined when it had none, or the budget ran out) and that lever. */
export interface NoFittingLayout {
  readonly deepest?: Tried & { readonly lever: Lever };
}

/** What the search found, and the estimates it ran for it (at most MAX_ESTIMATES). */
export type FittingSearch = ({ readonly fit: FittingLayout } | NoFittingLayout) & { readonly estimates: number };

/**
 * The smallest layout that fits, for a fixed layout the protocol found out of memory (`failed`, its answer);
 * where none of the levers finds one, the deepest tried. Undefined when the model's layers are unknown.
 */
export function fittingLayout(q: ParsedQuestion, failed: EstimateJson): FittingSearch | undefined {
  const p = q.parameters;
  const layers = modelShapeOf(p)?.layers;
  if (layers === undefined) return undefined;
  let spent = 0;
  // Memory does not depend on how collectives are costed: the depths are estimated in closed form (an emulated estimate
  // takes up to 0.8 s, MAX_ESTIMATES of them half a minute), and the layout found once more as asked (emulatedAsAsked).
  const estimate = (x: AskParameters): EstimateJson | undefined => (spent++ < MAX_ESTIMATES ? runEstimate(scenarioOf({ ...x, emulate: undefined })) as EstimateJson : undefined);
  const asked = p.pipeline ?? 1;
  const keepsCluster = (q.stated.nodes !== undefined || q.stated.gpus !== undefined) && q.stated.data === undefined;
  const clusters: Lever['cluster'][] = keepsCluster ? ['kept', 'grown'] : ['grown'];
  const fullRecompute = p.recompute !== 'full' && q.stated.recompute === undefined;
  const levers: Lever[] = [...clusters.map((cluster) => ({ cluster })), ...(fullRecompute ? clusters.map((cluster) => ({ cluster, recompute: 'full' as const })) : [])];
  let deepestAsked: Tried | undefined;
  let deepest: NoFittingLayout['deepest'];
  for (const lever of levers) {
    // Deeper than asked at the asked recompute; from the asked depth itself with full recompute.
    const search = bisect(leverDepths(p, lever, layers, lever.recompute === undefined ? asked + 1 : asked), estimate);
    if (search === undefined) return { estimates: MAX_ESTIMATES };
    if (search.deepest !== undefined) deepest = { ...search.deepest, lever };
    if (lever.recompute === undefined && search.deepest !== undefined && lever.cluster === 'grown') deepestAsked = search.deepest;
    if (search.fit === undefined) continue;
    // Before the first deeper depth at the asked recompute comes the layout asked, which the protocol refused.
    const shallower = search.below ?? (lever.recompute === undefined ? { pipeline: asked, result: failed } : undefined);
    return {
      estimates: spent,
      fit: {
        ...emulatedAsAsked(search.fit), lever,
        ...(shallower !== undefined && { shallower }),
        ...(lever.recompute !== undefined && deepestAsked !== undefined && { deepestAsked }),
      },
    };
  }
  return { estimates: spent, ...(deepest !== undefined && { deepest }) };
}

/** A layout found, estimated with the emulator where the question asks it ("emulated"), as the answer's own estimate is. */
function emulatedAsAsked<T extends { parameters: AskParameters; estimate: EstimateOk }>(found: T): T {
  if (found.parameters.emulate !== true) return found;
  const emulated = runEstimate(scenarioOf(found.parameters)) as EstimateJson;
  return emulated.ok ? { ...found, estimate: emulated } : found;
}

/** "needs 140 GiB per GPU", or why a depth does not run at all. */
const needText = (t: Tried): string =>
  (t.result.ok ? `needs ${formatBytes(t.result.memory.totalBytes)} per GPU`
    : t.result.reason === 'out-of-memory' && t.result.neededBytes !== undefined ? `needs ${formatBytes(t.result.neededBytes)} per GPU` : `does not run (${refusalWords(t.result)})`);

/** Megatron's split of the layers over the stages: "28 + 27", "7 + 14 × 8 + 7", "4 × 20". */
export function splitText(layers: number, pipeline: number): string {
  const split = pipelineSplit(layers, pipeline);
  if (split === undefined || pipeline === 1) return `all ${layers}`;
  if (!split.uneven) return `${pipeline} × ${split.middle}`;
  if (pipeline === 2) return `${split.first} + ${split.last}`;
  return `${split.first} + ${pipeline - 2} × ${split.middle} + ${split.last}`;
}

/** The cluster named, kept: "16 nodes (data parallel 4)". */
const keptText = (f: FittingLayout): string =>
  `${f.parameters.nodes !== undefined ? countOf(f.parameters.nodes, 'node') : countOf(f.estimate.resolved.gpus, 'GPU')} (data parallel ${f.estimate.resolved.data})`;

/** Where the layout runs: "1 node (8 GPUs)", "4 GPUs", "the same 16 nodes (data parallel 4)". */
function placeText(f: FittingLayout): string {
  if (f.lever.cluster === 'kept') return `the same ${keptText(f)}`;
  return f.parameters.nodes !== undefined ? `${countOf(f.parameters.nodes, 'node')} (${countOf(f.estimate.resolved.gpus, 'GPU')})` : countOf(f.parameters.gpus ?? f.estimate.resolved.gpus, 'GPU');
}

/** The headline's alternative: "fits with pipeline parallel 2 on 1 node (8 GPUs): 78.6 GiB per GPU". */
export function fittingHeadline(f: FittingLayout, asked: AskParameters): string {
  const changes = [
    ...(f.estimate.resolved.pipeline !== (asked.pipeline ?? 1) ? [`pipeline parallel ${f.estimate.resolved.pipeline}`] : []),
    ...(f.lever.recompute !== undefined ? ['full recompute'] : []),
  ];
  return `fits with ${changes.join(' and ')} on ${placeText(f)}: ${formatBytes(f.estimate.memory.totalBytes)} per GPU`;
}

/** "tensor parallel 8", "tensor parallel 8 and context parallel 2": what the search holds fixed. */
const widthText = (p: AskParameters): string => `tensor parallel ${p.tensor ?? 1}${(p.context ?? 1) > 1 ? ` and context parallel ${p.context}` : ''}`;
const recomputeText = (r: AskParameters['recompute']): string => (r === undefined || r === 'none' ? 'no recompute' : `${r} recompute`);
/** Why deeper pipelines stop helping once the weights and optimizer states are split thin. */
const ACTIVATIONS_STAY = 'since under 1F1B the first stage holds the activations of one micro-batch per stage in flight, a whole model\'s layers\' worth at any depth';

/**
 * Why this layout: "The fewest pipeline stages at tensor parallel 4 that fit: PP 2 (Megatron's split of 55 layers:
 * 28 + 27); PP 1 needs 140 GiB per GPU." With full recompute, why the asked recompute was not kept.
 */
export function fittingNote(f: FittingLayout, asked: AskParameters, layers: number): string {
  const r = f.estimate.resolved;
  const where = f.lever.cluster === 'kept' ? ` on the ${keptText(f)}` : '';
  const recompute = f.lever.recompute === undefined ? '' : ' with full recompute (each layer keeps only its input and recomputes the rest in the backward pass)';
  const before = f.shallower === undefined ? '' : `; PP ${f.shallower.pipeline} ${needText(f.shallower)}`;
  const deepest = f.deepestAsked === undefined ? ''
    : `No pipeline depth at ${widthText(asked)} fits with ${recomputeText(asked.recompute)}: the deepest, PP ${f.deepestAsked.pipeline}, still ${needText(f.deepestAsked)}, ${ACTIVATIONS_STAY}. `;
  return `${deepest}The fewest pipeline stages at ${widthText(asked)} that fit${where}${recompute}: PP ${r.pipeline} (Megatron's split of ${layers} layers: ${splitText(layers, r.pipeline)})${before}.`;
}

/** Where no depth fits: "No pipeline depth at tensor parallel 1 fits, even with full recompute: the deepest, PP 126, still needs … GiB per GPU." */
export function noFittingNote(none: NoFittingLayout, asked: AskParameters): string[] {
  const d = none.deepest;
  if (d === undefined) return [];
  const recompute = d.lever.recompute === undefined ? `with ${recomputeText(asked.recompute)}` : 'even with full recompute';
  return [`No pipeline depth at ${widthText(asked)} fits, ${recompute}: the deepest, PP ${d.pipeline}, still ${needText(d)}; more tensor parallelism splits the weights and activations further.`];
}
