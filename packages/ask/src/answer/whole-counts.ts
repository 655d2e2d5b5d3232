import { MAX_CLUSTER_NODES, MAX_COLLECTIVE_NODES, MAX_GPUS_PER_NODE, mostClusterGpus } from '@trainplan/protocol';
import { countOf } from '@trainplan/units';
import { gpusPerNodeOf } from '../cluster-of.ts';
import type { AskParameters, IntentName } from '../question.ts';
import { askedWords, fieldWords, issuesWords } from './issue-words.ts';

/**
 * Counts a question states that must be whole and at least 1: parallel degrees, batches, GPUs, nodes and a serving
 * replica's concurrent requests. The protocol refuses a 0 in a field it is sent ("tp 0"), in its words
 * (issue-words.ts); these are the checks ask makes itself, in the same words: a fraction ("global batch 1.5", "on
 * 1.5 nodes"), which a plan would otherwise round, cut or divide unsaid, a 0 in a field the plan never sends
 * (a search sizes data parallelism itself, so "dp 0" would be dropped; a cluster's price sends nothing), and a
 * cluster past the protocol's caps, which the bot would otherwise divide into nodes and batches before sending.
 */

export type CountField = 'tensor' | 'pipeline' | 'context' | 'data' | 'virtualStages' | 'microBatchSize' | 'globalBatchSize' | 'nodes' | 'gpus' | 'gpusPerNode' | 'racks' | 'concurrency';

/** Each count's wire path, whose words issue-words.ts keeps: "parallelism.data" is "DP (data parallelism)". */
const PATHS: Readonly<Record<CountField, string>> = {
  tensor: 'parallelism.tensor',
  pipeline: 'parallelism.pipeline',
  context: 'parallelism.context',
  data: 'parallelism.data',
  virtualStages: 'parallelism.virtualStages',
  microBatchSize: 'training.microBatchSize',
  globalBatchSize: 'training.globalBatchSize',
  nodes: 'cluster.nodes',
  gpus: 'cluster.gpus',
  gpusPerNode: 'cluster.gpusPerNode',
  // "1.5 GB200 racks" are 108 GPUs, a whole count: the fraction shows only in the racks written.
  racks: 'racks',
  concurrency: 'batches',
};

/** In a serving question a batch is the requests a replica decodes together (defaults.ts), and is said as they are. */
const pathOf = (field: CountField, intent: IntentName): string => (intent === 'serving' && field === 'globalBatchSize' ? PATHS.concurrency : PATHS[field]);

const asked = (x: number): string => x.toLocaleString('en-US', { maximumFractionDigits: 20 });

/** "a global batch must be a whole number of sequences (1.5 asked)", "DP (data parallelism) must be a whole number (2.5 asked)". */
function fractionWords(path: string, value: number): string {
  const words = fieldWords(path);
  // Each noun's plural takes an s, as units' countOf writes it ("2 sequences").
  const of = words?.noun === undefined ? '' : ` of ${words.noun}s`;
  return `${words?.name ?? path} must be a whole number${of} (${asked(value)} asked)`;
}

/** The counts the question states with a fraction, in words, in the order of CountField; empty when none has one. */
function fractionProblems(stated: AskParameters, intent: IntentName): string[] {
  return (Object.keys(PATHS) as CountField[]).flatMap((field) => {
    const value = stated[field];
    return value === undefined || !Number.isFinite(value) || Number.isInteger(value) ? [] : [fractionWords(pathOf(field, intent), value)];
  });
}

/**
 * The cluster's nodes and GPUs stated past the protocol's caps (cluster-caps.ts: 1,000,000 nodes, and GPUs to
 * 1,000,000 nodes of the machine's size up to 10,000,000; a collective's 65,536 nodes, collective-schema.ts), in the words
 * the CLI says them ("at most 8,000,000 GPUs, 1,000,000 nodes of 8"). QA: 400 nines of H100s were answered "Infinity GPUs do
 * not fill whole nodes … ask for ∞", and 1e20 with a global batch derived from them. A serving question's GPUs are the
 * inference request's, whose cap its refusal says (issue-words.ts).
 */
function pastCapProblems(stated: AskParameters, intent: IntentName): string[] {
  if (intent === 'serving') return [];
  const { nodes, gpus } = stated;
  const out: string[] = [];
  // GPUs per node past their own cap, or below 1, are the protocol's to refuse (issue-words.ts): the GPUs' cap is taken at
  // the most, and not said of none ("nodes of 0 gpus").
  const perNode = Math.min(gpusPerNodeOf(stated), MAX_GPUS_PER_NODE);
  const mostNodes = intent === 'collective' ? MAX_COLLECTIVE_NODES : MAX_CLUSTER_NODES;
  // A collective's GPUs are its nodes' alone; a plan's are the protocol's cluster cap (cluster-caps.ts mostClusterGpus).
  const mostGpus = intent === 'collective' ? mostNodes * perNode : mostClusterGpus(perNode);
  if (nodes !== undefined && !(nodes <= mostNodes)) out.push(`${fieldWords('cluster.nodes')?.name} must be at most ${countOf(mostNodes, 'node')} (${askedWords(nodes)})`);
  if (gpus !== undefined && perNode >= 1 && !(gpus <= mostGpus)) {
    const most = mostGpus < mostNodes * perNode ? countOf(mostGpus, 'GPU') : `${countOf(mostGpus, 'GPU')}, ${countOf(mostNodes, 'node')} of ${perNode}`;
    out.push(`${fieldWords('cluster.gpus')?.name} must be at most ${most} (${askedWords(gpus)})`);
  }
  return out;
}

/**
 * The counts the question states that no plan may take as asked: fractions, then counts past the cluster's caps, in words;
 * empty when there are none. Checked before any plan, as a refusal of the question.
 */
export const countProblems = (stated: AskParameters, intent: IntentName): string[] => [...fractionProblems(stated, intent), ...pastCapProblems(stated, intent)];

/** A count stated below 1 in words, as the protocol's refusal of it reads ("DP (data parallelism) must be at least 1"); undefined when it is not. */
export function belowOneProblem(field: CountField, value: number | undefined): string | undefined {
  if (value === undefined || value >= 1) return undefined;
  return issuesWords([{ path: PATHS[field], message: `expected an integer ≥ 1, got ${asked(value)}` }])[0];
}

/**
 * GPUs past one node that do not fill whole nodes ("on 1.5k H100": 1,500 on nodes of 8), refused with the nearest whole-node
 * counts either side, as the protocol's configuration search refuses them ("best config … on 1500 h100": resolve.ts
 * partNodesIssue, its cluster.gpus said as a count of nodes by plain-words.ts), so that "how long … on 1.5k h100" and
 * "best config … on 1.5k h100" say the same (QA: the first gave no count to ask for). Fewer = ⌊gpus / perNode⌋ nodes, more
 * one node past it: 1,500 on 8 → 1,496 (187 nodes) or 1,504 (188 nodes). Not rounded to plan it: the count is the asker's.
 */
export function partNodesProblem(gpus: number, perNode: number): string {
  const fewer = Math.floor(gpus / perNode);
  const whole = (n: number): string => `${(n * perNode).toLocaleString('en-US')} (${countOf(n, 'node')})`;
  const options = [...(fewer > 0 ? [whole(fewer)] : []), whole(fewer + 1)];
  return `${countOf(gpus, 'GPU')} do not fill whole nodes of ${perNode} GPUs: ask for ${options.join(' or ')}, or give a count of nodes ("on ${countOf(fewer + 1, 'node')}")`;
}
