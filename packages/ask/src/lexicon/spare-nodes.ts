import { DECIMAL } from './numbers.ts';
import { HW_TOKEN, type Scanner } from './quantities.ts';

/**
 * Nodes held back from training as spares, as a question states them: a share ("with 5% of GPUs reserved", "keep 10% spare
 * nodes", "5% headroom for failures") or a count of spares added to the cluster ("with 8 spare nodes", "keep 2 hot spares").
 * Large runs keep hot spares to swap in for a failed node and restart from the last checkpoint (Meta's Llama 3 405B run
 * lost 419 jobs to interruptions in 54 days: Dubey et al. 2024, arXiv:2407.21783, §3.3.4). A spare is hardware, not time:
 * it adds nodes and leaves the days as they are, where an uptime (uptime.ts: "at 95% uptime") adds days on the same nodes.
 * "Headroom for failures" is read as spares, hardware held above the need, and the answer says so beside the uptime to say
 * for the other reading (answer/spare-nodes.ts). QA: all four were answered 35 nodes, the reserve dropped ("5" said not
 * understood).
 *
 * A count of "spare" nodes is read as spares only with a word that adds it ("with", "plus", "keep", "add", "and"): a count
 * of nodes "reserved" is capacity booked to train on (a cloud reservation: "16 nodes reserved on AWS"), and "on our 8 spare
 * nodes", "we have 8 spare nodes", "using 16 reserved nodes" name the nodes that train, idle ones put to work. Those are the
 * cluster, read as "on 16 nodes" is (the adjective taken out, the count left to the cluster's patterns). QA: "can I train
 * llama3-8b on 2T tokens using 16 nodes reserved on AWS in 30 days" was answered 11 nodes plus 16 spare, 27 in all.
 * Nodes held back in words that say they do not train ("standby", "on standby", "in reserve", "hot spares", "as spares",
 * "held back", "… for failures") are spares whether a word adds them or not, as in a datacenter's hot standby; only a word
 * that puts them to work ("on 8 nodes in reserve") leaves them unread, spares or the cluster unsaid.
 * Read on the normalised text before the settings no plan models, which say a bare "failures" not read.
 */

/** A reserve stated: its words, and a share of the whole cluster in (0, 1) or a count of nodes or GPUs. */
export type SpareNodes = { written: string } & ({ share: number } | { count: number; unit: 'node' | 'gpu' });

/**
 * What a question says of spares or reserved nodes: the spares to add; a count that is the cluster ("16 nodes reserved"),
 * its words as written; or a count neither reading fits (held back, yet put to work: "on 8 nodes in reserve"), said not read.
 */
interface SpareRead {
  spare?: SpareNodes;
  cluster?: string;
  unread?: string;
}

/** What a reserve covers, after it: "for failures", "against node failures", "to cover outages". */
const FAILURES = String.raw`\s+(?:for|against|to\s+cover)\s+(?:node\s+|gpu\s+|hardware\s+)?(?:failures?|faults?|outages?|restarts?|interruptions?)`;
const FOR_FAILURES = `(?:${FAILURES})?`;
/** What a share or a count is of: the cluster's units. */
const UNITS = String.raw`(?:gpus?|nodes?|machines?|servers?|cluster|capacity)`;
/** A counted unit, group 2 of a count's patterns, after the GPU's name where one is written ("8 spare H100 nodes"). */
const UNIT = String.raw`(?:${HW_TOKEN}\s+)?(node|gpu|machine|server)s?\b`;
/** Held spare, after a share or its units: "reserved", "spare", "as spares", "in reserve", "held back". */
const HELD = String.raw`(?:reserved|spares?|as\s+(?:hot\s+)?spares?|in\s+reserve|held\s+(?:back|spare|in\s+reserve)|for\s+spares?)`;
/** A spare by name: "spare", "hot spare", "hot-spare". */
const SPARE = String.raw`(?:hot[\s-]*)?spare`;
/** A standby by name: "standby", "hot standby", "stand-by". */
const STANDBY = String.raw`(?:hot[\s-]*)?stand[\s-]*by`;
/**
 * Held back from the run, after a count's unit: "8 nodes in reserve", "8 nodes on standby", "8 nodes as spares", "8 nodes
 * held back", "16 nodes reserved for failures". Each says the nodes do not train, as "spare" alone does not ("our 8 spare
 * nodes" may be idle nodes to train on).
 */
