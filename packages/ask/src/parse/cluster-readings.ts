import { defaultSystemForGpu, gpuById, systemById } from '@trainplan/presets';
import { countOf } from '@trainplan/units';
import { DEFAULT_GPU } from '../defaults.ts';
import { priceText } from '../lexicon/price.ts';
import { HW_TOKEN, type CountsRead } from '../lexicon/quantities.ts';
import { COUNT_KILO } from '../lexicon/numbers.ts';
import { spareClusterReading } from '../lexicon/spare-nodes.ts';
import type { AskParameters, DefaultUsed } from '../question.ts';
import { resolveSharding } from '../sharding.ts';
import { asTyped } from './as-typed.ts';
import type { Plan, Reads } from './reads.ts';
import type { ParseState } from './state.ts';

/** A system's name without its parenthesis: "NVIDIA DGX A100 640GB", not "… (Selene)". */
const systemName = (name: string): string => name.replace(/\s*\(.*\)$/, '');

/**
 * How the nodes asked were read, where no preset says it: "2x H100 nodes" taken as two of the GPU's usual nodes, and nodes
 * of fewer GPUs than any preset's node of that GPU ("a 4xA100 node") planned as part of one (the protocol's fabric gives
 * such a node the system's NVLink and its NICs in proportion, packages/protocol fabric-cache.ts). QA: both were planned
 * with nothing said.
 */
function nodeReadings(text: string, facts: AskParameters, times: CountsRead['timesNodes']): DefaultUsed[] {
  const out: DefaultUsed[] = [];
  const system = systemById(facts.system ?? '') ?? defaultSystemForGpu(facts.gpu ?? DEFAULT_GPU);
  if (system === undefined) return out;
  const gpu = gpuById(system.gpu)?.name.replace(/^NVIDIA\s+/, '') ?? 'GPU';
  const node = `${systemName(system.name)}, the ${gpu}'s usual node`;
  if (times !== undefined && facts.nodes === times.nodes) {
    // As typed ("2x H100 nodes"), where the text holds it; else in the normalised words, the GPU's name for its marker.
    const typed = new RegExp(String.raw`(?<![\w.])${times.nodes}\s*[x×]\s*\S+(?:\s+gpus?)?\s+\w+`, 'i').exec(text)?.[0] ?? times.written.replace(HW_TOKEN, facts.gpu ?? 'GPU');
    out.push({
      field: 'nodes', value: times.nodes,
      text: `"${typed}" read as ${countOf(times.nodes, 'node')} of ${countOf(system.gpusPerNode, 'GPU')} (${node}); say "nodes of ${times.nodes} GPUs" for nodes that hold ${times.nodes}`,
    });
  }
  const perNode = facts.gpusPerNode;
  if (perNode !== undefined && Number.isInteger(perNode) && perNode >= 1 && perNode < system.gpusPerNode) {
    out.push({
      field: 'gpusPerNode', value: perNode,
      text: `nodes of ${countOf(perNode, 'GPU')}: no system preset has ${perNode} ${gpu} a node (${node}, has ${system.gpusPerNode}); each planned as ${countOf(perNode, 'GPU')} of one, on its NVLink, with its network links in proportion`,
    });
  }
  return out;
}

/**
 * How the question's words of the hardware, the cluster, the prices and the plan's settings were read: each GPU assumed,
 * GPU instances, the nodes, spares as the cluster, node-hours, prices, ZeRO, sharding, the network, the deadline, a
 * corrected size, a "k" count. Said after modelReadings, in this order.
 */
