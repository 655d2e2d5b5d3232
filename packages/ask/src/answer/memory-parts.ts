import { otherPartsLargestFirst, type EstimateOk, type MemoryJson } from '@trainplan/protocol';
import { formatBytes } from '@trainplan/units';
import type { IntentName } from '../question.ts';
import type { AnswerFigure } from './answer-types.ts';
import { estimateFigures } from './describe-estimate.ts';

/**
 * What fills a GPU in training, part by part, as the CLI's estimate report lists them: a memory question is answered
 * with the parts beside the total, so the asker sees what to shrink (sharded optimizer states, recomputed activations).
 */
const PARTS = [
  ['weightsBytes', 'weights'],
  ['gradientsBytes', 'gradients'],
  ['optimizerBytes', 'optimizer states'],
  ['activationsBytes', 'activations'],
] as const satisfies readonly (readonly [keyof MemoryJson, string])[];

/**
 * What "other" holds, in the same style: each part that holds any memory by its name (the protocol's, as the CLI's memory
 * report words them), largest first, so the asker reads what the rest is rather than one figure. An answer without the
 * parts (another API's, an older one) keeps "other".
 */
const otherText = (m: MemoryJson): string[] => (m.otherParts === undefined
  ? [`other ${formatBytes(m.otherBytes)}`]
  : otherPartsLargestFirst(m.otherParts).map((p) => `${p.name} ${formatBytes(p.bytes)}`));

/**
 * "weights 16.4 GiB · gradients 16.4 GiB · optimizer states 12.3 GiB · activations 27.5 GiB · allocator fragmentation 2.75 GiB ·
 * runtime reserve 1.50 GiB": one line, per GPU.
 */
export const memoryPartsText = (m: MemoryJson): string =>
  [...PARTS.map(([key, label]) => `${label} ${formatBytes(m[key])}`), ...otherText(m)].join(' · ');

/** The parts' figure, labelled for the plan they are of ("as asked" for a layout that does not fit). */
export const memoryPartsFigure = (m: MemoryJson, of = ''): AnswerFigure => ({ label: `Memory by part${of === '' ? '' : ` (${of})`}`, value: memoryPartsText(m) });

/** The figures with the parts after "Memory per GPU" (estimateFigures'), where the total is read; at the end if there is none. */
export function withMemoryParts(figures: readonly AnswerFigure[], m: MemoryJson): AnswerFigure[] {
  const at = figures.findIndex((f) => f.label === 'Memory per GPU');
  const parts = memoryPartsFigure(m);
  return at < 0 ? [...figures, parts] : [...figures.slice(0, at + 1), parts, ...figures.slice(at + 1)];
}

/** An estimate's figures as a question of `intent` reads them: a memory question's with the memory by part. */
export const figuresFor = (intent: IntentName, e: EstimateOk): AnswerFigure[] =>
  (intent === 'memory' ? withMemoryParts(estimateFigures(e), e.memory) : estimateFigures(e));