const HELD_BACK = String.raw`(?:as\s+(?:${SPARE}|${STANDBY})s?\b|for\s+spares?\b|in\s+reserve\b|on\s+${STANDBY}\b|held\s+(?:back|spare|in\s+reserve)\b|reserved${FAILURES})`;
/** The words that add a count to the cluster, right before it: "with 8 spare nodes", "keep 2 hot spares", "plus 4 spare gpus", "+ 4". */
const ADDED = String.raw`(?<=(?:\b(?:with|plus|keep(?:ing)?|add(?:ing)?|and)|\+)\s+)`;
/**
 * Not after a word that puts the count to work: "on 8 nodes in reserve", "using our 8 standby nodes" say the held nodes
 * train, which contradicts their being held, so they are said not read (UNREAD), never made spares.
 */
const NOT_AT_WORK = String.raw`(?<![\w.])(?<!\b(?:on|onto|using|use|across|over)\s+(?:(?:our|my|the|their|its|these|those|all)\s+)?)`;

/** Shares, group 1 the percentage: "5% of gpus reserved", "10% spare nodes", "reserve 5% of the nodes", "5% headroom for failures". */
const SHARES = [
  new RegExp(String.raw`(?<![\w.])(${DECIMAL})\s*%\s*(?:of\s+(?:the\s+)?${UNITS}\s+)?${HELD}(?:\s+${UNITS})?${FOR_FAILURES}`),
  new RegExp(String.raw`\b(?:reserve|reserving|set(?:ting)?\s+aside|hold(?:ing)?\s+back)\s+(${DECIMAL})\s*%\s*(?:of\s+(?:the\s+)?)?${UNITS}${FOR_FAILURES}`),
  new RegExp(String.raw`(?<![\w.])(${DECIMAL})\s*%\s*(?:spare\s+)?(?:headroom|buffer|slack|over[\s-]*provisioning)${FOR_FAILURES}`),
];
/**
 * Counts of spares, group 1 the count and 2 the unit: spare nodes a word adds ("with 8 spare nodes", "plus 4 spare gpus"),
 * and nodes held back, added by a word or not ("with 8 standby nodes", "8 nodes in reserve", "keep 8 nodes on standby",
 * "plus 8 hot spares", "8 spare nodes for failures"). QA: "with 8 standby nodes" and "8 nodes in reserve" were said not read,
 * and "keep 8 nodes on standby" planned as a cluster of 8 nodes.
 */
const COUNTS = [
  new RegExp(String.raw`${ADDED}(\d+)\s+(?:extra\s+)?${SPARE}\s+${UNIT}${FOR_FAILURES}`),
  new RegExp(String.raw`${NOT_AT_WORK}(\d+)\s+(?:extra\s+)?${STANDBY}\s+${UNIT}${FOR_FAILURES}`),
  new RegExp(String.raw`${NOT_AT_WORK}(\d+)\s+${UNIT}\s+${HELD_BACK}${FOR_FAILURES}`),
  new RegExp(String.raw`${NOT_AT_WORK}(\d+)\s+()(?:${SPARE}|${STANDBY})s\b${FOR_FAILURES}`),
  new RegExp(String.raw`${NOT_AT_WORK}(\d+)\s+(?:${SPARE}|reserved)\s+${UNIT}${FAILURES}`),
];
/**
 * Counts that are the cluster, group 1 the word taken out: "8 spare nodes" and "16 reserved nodes" with no word adding them
 * ("on our 8 spare nodes"), "16 nodes reserved" (capacity booked). Not before "for failures", which says what spares are for.
 */
const CLUSTER = [
  new RegExp(String.raw`(?<![\w.])\d+\s+(${SPARE}|reserved)\s+(?:${HW_TOKEN}\s+)?(?:node|gpu|machine|server)s?\b(?!${FAILURES})`, 'd'),
  new RegExp(String.raw`(?<![\w.])\d+\s+(?:${HW_TOKEN}\s+)?(?:node|gpu|machine|server)s?\s+(reserved)\b(?!${FAILURES})`, 'd'),
];
/**
 * Counts held back that neither reading fits, so said not read: nodes held back that a word puts to work ("on 8 nodes in
 * reserve", "using our 8 standby nodes", "on 8 hot spares"): spares, or the cluster kept for the run?
 */
