import { countOf, formatPercent, formatShare } from '@trainplan/units';
import type { SpareNodes } from '../lexicon/spare-nodes.ts';
import { asTyped } from '../parse/as-typed.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';

/**
 * A how-many-nodes (or cheapest) answer with the spare nodes asked added (lexicon/spare-nodes.ts): the search sizes the
 * nodes that train; the spares are held beside them, so the cluster to get is those plus the spares. A share r of the
 * whole held spare: ⌈N / (1 − r)⌉ nodes, the fewest of which a share r or more stays spare when N train; a count: N + n,
 * spare GPUs rounded up to whole nodes (a node is what is swapped). The days are those of the N that train (spares take
 * no step), and the GPU-hours and cost theirs too: spares held for the whole run add theirs, said.
 */

/** The training run's size as the nodes search answered it: its nodes and GPUs, where it sized whole nodes. */
interface Sized { nodes: number; gpus: number }

const sizedOf = (data: unknown): Sized | undefined => {
  const d = data as { ok?: unknown; nodes?: unknown; gpus?: unknown } | undefined;
  return d?.ok === true && typeof d.nodes === 'number' && typeof d.gpus === 'number' && d.nodes > 0 ? { nodes: d.nodes, gpus: d.gpus } : undefined;
};

/**
 * ⌈nodes / (1 − share)⌉, the quotient cut to 12 significant digits first: 19 / 0.95 is 20.000000000000004 in binary
 * floating point, and its ceiling 21 would hold a node more than 5% asks.
 */
export const nodesWithShareSpare = (nodes: number, share: number): number => Math.ceil(Number((nodes / (1 - share)).toPrecision(12)));

/** The nodes to get and the arithmetic that gives them, in words: "⌈35 / (1 − 5%)⌉ = 37". */
export function withSpares(nodes: number, gpusPerNode: number, spare: SpareNodes): { total: number; arithmetic: string } {
  if ('share' in spare) {
    const total = nodesWithShareSpare(nodes, spare.share);
    return { total, arithmetic: `⌈${nodes} / (1 − ${formatShare(spare.share)})⌉ = ${total}` };
  }
  if (spare.unit === 'node') return { total: nodes + spare.count, arithmetic: `${nodes} + ${spare.count} = ${nodes + spare.count}` };
  const spareNodes = Math.ceil(spare.count / gpusPerNode);
  return { total: nodes + spareNodes, arithmetic: `${nodes} + ⌈${spare.count} GPUs / ${gpusPerNode} a node⌉ = ${nodes + spareNodes}` };
}


/** "Headroom" read as spares, with the uptime to say for the other reading (time lost on the same nodes). */
const headroomReading = (spare: SpareNodes, typed: string): string =>
  (/headroom|buffer|slack|over[\s-]*provisioning/.test(spare.written) && 'share' in spare
    ? ` "${typed}" read as nodes held spare, to swap in for failed ones; for time lost to failures on the same nodes instead, say "at ${formatShare(1 - spare.share)} uptime", which adds days, not nodes.`
    : '');

/** The answer with the spares added to its headline, figures and notes; unchanged where none were asked or no size was answered. */
export function withSpareNodes(q: ParsedQuestion, a: Answer): Answer {
  // The spares parse read (lexicon/spare-nodes.ts takeSpareNodes), with the question's own words for them.
  const spare = q.spareNodes;
  if (spare === undefined || a.kind === 'help' || a.kind === 'refusal') return a;
  const typed = asTyped(q.text, spare.written);
  const sized = sizedOf(a.data);
  if (!a.ok || sized === undefined) {
    return { ...a, notes: [...a.notes, `Spare nodes ("${typed}") not added: no cluster size meets the goal to add them to.`] };
  }
  const perNode = sized.gpus / sized.nodes;
  const { total, arithmetic } = withSpares(sized.nodes, perNode, spare);
  const spares = total - sized.nodes;
  const cluster = `${countOf(total, 'node')} (${countOf(total * perNode, 'GPU')})`;
  return {
    ...a,
    headline: `${a.headline}; with "${typed}", get ${cluster}: ${arithmetic}, ${spares} of them spare`,
    figures: [...a.figures, { label: 'Nodes with spares', value: `${cluster}: ${arithmetic}, ${countOf(sized.nodes, 'node')} training and ${countOf(spares, 'spare')}` }],
    notes: [
      `Spares take no step: the days, GPU-hours and cost are the ${countOf(sized.nodes, 'training node')}'; the ${countOf(spares, 'spare node')}, held for the whole run, add ${spares}/${sized.nodes} (${formatPercent(spares / sized.nodes)}) more where paid for.${headroomReading(spare, typed)}`,
      ...a.notes,
    ],
  };
}
