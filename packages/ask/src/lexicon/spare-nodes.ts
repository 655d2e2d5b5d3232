import { DECIMAL } from './numbers.ts';
import type { Scanner } from './quantities.ts';

/**
 * Nodes held back from training as spares, as a question states them: a share ("with 5% of GPUs reserved", "keep 10% spare
 * nodes", "5% headroom for failures") or a count ("with 8 spare nodes", "8 hot spares"). Large runs keep hot spares to swap
 * in for a failed node and restart from the last checkpoint (Meta's Llama 3 405B run lost 419 jobs to interruptions in 54
 * days: Dubey et al. 2024, arXiv:2407.21783, §3.3.4). A spare is hardware, not time: it adds nodes and leaves the days as
 * they are, where an uptime (uptime.ts: "at 95% uptime") adds days on the same nodes. "Headroom for failures" is read as
 * spares, hardware held above the need, and the answer says so beside the uptime to say for the other reading
 * (answer/spare-nodes.ts). QA: all four were answered 35 nodes, the reserve dropped ("5" said not understood).
 * Read on the normalised text before the settings no plan models, which say a bare "failures" not read.
 */

/** A reserve stated: its words, and a share of the whole cluster in (0, 1) or a count of nodes or GPUs. */
export type SpareNodes = { written: string } & ({ share: number } | { count: number; unit: 'node' | 'gpu' });

/** What a reserve covers, after it: "for failures", "against node failures", "to cover outages". */
const FOR_FAILURES = String.raw`(?:\s+(?:for|against|to\s+cover)\s+(?:node\s+|gpu\s+|hardware\s+)?(?:failures?|faults?|outages?|restarts?|interruptions?))?`;
/** What a share or a count is of: the cluster's units. */
const UNITS = String.raw`(?:gpus?|nodes?|machines?|servers?|cluster|capacity)`;
/** Held spare, after the share or the units: "reserved", "spare", "as spares", "in reserve", "held back". */
const HELD = String.raw`(?:reserved|spares?|as\s+(?:hot\s+)?spares?|in\s+reserve|held\s+(?:back|spare|in\s+reserve)|for\s+spares?)`;

/** Shares, group 1 the percentage: "5% of gpus reserved", "10% spare nodes", "reserve 5% of the nodes", "5% headroom for failures". */
const SHARES = [
  new RegExp(String.raw`(?<![\w.])(${DECIMAL})\s*%\s*(?:of\s+(?:the\s+)?${UNITS}\s+)?${HELD}(?:\s+${UNITS})?${FOR_FAILURES}`),
  new RegExp(String.raw`\b(?:reserve|reserving|set(?:ting)?\s+aside|hold(?:ing)?\s+back)\s+(${DECIMAL})\s*%\s*(?:of\s+(?:the\s+)?)?${UNITS}${FOR_FAILURES}`),
  new RegExp(String.raw`(?<![\w.])(${DECIMAL})\s*%\s*(?:spare\s+)?(?:headroom|buffer|slack|over[\s-]*provisioning)${FOR_FAILURES}`),
];
/** Counts, group 1 the count and 2 the unit: "8 spare nodes", "2 reserved gpus", "8 nodes as spares", "8 hot spares". */
const COUNTS = [
  new RegExp(String.raw`(?<![\w.])(\d+)\s+(?:spare|reserve|reserved|standby|hot[\s-]*spare)\s+(node|gpu|machine|server)s?\b${FOR_FAILURES}`),
  new RegExp(String.raw`(?<![\w.])(\d+)\s+(node|gpu|machine|server)s?\s+${HELD}${FOR_FAILURES}`),
  new RegExp(String.raw`(?<![\w.])(\d+)\s+()(?:hot[\s-]*)?spares\b${FOR_FAILURES}`),
];

/** The first reserve a pattern finds in `text`, as `find` (a Scanner's take, or a plain exec) returns it. */
function spareOf(find: (pattern: RegExp) => RegExpExecArray | undefined): SpareNodes | undefined {
  for (const pattern of SHARES) {
    const m = find(pattern);
    if (m !== undefined) return { written: m[0].trim(), share: Number(m[1]) / 100 };
  }
  for (const pattern of COUNTS) {
    const m = find(pattern);
    if (m !== undefined) return { written: m[0].trim(), count: Number(m[1]), unit: m[2] === 'gpu' ? 'gpu' : 'node' };
  }
  return undefined;
}

/** Reads (and blanks) the reserve a question states; undefined where it states none. */
export const takeSpareNodes = (s: Scanner): SpareNodes | undefined => spareOf((p) => s.take(p));

/** The reserve a (normalised) question states, without taking it: what the answer applies (answer/spare-nodes.ts). */
export const spareNodesOf = (normal: string): SpareNodes | undefined => spareOf((p) => p.exec(normal) ?? undefined);

/** Why a share of 100% or more cannot be held spare; undefined for one that can. */
export const spareProblem = (spare: SpareNodes, typed: string): string | undefined =>
  ('share' in spare && !(spare.share > 0 && spare.share < 1)
    ? `"${typed}": a share held spare is above 0% and under 100% of the cluster (the rest trains)` : undefined);

/** Why a reserve is said not read where the answer sizes no cluster (a time, a memory or a configuration on nodes named or defaulted). */
export const SPARE_NOT_PLANNED = 'spare nodes are added to how-many-nodes and cheapest answers, which size the cluster; '
  + 'this answer plans the cluster named (or a default one) all training: name the nodes that train, or ask "how many nodes …" to have the spares added';
