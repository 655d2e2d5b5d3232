import type { AskParameters } from '../question.ts';
import { CLUSTER_NUMBER, LONE_NUMBER_WORD, NUMBER_WORDS, writtenCount } from './numbers.ts';
import { HW_TOKEN, type Scanner } from './scanner.ts';

/** Nouns that count machines ("16 nodes", "2 DGX boxes"). */
// A bare "DGX" is one node ("16 DGX" = 16 nodes of the GPU named, DGX H100 when none is); "DGX H100" is a system (hardware.ts).
const NODE_NOUN = String.raw`(?:nodes?|machines?|servers?|boxes|hosts?|trays?|systems?|dgx(?:e?s)?)`;
/** Nouns for a group of GPUs, not one: "an H100 cluster" is no count of one. */
const GROUP_NOUN = String.raw`(?:clusters?|pods?|superpods?|racks?|fleets?|farms?|partitions?|generation|family|series)`;

/**
 * Spelled-out counts before a GPU or node noun become digits: "one node", "a single H100", "two DGX H100",
 * "a GPU", "an H100" (never "an H100 cluster"), so the count patterns below read them.
 */
function spelledCounts(s: Scanner, notBeforeHardware: boolean): void {
  const hardware = notBeforeHardware ? '' : String.raw`|${HW_TOKEN}\b(?!\s*${GROUP_NOUN}\b)`;
  // "one 8xH100 node", "two 8x A100 nodes": a count of nodes before the GPUs each holds (QA: "one" was left a word, and 128
  // nodes planned as "no cluster size given").
  const perNodeX = String.raw`|\d+x\s*(?:${HW_TOKEN}\s*)?(?:gpus?\s*)?${NODE_NOUN}\b`;
  const noun = String.raw`(?=\s*(?:(?:${HW_TOKEN}\s*)?(?:gpus?|${NODE_NOUN})\b${hardware}${perNodeX}))`;
  s.text = s.text.replace(new RegExp(String.raw`\b(?:(a\s+single|single|an?)|(${LONE_NUMBER_WORD}))\b${noun}`, 'g'), (_m, single: string | undefined, word: string | undefined) =>
    String(single !== undefined ? 1 : NUMBER_WORDS[word ?? ''] ?? 1));
}

/** What a count beside the hardware name counts, by what the name is (parse.ts reads it from the hardware matched). */
export interface CountContext {
  /** The name is a node type ("DGX A100"): a bare count before it is nodes ("280 DGX A100"), not GPUs. */
  nodeNamed: boolean;
  /**
   * The name is a rack-scale system (GB200 NVL72): `gpus` in one rack (one NVLink domain), and `named` when the
   * rack's own name was used ("GB200 NVL72", so "8 GB200 NVL72" counts racks; "72 GB200" counts GPUs).
   */
  rack?: { gpus: number; named: boolean };
  /** GPUs in one node of the hardware named, for "half a DGX H100" (half of them); undefined when no hardware is named. */
  nodeGpus?: number;
}

/** The counts read, and whether one was written in thousands ("16k H100s"), whose reading the answer says. */
export interface CountsRead {
  counts: Pick<AskParameters, 'nodes' | 'gpus' | 'gpusPerNode'>;
  kilo: boolean;
  /** Racks of a rack-scale system as written ("2 GB200 racks"): `counts.gpus` holds their GPUs, so a fraction shows only here. */
  racks?: number;
  /** How nodes are racked, as written ("2 nodes per rack"): no count of the cluster, and nothing the fabric presets model. */
  perRack?: string;
  /** "2x H100 nodes" read as 2 nodes of the GPU's usual node, as written (HW_TOKEN for the GPU), for parse.ts to say. */
  timesNodes?: { written: string; nodes: number };
  /** "8x H100 nodes", "8-gpu nodes": GPUs a node with no count of nodes before, as written (HW_TOKEN for the GPU), for parse.ts to say. */
  perNodeOnly?: { written: string; gpusPerNode: number };
}

/**
 * Node and GPU counts around the hardware name: "128 nodes", "280 DGX A100", "64 H100 nodes",
 * "1,024 GPUs", "64 H100s", "nodes of 8 GPUs", "16 nodes of 8x A100", "16 8xH100 nodes", "one node",
 * "a single H100", "2 GB200 racks".
 */