export function clusterReadings(st: ParseState, read: Reads, { facts, parameters }: Plan): DefaultUsed[] {
  const { text } = st;
  const { hardware: { hardware, compared }, settings: { spareRead, network }, memory: { zero }, deadline: { deadline } } = read;
  const { cluster: { gpuInstances, counts, nodeHoursRead, corrected }, prices: { priced, pricedEach } } = read;
  const readings: DefaultUsed[] = [];
  for (const named of compared ?? [hardware]) if (named?.assumed !== undefined) readings.push({ field: 'gpu', value: named.gpu, text: named.assumed });
  if (gpuInstances !== undefined && facts.gpus !== undefined) {
    const n = facts.gpus;
    readings.push({ field: 'gpus', value: n, text: `${n.toLocaleString('en-US')} ${gpuById(facts.gpu ?? '')?.name.replace(/^NVIDIA\s+/, '') ?? 'GPU'} instances read as ${n.toLocaleString('en-US')} GPUs, one an instance (say "${n} nodes", or name the instance type, e.g. p5.48xlarge, for ${n} instances of 8 GPUs)` });
  }
  readings.push(...nodeReadings(text, facts, counts.timesNodes));
  // "16 nodes reserved", "our 8 spare nodes" read as the cluster: said, with the words for spares added (lexicon/spare-nodes.ts).
  if (spareRead.cluster !== undefined && (facts.nodes !== undefined || facts.gpus !== undefined)) {
    const size = facts.nodes !== undefined ? countOf(facts.nodes, 'node') : countOf(facts.gpus ?? 0, 'GPU');
    readings.push({ field: facts.nodes !== undefined ? 'nodes' : 'gpus', value: facts.nodes ?? facts.gpus ?? 0, text: spareClusterReading(asTyped(text, spareRead.cluster), size) });
  }
  if (nodeHoursRead !== undefined && 'reading' in nodeHoursRead && facts.gpuHours === nodeHoursRead.gpuHours) readings.push({ field: 'gpuHours', value: nodeHoursRead.gpuHours, text: nodeHoursRead.reading });
  if (priced?.ok === true && priced.assumed !== undefined) readings.push({ field: 'pricePerGpuHour', value: priced.perGpuHour, text: priced.assumed });
  if (pricedEach !== undefined && priced?.ok === true && facts.comparedGpus !== undefined) {
    const named = [{ gpu: facts.gpu ?? DEFAULT_GPU, pricePerGpuHour: priced.perGpuHour }, ...facts.comparedGpus];
    const each = named.map((g) => `${gpuById(g.gpu)?.name.replace(/^NVIDIA\s+/, '') ?? g.gpu} at ${priceText(g.pricePerGpuHour ?? 0, priced.currency)}/GPU-hour`);
    readings.push({ field: 'pricePerGpuHour', value: priced.perGpuHour, text: `each GPU at the price written beside it: ${each.join(', ')}` });
  }
  if (zero?.assumed !== undefined) readings.push({ field: 'zeroStage', value: zero.stage, text: zero.assumed });
  const sharding = resolveSharding(parameters);
  if (sharding !== undefined) readings.push(sharding);
  if (network !== undefined && 'reading' in network) readings.push({ field: 'network', value: network.network, text: network.reading });
  if (deadline?.assumed !== undefined) readings.push({ field: 'deadlineSeconds', value: deadline.seconds, text: deadline.assumed });
  if (corrected !== undefined) {
    const size = facts.nodes !== undefined ? countOf(facts.nodes, 'node') : countOf(facts.gpus ?? 0, 'GPU');
    readings.push({ field: facts.nodes !== undefined ? 'nodes' : 'gpus', value: facts.nodes ?? facts.gpus ?? 0, text: `"${asTyped(text, corrected)}" read as a correction: the last cluster size said taken, ${size}` });
  }
  if (counts.kilo && (facts.gpus !== undefined || facts.nodes !== undefined)) {
    const count = facts.gpus ?? facts.nodes ?? 0;
    readings.push({ field: facts.gpus !== undefined ? 'gpus' : 'nodes', value: count, text: `k read as ${COUNT_KILO.toLocaleString('en-US')} in a cluster size (${count.toLocaleString('en-US')}), as the CLI reads --gpus 1k; write the digits for another count (Meta's Llama 3 paper counts "16K H100s" as 16,384)` });
  }
  return readings;
}
