import {
  buildTopology, busBandwidthFactor, concurrentGroupGpus, DEFAULT_EVENT_BUDGET, describeTopology, emulateCollectives, summariseTopology, type LinkUsage, type TopologySummary,
} from '@trainplan/collectives';
import { formatSize, toGBps } from '@trainplan/units';
import type { CollectiveMachine } from './collective-machine.ts';
import type { CollectiveRowJson, LinkUtilisationJson } from './collective-response.ts';
import type { CollectiveRequest } from './collective-schema.ts';

const grouped = (n: number): string => n.toLocaleString('en-US');
const UNITS = 'budget units (events, flows in flight, flow–link visits)';

/**
 * A link's bytes to 12 significant digits: that drops the binary residue of summing fractional shares (QA: 3.4999999999999862
 * for a 1 B all-reduce) and nothing the emulator means. Not to whole bytes: the emulator splits a message in fluid shares,
 * and a 1 B all-reduce over 8 ranks puts 2 · 7/8 = 1.75 B on each ring link, which the link's utilisation counts.
 */
const linkBytes = (bytes: number): number => Number(bytes.toPrecision(12));

const linkJson = (l: LinkUsage): LinkUtilisationJson => ({
  link: l.name, kind: l.kind, utilisation: l.utilisation, bytes: linkBytes(l.bytes), bandwidthGBps: toGBps(l.bandwidthBytesPerSecond),
});

/**
 * Adds the emulator's answer to each closed-form row (mutating `rows`), on the machine's topology
 * graph. The request's event budget covers all sizes together; past it the answer is an error that
 * names the limit.
 */
export function emulateRows(request: CollectiveRequest, machine: CollectiveMachine, rows: CollectiveRowJson[]):
  | { ok: true; topology: string[]; topologyGraph: TopologySummary; notes: string[] }
  | { ok: false; message: string; limit: { name: string; value: number; requested: number; requestedIsLowerBound: true } } {
  const { fabric, group } = machine;
  const topologyNodes = group.ranks / group.ranksPerNode;
  const topology = buildTopology({ fabric, nodes: topologyNodes, oversubscription: request.oversubscription ?? 1 });
  // Described only for an answer: on 65,536 nodes (4 M links) describing takes seconds, and a refusal needs none of it.
  const gpusInUse = group.ranks * (group.concurrentGroupsPerNode ?? 1);
  const described = () => ({ topology: describeTopology(topology, { gpusInUse }), topologyGraph: summariseTopology(topology) });
  // The group and its concurrent siblings (concurrentGroups), on every node's GPUs in turn: they share the NICs.
  const groups = concurrentGroupGpus(group, fabric.gpusPerNode, 'strided');
  const budget = request.eventBudget ?? DEFAULT_EVENT_BUDGET;
  let used = 0;
  const notes: string[] = [];
  for (const row of rows) {
    const collectives = groups.map((gpus) => ({ op: request.op, bytes: row.bytes, gpus, algorithm: request.algorithm }));
    const result = emulateCollectives({ topology, collectives, eventBudget: budget - used, maxLinks: 8 });
    if (!result.ok) {
      if (result.reason === 'invalid') {
        notes.push(`not emulated: ${result.message}`);
        return { ok: true, ...described(), notes };
      }
      // The emulator knows a lower bound, never the whole need (emulateCollectives' `needed`): said as one, in
      // words and in the limit (QA 2026-11-29: "needs about 576" at a budget of 10, then 18,928 at 600, then 20,001 at
      // 20,000, for a run that spends over 30,000).
      const before = used > 0 ? ' (with the sizes before it)' : '';
      // Whole units, rounded up: the sizes before it spend fractions of a unit (flow–link visits count 1/VISITS_PER_EVENT
      // each), and a need "at least" 10,580,153.063 is met by no budget short of 10,580,154 (QA).
      const atLeast = Math.ceil(used + result.needed);
      return {
        ok: false,
        message: result.ran
          ? `emulating ${formatSize(row.bytes)}${before} ran past the event budget of ${grouped(budget)} ${UNITS} and was stopped `
            + `unfinished at ${grouped(atLeast)}: it needs more than that`
          : `emulating ${formatSize(row.bytes)}${before} needs at least ${grouped(atLeast)} ${UNITS}, counted before `
            + `running (the rest is known only by running it), over the event budget of ${grouped(budget)}`,
        limit: { name: 'eventBudget', value: budget, requested: atLeast, requestedIsLowerBound: true },
      };
    }
    // The budget counts work, not only events (FlowEngine cost): the sizes before this one spent `cost`.
    used += result.cost;
    const run = result.collectives[0];
    if (!run || !result.bottleneck) continue;
    // With sibling groups, a size is done when the last of them is (result.seconds).
    const algbw = row.bytes / result.seconds;
    row.emulated = {
      seconds: result.seconds,
      algbwGBps: toGBps(algbw),
      busbwGBps: toGBps(algbw * busBandwidthFactor(request.op, group.ranks)),
      algorithm: run.algorithm,
      protocol: run.protocol,
      mode: run.mode,
      events: result.events,
      bottleneckLink: linkJson(result.bottleneck),
      links: result.links.map(linkJson),
      differenceFromClosedForm: result.seconds / row.seconds - 1,
    };
  }
  if (rows.some((r) => r.emulated && r.emulated.algorithm !== r.algorithm)) {
    notes.push('the emulator executes ring, tree, NVLS (on one node), NVLSTree, hierarchical and direct sends; rows where NCCL picks another algorithm (PAT, CollNet, NVLS across nodes) emulate the fastest of those instead');
  }
  // Hierarchical's inter-node step may reduce in the switches in the closed form (CollNet), which the topology graph has
  // no model of: the emulated step runs the fastest algorithm the emulator executes (runtime QA: +35% on 8 H100 nodes,
  // said only by the CLI's help).
  if (request.collnet === true && request.algorithm === 'hierarchical' && group.ranks > group.ranksPerNode) {
    notes.push('CollNet is on: where the closed form\'s inter-node step reduces in the switches (SHARP), the emulator, which has no in-switch reduction, runs the fastest algorithm it executes there instead');
  }
  return { ok: true, ...described(), notes };
}
