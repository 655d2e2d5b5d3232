import type { NodesResponseJson } from '@trainplan/protocol';
import { countOf, toDays } from '@trainplan/units';
import { compactCount, formatDays, nodesGpus } from '../format.ts';
import type { ParsedQuestion } from '../question.ts';
import { refusalWords } from './issue-words.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

/** The cluster a question named, as it named it: "the 64 GPUs named (8 nodes)", "the 16 nodes named (128 GPUs)". */
function namedText(q: ParsedQuestion, size: { nodes: number; gpus: number } | undefined): string {
  const { nodes, gpus } = q.stated;
  if (size === undefined) return `the ${nodes !== undefined ? countOf(nodes, 'node') : countOf(gpus ?? 0, 'GPU')} named`;
  return nodes !== undefined
    ? `the ${countOf(size.nodes, 'node')} named (${countOf(size.gpus, 'GPU')})`
    : `the ${countOf(size.gpus, 'GPU')} named (${countOf(size.nodes, 'node')})`;
}

/**
 * "How many nodes to train 70b on 2T tokens in 30 days on 64 h100": a nodes question that names a cluster as well. Both are
 * answered, the named cluster first (its time, held to the deadline), then the fewest nodes that meet the deadline (`needed`,
 * whose figures the answer shows): "the 64 GPUs named (8 nodes) would take 372 days, not within the 30 days asked; the
 * deadline needs 112 nodes (896 GPUs), …". `onNamed`: the named cluster's own time (runNodes on its nodes). Undefined when
 * no cluster was named, or the answer is not the fewest nodes for a deadline.
 */
export function namedClusterReading(
  q: ParsedQuestion, needed: NodesOk, subject: string, onNamed: () => NodesResponseJson,
): { headline: string; note: string } | undefined {
  const p = q.parameters;
  if (q.intent !== 'nodes' || (q.stated.nodes === undefined && q.stated.gpus === undefined)) return undefined;
  if (needed.mode !== 'fewest-nodes' || p.deadlineSeconds === undefined) return undefined;
  const deadline = `the ${formatDays(toDays(p.deadlineSeconds))} ${q.stated.deadlineSeconds === undefined ? 'assumed' : 'asked'}`;
  const tokens = compactCount(needed.tokens);
  const fewest = `${nodesGpus(needed)}, in ${formatDays(needed.days)}`;
  const named = onNamed();
  const note = `The figures are for ${nodesGpus(needed)}, the fewest that meet the deadline`;
  if (!named.ok) {
    const cannot = named.reason === 'invalid' ? 'cannot be planned' : 'cannot train it';
    return { headline: `${subject}: ${namedText(q, undefined)} ${cannot} (${refusalWords(named)}); the deadline needs ${fewest}`, note: `${note}.` };
  }
  const cluster = namedText(q, named);
  const headline = named.days <= toDays(p.deadlineSeconds)
    ? `${subject}: ${cluster} train ${tokens} tokens in ${formatDays(named.days)}, within ${deadline}; ${named.nodes === needed.nodes ? 'no fewer nodes meet it' : `the fewest that meet it: ${fewest}`}`
    : `${subject}: ${cluster} would take ${formatDays(named.days)}, not within ${deadline}; the deadline needs ${nodesGpus(needed)}, which train ${tokens} tokens in ${formatDays(needed.days)}`;
  // "how long … on 64 H100" plans the named cluster alone, with its figures.
  return { headline, note: `${note}; ask "how long …" on ${q.stated.nodes !== undefined ? countOf(named.nodes, 'node') : countOf(named.gpus, 'GPU')} for the plan there.` };
}

/**
 * A nodes question naming a cluster whose goal no size meets ("… in 30 days on 1024 h100" for 405B): what the named cluster
 * does, as a note beside the refusal ("The 1,024 GPUs named (128 nodes) would take 390 days and 9.58M GPU-hours, not within
 * the 30 days asked."). Undefined when no cluster was named.
 */
export function namedClusterNote(q: ParsedQuestion, onNamed: () => NodesResponseJson): string | undefined {
  const p = q.parameters;
  if (q.intent !== 'nodes' || (q.stated.nodes === undefined && q.stated.gpus === undefined)) return undefined;
  const named = onNamed();
  const cluster = namedText(q, named.ok ? named : undefined);
  const capital = `${cluster.charAt(0).toUpperCase()}${cluster.slice(1)}`;
  if (!named.ok) return `${capital} ${named.reason === 'invalid' ? 'cannot be planned' : 'cannot train it'} either (${refusalWords(named)}).`;
  const verdict = p.deadlineSeconds === undefined ? ''
    : `, ${named.days <= toDays(p.deadlineSeconds) ? '' : 'not '}within the ${formatDays(toDays(p.deadlineSeconds))} ${q.stated.deadlineSeconds === undefined ? 'assumed' : 'asked'}`;
  return `${capital} would take ${formatDays(named.days)} and ${compactCount(named.gpuHours)} GPU-hours for the ${compactCount(named.tokens)} tokens${verdict}.`;
}