export function takeCounts(s: Scanner, { nodeNamed, rack, nodeGpus }: CountContext): CountsRead {
  // A rack-scale system's preset node is one tray, which no bare count means: "8 GB200 NVL72" is never 8 trays.
  const systemNamed = nodeNamed && rack === undefined;
  let kilo = false;
  let rackCount: number | undefined;
  const out: Pick<AskParameters, 'nodes' | 'gpus' | 'gpusPerNode'> = {};
  // Never a number glued inside a word: "a3 nodes" (GCP's A3 family) is no 3 nodes, as "p4d" is no 4 days.
  const num = String.raw`(?<![a-z\d.])${CLUSTER_NUMBER}`;
  // "16k H100s" is 16,000 GPUs, k a thousand as the CLI reads it (numbers.ts COUNT_KILO); `kilo` lets parse.ts say so.
  // "1M H100s", "2 million nodes": a million, as "1,000,000 H100s" is (CLUSTER_NUMBER).
  const value = (whole: string, scale: string | undefined): number => {
    if (scale === 'k') kilo = true;
    return writtenCount(whole, scale);
  };
  // "a rack of GB200", "2 GB200 racks", "two racks of GB200": racks of rack.gpus GPUs (one NVLink domain each).
  if (rack !== undefined) {
    s.text = s.text.replace(new RegExp(String.raw`\b(?:(a\s+single|single|an?)|(${LONE_NUMBER_WORD}))\b(?=\s*(?:${HW_TOKEN}\s*)?racks?\b)`, 'g'),
      (_m, single: string | undefined, word: string | undefined) => String(single !== undefined ? 1 : NUMBER_WORDS[word ?? ''] ?? 1));
    const racks = s.take(new RegExp(String.raw`${num}\s*(?:x\s*)?(?:${HW_TOKEN}\s*)?racks?\b(?:\s+of\s+${HW_TOKEN}\b)?`));
    if (racks) {
      rackCount = value(racks[1] ?? '', racks[2]);
      out.gpus = rack.gpus * rackCount;
    }
  }
  // "2 nodes per rack", "4 servers in each rack": how the nodes are racked, never the cluster's size (QA: "512 H100 … with 2 nodes
  // per rack" was planned on 2 nodes). Taken out and said back: the fabric presets fix the topology.
  const perRack = s.take(new RegExp(String.raw`(?<![\d.])\d+(?:\.\d+)?\s*(?:${HW_TOKEN}\s*)?(?:nodes?|servers?|machines?|boxes|gpus?)\s+(?:per|a|each|in\s+(?:each|every|a)|/)\s*racks?\b`));
  // "8 GPUs per node", "8 H100 a node" (before spelled counts, so "a node" stays per node here).
  const perNode = s.take(new RegExp(String.raw`(?<![\d.])(\d+(?:\.\d+)?)\s*(?:x\s*)?(?:${HW_TOKEN}\s*)?(?:gpus?\s*)?(?:per|a|each|/)\s*(?:node|server|machine|box)\b`));
  if (perNode) out.gpusPerNode = Number(perNode[1]);
  // "half a DGX H100", "a quarter of a node": half (a quarter of) its GPUs (before spelled counts, which would read "a node" as one).
  const part = nodeGpus === undefined ? undefined : s.take(new RegExp(String.raw`\b(half|(?:an?\s+|one\s+)?quarter)\s+(?:of\s+)?an?\s+(?:${HW_TOKEN}\s*)?(?:${NODE_NOUN}|${HW_TOKEN})\b`));
  if (part !== undefined && nodeGpus !== undefined) out.gpus = Math.max(1, Math.round(nodeGpus / (part[1] === 'half' ? 2 : 4)));
  // "a GB200 NVL72" is a rack of 18 trays, never one tray (the preset's node): no spelled count for it.
  spelledCounts(s, rack !== undefined);
  // "16 nodes of 8x A100", "one node with 8 GPUs": the count before is nodes, the one after GPUs per node.
  const nodesOf = out.gpusPerNode === undefined
    ? s.take(new RegExp(String.raw`(?:${num}\s*)?${NODE_NOUN}\s+(?:of|with)\s+(\d+)(?:\s*x\b|(?![\w.]))\s*(?:${HW_TOKEN}\s*)?(?:gpus?)?`))
    : undefined;
  if (nodesOf) {
    out.gpusPerNode = Number(nodesOf[3]);
    if (nodesOf[1] !== undefined) out.nodes = value(nodesOf[1], nodesOf[2]);
  }
  // "16 8xH100 nodes", "8xA100 nodes": 8 GPUs per node; a count before is nodes. "8xH100" alone counts GPUs.
  const perNodeX = systemNamed || out.gpusPerNode !== undefined
    ? undefined
    // "2 x 8xH100 nodes" and "4 8-gpu H100 nodes" too: the count before, "x" or none, is nodes (QA: "2 x" and "4 8" were
    // left unread and 128 nodes planned as "no cluster size given").
    : s.take(new RegExp(String.raw`(?:${num}(?:\s*x)?\s+)?(\d+)(?:x\s*(?:${HW_TOKEN}\s*(?:gpus?\s*)?|gpus?\s*)|-gpus?\s*(?:${HW_TOKEN}\s*)?)(${NODE_NOUN})\b`));
  let timesNodes: CountsRead['timesNodes'];
  let perNodeOnly: CountsRead['perNodeOnly'];
  if (perNodeX) {
    const times = Number(perNodeX[3]);
    // "2x H100 nodes", no count before and a multiplier no node of the GPU holds: two nodes, each the GPU's usual node (QA:
    // read as nodes of 2 GPUs). "8xH100 nodes" (the node's own count) stays nodes of 8, and "a 4xA100 node" (one node)
    // nodes of 4, which parse.ts says no preset has; "4-gpu nodes" says its GPUs a node, never a count of nodes.
    const multiplier = !new RegExp(String.raw`${perNodeX[3]}-gpu`).test(perNodeX[0]);
    if (multiplier && perNodeX[1] === undefined && nodeGpus !== undefined && times !== nodeGpus && /s$/.test(perNodeX[4] ?? '')) {
      out.nodes = times;
      timesNodes = { written: perNodeX[0].trim(), nodes: times };
    } else {
      out.gpusPerNode = times;
      if (perNodeX[1] !== undefined) out.nodes = value(perNodeX[1], perNodeX[2]);
      else perNodeOnly = { written: perNodeX[0].trim(), gpusPerNode: times };
    }
  }
  // "16x8 H100", "16 x 8 GPUs": nodes × the GPUs in each, as a cluster is written (QA: "on 16x8 H100" was read as no cluster
  // at all, and 128 nodes planned as "no cluster size given"). A node holds 1, 2, 4, 8 or 16 GPUs (the presets' nodes).
  const grid = systemNamed || rack !== undefined || out.gpusPerNode !== undefined || out.nodes !== undefined || out.gpus !== undefined
    ? undefined
    : s.take(new RegExp(String.raw`${num}\s*x\s*(1|2|4|8|16)\s*(?:x\s*)?(?:${HW_TOKEN}\s*(?:gpus?)?|gpus?)(?![\w])`));
  if (grid) {
    out.nodes = value(grid[1] ?? '', grid[2]);
    out.gpusPerNode = Number(grid[3]);
  }
  const nodes = out.nodes === undefined ? s.take(new RegExp(String.raw`${num}\s*(?:x\s*)?(?:${HW_TOKEN}\s*)?${NODE_NOUN}\b`)) : undefined;
  if (nodes) out.nodes = value(nodes[1] ?? '', nodes[2]);
  // "64 H100", "8x H100"; else "H100 x 512", "H100 * 512" (the count after the name, as a bill of materials writes it).
  const next = out.gpus !== undefined ? undefined : s.take(new RegExp(String.raw`${num}\s*(?:x\s*)?(?:${HW_TOKEN}\s*(?:gpus?)?|gpus?)(?![\w])`))
    ?? (out.nodes === undefined ? s.take(new RegExp(String.raw`\b${HW_TOKEN}\s*(?:gpus?\s*)?[x*]\s*${CLUSTER_NUMBER}(?![\w.])`)) : undefined);
  if (next) {
    // "280 DGX A100" counts nodes; "64 H100" counts GPUs.
    if (systemNamed && !/gpu/.test(next[0]) && out.nodes === undefined) out.nodes = value(next[1] ?? '', next[2]);
    // "8 GB200 NVL72": racks, each one NVLink domain of rack.gpus (72) GPUs.
    else if (rack?.named === true && !/gpu/.test(next[0])) out.gpus = rack.gpus * value(next[1] ?? '', next[2]);
    else out.gpus = value(next[1] ?? '', next[2]);
  }
  return {
    counts: out, kilo, ...(rackCount !== undefined && { racks: rackCount }), ...(perRack !== undefined && { perRack: perRack[0].trim() }),
    ...(timesNodes !== undefined && { timesNodes }), ...(perNodeOnly !== undefined && { perNodeOnly }),
  };
}