const UNREAD = [
  new RegExp(String.raw`(?<![\w.])\d+\s+(?:${SPARE}|${STANDBY})s\b${FOR_FAILURES}`),
  new RegExp(String.raw`(?<![\w.])\d+\s+${UNIT}\s+${HELD_BACK}${FOR_FAILURES}`),
  new RegExp(String.raw`(?<![\w.])\d+\s+(?:(?:${SPARE}|reserved)\s+${UNIT}${FAILURES}|${STANDBY}\s+${UNIT}${FOR_FAILURES})`),
];

/**
 * A phrase's words as the question holds them, less the GPU's marker the hardware reader left ("8 spare HW nodes" → "8 spare
 * nodes"), so that the answer's quote of it reads as words.
 */
const wordsOf = (m: RegExpExecArray): string => m[0].replace(new RegExp(String.raw`\s*\b${HW_TOKEN}\b\s*`), ' ').trim();

/** The spares a pattern finds in `text`, as `find` (a Scanner's take, or a plain exec) returns it. */
function spareOf(find: (pattern: RegExp) => RegExpExecArray | undefined): SpareNodes | undefined {
  for (const pattern of SHARES) {
    const m = find(pattern);
    if (m !== undefined) return { written: m[0].trim(), share: Number(m[1]) / 100 };
  }
  for (const pattern of COUNTS) {
    const m = find(pattern);
    if (m !== undefined) return { written: wordsOf(m), count: Number(m[1]), unit: m[2] === 'gpu' ? 'gpu' : 'node' };
  }
  return undefined;
}

/**
 * Reads (and blanks) the spares a question states; a count that is the cluster has only its word of spare or reserve taken
 * out ("16 nodes reserved" → "16 nodes"), for the cluster's patterns to read; one neither reading fits is blanked, to be said.
 */
export function takeSpareNodes(s: Scanner): SpareRead {
  const spare = spareOf((p) => s.take(p));
  if (spare !== undefined) return { spare };
  for (const pattern of CLUSTER) {
    const m = pattern.exec(s.text);
    const word = m?.indices?.[1];
    if (m === null || word === undefined) continue;
    s.blank({ index: word[0], length: word[1] - word[0] });
    return { cluster: wordsOf(m) };
  }
  for (const pattern of UNREAD) {
    const m = s.take(pattern);
    if (m !== undefined) return { unread: wordsOf(m) };
  }
  return {};
}

/** How a count of spare or reserved nodes read as the cluster is said, with the words that would add it as spares. */
export const spareClusterReading = (typed: string, cluster: string): string =>
  `"${typed}" read as the cluster that trains, ${cluster}: nodes reserved or spare, put to work; for spares held beside the nodes a plan sizes, say e.g. "with 8 spare nodes"`;

/** Why a count held back is not read where neither spares nor the cluster fit it. */
export const SPARE_COUNT_UNREAD = 'not read as spares or as the cluster: nodes held back ("in reserve", "on standby", "hot spares") are spares, '
  + 'but "on" or "using" before them puts them to work; say "with 8 spare nodes" for spares, or "on 8 nodes" for the cluster that trains';

/** Why a share of 100% or more cannot be held spare; undefined for one that can. */
export const spareProblem = (spare: SpareNodes, typed: string): string | undefined =>
  ('share' in spare && !(spare.share > 0 && spare.share < 1)
    ? `"${typed}": a share held spare is above 0% and under 100% of the cluster (the rest trains)` : undefined);

/** Why a reserve is said not read where the answer sizes no cluster (a time, a memory or a configuration on nodes named or defaulted). */
export const SPARE_NOT_PLANNED = 'spare nodes are added to how-many-nodes and cheapest answers, which size the cluster; '
  + 'this answer plans the cluster named (or a default one) all training: name the nodes that train, or ask "how many nodes …" to have the spares added';
