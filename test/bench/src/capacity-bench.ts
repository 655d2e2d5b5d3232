import { deadlineBatchFor } from '@trainplan/ask';
import { runNodes, type NodesResponseJson } from '@trainplan/protocol';
import { timeRuns, type Timing as CallTiming } from './measure.ts';
import type { BenchSection } from './sections.ts';

/**
 * Capacity planning (`trainplan nodes`): each question searches many cluster sizes, each size a full configuration
 * search, so a call takes seconds where one search takes milliseconds. The rows are the README's and the bot's questions:
 * a deadline (the fewest nodes that meet it), a GPU-hour budget (the fastest plan it affords) and the time–cost curve
 * (`--frontier`, which "cheapest" questions run). One core, each question timed over a few runs after a cold one; the
 * per-size column divides the median by the sizes searched, which is what the work scales with.
 */
interface Question { name: string; request: Record<string, unknown>; options?: Parameters<typeof runNodes>[1] }

const GPT3_30_DAYS: Question = {
  name: 'GPT-3 175B, 300B tokens, 30 days on A100 80GB, batch 1,536 (--days)',
  request: { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, days: 30 },
};
const LLAMA70B_BUDGET: Question = {
  name: 'Llama 3 70B, 15T tokens, 5.7M H100-hours, batch 512 (--gpu-hours)',
  request: { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, training: { globalBatchSize: 512 }, tokens: 15e12, gpuHours: 5.7e6 },
};
const LLAMA8B_CURVE: Question = {
  name: 'Llama 3 8B, 2T tokens on H100, batch 512 (--frontier, the time–cost curve)',
  request: { model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, training: { globalBatchSize: 512 }, tokens: 2e12, frontier: true },
};
/**
 * The same curve with each size at its own batch, as `trainplan nodes --frontier` with no --global-batch and the bot's
 * "cheapest" questions plan it (@trainplan/ask deadlineBatchFor): the batch grows with the size, so more shapes divide it
 * and the curve runs further before its time stops falling.
 */
const LLAMA8B_CURVE_PER_SIZE: Question = {
  name: 'Llama 3 8B, 2T tokens on H100, each size at its own batch (--frontier with no --global-batch; the bot\'s "cheapest")',
  request: LLAMA8B_CURVE.request,
  options: { globalBatchFor: deadlineBatchFor({ model: 'llama3-8b', gpu: 'h100-sxm', tokens: 2e12 }) },
};

type Timing = CallTiming<NodesResponseJson>;

/** A cold run, then runs until `budgetSeconds` have passed, at least 3 (each takes seconds). */
const time = (q: Question, budgetSeconds: number): Timing => timeRuns(q.name, () => runNodes(q.request, q.options), budgetSeconds, 3);

const searchesOf = (a: NodesResponseJson): number => a.searches ?? 0;
const answerText = (a: NodesResponseJson): string => (a.ok ? `${a.nodes.toLocaleString('en-US')} nodes, ${a.days.toFixed(1)} days` : `no plan: ${a.reason}`);

export const capacitySection: BenchSection = {
  name: 'capacity',
  run(budgetSeconds) {
    const rows = [GPT3_30_DAYS, LLAMA70B_BUDGET, LLAMA8B_CURVE, LLAMA8B_CURVE_PER_SIZE].map((q) => time(q, budgetSeconds));
    const line = (r: Timing): string => {
      const sizes = searchesOf(r.result);
      return `| ${r.name} | ${answerText(r.result)} | ${sizes} | ${(r.coldMs / 1000).toFixed(2)} | ${(r.medianMs / 1000).toFixed(2)} | ${sizes > 0 ? (r.medianMs / sizes).toFixed(1) : ''} |`;
    };
    return {
      markdown: [
        '## Capacity planning speed',
        '',
        'One core; `runNodes` (`trainplan nodes`, JSON in to JSON out), the question\'s global batch held at every size but in',
        'the last row.',
        `Each question: a cold run, then runs for ${budgetSeconds} s (at least 3). Each cluster size searched is a full configuration`,
        'search (its best plan by branch and bound), so the time follows the sizes searched. No target is set: the figures are',
        'reported as measured.',
        '',
        '| question | answer | cluster sizes searched | cold s | median s | ms per size (median) |',
        '|---|---|---|---|---|---|',
        ...rows.map(line),
        '',
      ],
      summary: rows.map((r) => `${r.name}: ${answerText(r.result)}, ${searchesOf(r.result)} sizes, median ${(r.medianMs / 1000).toFixed(2)} s`),
    };
  },
};
