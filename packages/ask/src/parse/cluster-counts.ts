import { gpusPerNodeOf } from '../defaults.ts';
import { takeCorrectedSize, takeOtherSize } from '../lexicon/cluster-sizes.ts';
import { HW_TOKEN, takeCounts } from '../lexicon/quantities.ts';
import { asTyped } from './as-typed.ts';
import { nodeHoursBudget, type BudgetRead } from './budget-read.ts';
import type { HardwareNamed } from './hardware-named.ts';
import { readComparedSizes } from './sizes-compared.ts';
import type { ParseState } from './state.ts';

/** "from 64 to 512 nodes", "from 128 to 1024 H100": a scaling range, two cluster sizes or more. */
const CLUSTER_RANGE = new RegExp(`\\bfrom\\s+(\\d+k?)\\s+(?:to|-)\\s+(\\d+k?)\\s+(${HW_TOKEN}|nodes?|gpus?)\\b`);

/** Why a scaling range is refused: one cluster size a question, each size asked apart or scaled by the CLI. */
function rangeProblem(a: string, b: string, unit: string): string {
  const what = /^node/.test(unit) ? 'nodes' : 'GPUs';
  return `${a} and ${b} ${what} are two cluster sizes and I plan one per question: ask "how long …" on each, or run \`trainplan scale\` with the sizes (e.g. --nodes 64,128,256,512) for the step time, MFU and scaling efficiency of each`;
}

/** The cluster size written: the counts, a correction, GPU instances, a number left beside the GPU's name. */
export type ClusterCounts = ReturnType<typeof readClusterCounts>;

/**
 * The cluster's size, read after every phrase whose number is no count (prices, budgets, lengths, layouts): the counts
 * stated, the sizes compared with them, a budget in node-hours made GPU-hours of the node now known.
 */
export function readClusterCounts(st: ParseState, { instance, hardware, rack }: HardwareNamed, { nodeHours }: BudgetRead) {
  const { s, text, stated, problems, notRead } = st;
  // "512 H100, no wait, 1024 H100": the last size taken. "is 512 or 1024 H100 cheaper": two cluster sizes compared, of which
  // takeCounts would keep one and drop the other unsaid.
  const corrected = takeCorrectedSize(s);
  const otherSizes = takeOtherSize(s);
  const range = CLUSTER_RANGE.exec(s.text);
  if (range !== null) problems.push(rangeProblem(range[1] ?? '', range[2] ?? '', range[3] ?? ''));
  // "16 H100 instances": an instance of a GPU alone says not how many GPUs it holds; read as one each, said so.
  const gpuInstances = instance === undefined && hardware !== undefined && hardware.system === undefined
    ? new RegExp(String.raw`(?<![\w.])(\d+)\s*${HW_TOKEN}\s*(?:gpu\s*)?(?:instances?|vms?)\b`).exec(s.text) ?? undefined
    : undefined;
  const counts = takeCounts(s, {
    nodeNamed: hardware?.system !== undefined || instance !== undefined, ...(rack !== undefined && { rack }),
    ...(hardware !== undefined && { nodeGpus: gpusPerNodeOf(stated) }),
  });
  Object.assign(stated, counts.counts);
  const nodeHoursRead = nodeHours === undefined ? undefined : nodeHoursBudget(nodeHours, stated, (phrase) => asTyped(text, phrase));
  if (nodeHoursRead !== undefined && 'notRead' in nodeHoursRead) notRead.push(nodeHoursRead.notRead);
  else if (nodeHoursRead !== undefined) stated.gpuHours = nodeHoursRead.gpuHours;
  readComparedSizes(st, otherSizes, counts);
  // A number left beside the GPU's name ("512 のH100" in a script no counter reads): never "no cluster size given" unsaid.
  const besideGpu = hardware === undefined || Object.keys(counts.counts).length > 0 ? undefined
    : new RegExp(String.raw`(?<![\w.])(\d+(?:\.\d+)?k?)\s*[^\w\s]{0,3}\s*${HW_TOKEN}\b|\b${HW_TOKEN}\s*[^\w\s]{0,3}\s*(\d+(?:\.\d+)?k?)(?![\w.])`).exec(s.text) ?? undefined;
  // "1.5 GB200 racks" is 108 GPUs, a whole count: the fraction shows only in the racks written (whole-counts.ts).
  if (counts.racks !== undefined) stated.racks = counts.racks;
  if (counts.perRack !== undefined) {
    notRead.push({ phrase: `"${asTyped(text, counts.perRack)}"`, why: 'not modelled: how nodes are racked; the network preset fixes the topology (a fat tree of the nodes asked)' });
  }
  return { corrected, gpuInstances, counts, nodeHoursRead, besideGpu };
}

/** A rack named alone, once the counts and prices are read: its GPUs the cluster. */
export function readOneRack(st: ParseState, { rack }: HardwareNamed): void {
  const { normal, stated } = st;
  // "a GB200 NVL72", "one NVL72 rack": one rack, 72 GPUs.
  if (rack?.named === true && stated.gpus === undefined && stated.nodes === undefined && /\b(?:a|one|single)\s+(?:dgx[\s-]*)?(?:gb200[\s-]*)?nvl/.test(normal)) stated.gpus = rack.gpus;
}
