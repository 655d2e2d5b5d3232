import type { NodesResponseJson } from '@trainplan/protocol';
import type { ModelPreset } from '@trainplan/presets';
import { formatPercent } from '@trainplan/units';
import type { ShapeFamily } from '../custom-model.ts';
import { rows } from '../custom-width.ts';
import { compactCount } from '../format.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';

/**
 * The presets of a family nearest a compute-optimal size, each with the tokens the same budget buys it and the tokens a
 * parameter that makes (answer/compute-optimal.ts): how far each is over- or under-trained against Chinchilla's ratio.
 */

/** Rows shown: three brackets the size (one below, one above where the family has them) without a long table. */
const ROWS_SHOWN = 3;

/**
 * The family's presets nearest `parameters` on a log scale (sizes grow by factors, so 70B is nearer 82B than 8B is), one
 * preset a size (the family's order keeps Llama 3 8B before Llama 3.1 8B), smallest first.
 */
export function presetsNear(family: ShapeFamily, parameters: number): ModelPreset[] {
  const sizes = rows(family).filter((r, i, all) => all.findIndex((o) => o.publishedParameters === r.publishedParameters) === i);
  const distance = (r: ModelPreset): number => Math.abs(Math.log(r.publishedParameters / parameters));
  return [...sizes].sort((a, b) => distance(a) - distance(b)).slice(0, ROWS_SHOWN).sort((a, b) => a.publishedParameters - b.publishedParameters);
}

/** A ratio as said: whole from 10 ("2,063", "26"), else to two figures ("1.3", "0.45"). */
const ratioText = (x: number): string => (x >= 10 ? Math.round(x).toLocaleString('en-US') : String(Number(x.toPrecision(2))));

/**
 * Ratios within this of the compute-optimal one are at it: Chinchilla's own approaches agree on the ratio only roughly
 * (Hoffmann et al. 2022, Table 2: N ∝ C^0.50, C^0.49, C^0.46), so a few percent either side says neither over nor under.
 */
const AT_OPTIMAL = 0.05;

/** "26 a parameter, 1.3× the 20: past compute-optimal (over-trained)": a ratio against the compute-optimal one. */
function ratioWords(tokensPerParameter: number, optimal: number): string {
  const times = tokensPerParameter / optimal;
  const side = Math.abs(times - 1) <= AT_OPTIMAL ? 'about compute-optimal'
    : times > 1 ? 'past compute-optimal (over-trained)' : 'short of compute-optimal (under-trained)';
  return `${ratioText(tokensPerParameter)} a parameter, ${ratioText(times)}× the ${optimal}: ${side}`;
}

/**
 * One preset's row: the tokens `bought` (its tokens-bought answer on the same budget and nodes) and their ratio; where no
 * plan buys any, what its answer says.
 */
export function presetRow(preset: ModelPreset, bought: Answer, optimal: number, ownCluster = false): string {
  const data = bought.data as NodesResponseJson | undefined;
  const name = preset.shape.name;
  if (!bought.ok || data === undefined || !data.ok) return `${name}: no plan on this budget (${bought.headline.replace(/^[^:]*:\s*/, '')})`;
  const where = ownCluster ? ` on its own ${data.nodes.toLocaleString('en-US')} nodes (it fits none on the same nodes)` : '';
  return `${name}: ${compactCount(data.tokens)} tokens${where} at ${formatPercent(data.configuration.estimate.mfu)} MFU, ${ratioWords(data.tokens / preset.publishedParameters, optimal)}`;
}

/** Whether a row's answer planned the preset (a tokens-bought answer with a plan). */
export const plannedRow = (bought: Answer): boolean => {
  const data = bought.data as NodesResponseJson | undefined;
  return bought.ok && data !== undefined && data.ok;
};

/** The question for a preset's row: the question's budget and cluster, the preset for the model. */
export const presetQuestion = (q: ParsedQuestion, preset: ModelPreset): ParsedQuestion['stated'] => {
  const { customModel: _custom, ...stated } = q.stated;
  return { ...stated, model: preset.id };
};
