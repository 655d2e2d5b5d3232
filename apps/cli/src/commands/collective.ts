import { gpuById, systemById } from '@trainplan/presets';
import { runCollective, type CollectiveOkJson } from '@trainplan/protocol';
import { formatSeconds, formatSize, parseBytes, typedInBinary } from '@trainplan/units';
import type { Command } from '../command.ts';
import { commandFlags, printError, usageError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import { flagLocator } from '../flag-terms.ts';
import { type FlagSpec, type FlagValues } from '../flags.ts';
import { countText, grouped } from '../format/count-text.ts';
import { renderTable } from '../format/table.ts';
import type { CliIo } from '../io.ts';
import { usageLine } from '../format/usage-line.ts';
import { count, defined, number } from '../search-flags.ts';

const SYNOPSIS = 'trainplan collective --op OP (--gpu ID | --system ID) [--nodes N] [--algorithm A] [--size BYTES] [--collnet] [--emulate] [--json]';

const FLAGS: Record<string, FlagSpec> = {
  op: { type: 'string', valueName: 'an op (all-reduce, all-gather, reduce-scatter, broadcast, reduce, all-to-all, send-recv)' },
  gpu: { type: 'string', valueName: 'a GPU preset id', preset: 'gpu' },
  system: { type: 'string', valueName: 'a system preset id', preset: 'gpu' },
  network: { type: 'string', valueName: 'a network preset id', preset: 'network' },
  nodes: { type: 'string', valueName: 'a node count' },
  'gpus-per-node': { type: 'string', valueName: 'a GPU count' },
  'concurrent-groups': { type: 'string', valueName: 'a group count' },
  algorithm: { type: 'string', valueName: 'ring, tree, nvls, nvls-tree, pat, hierarchical, collnet-direct, collnet-chain or auto' },
  size: { type: 'string', valueName: 'a size such as 64MiB or 1e9' },
  oversubscription: { type: 'string', valueName: 'a ratio ≥ 1' },
  'event-budget': { type: 'string', valueName: 'a count of events' },
  emulate: { type: 'boolean' },
  collnet: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const USAGE = `${usageLine(SYNOPSIS)}

Cost one collective as NCCL runs it, as an nccl-tests-like table over sizes 8 B … 16 GiB (×2 steps):
size, time, algbw, busbw (nccl-tests conventions, GB = 1e9) and the chosen algorithm/protocol. With
--algorithm auto the (algorithm, protocol) is NCCL's choice, the argmin of its own tuner's predicted
times; the time shown is that choice as it runs (the channels NCCL launches for the size, NVLS's
pipeline, every hop of a broadcast or reduce chain, where the tuner counts one), so another
algorithm forced with --algorithm can come out faster at some sizes, and where the choice changes a
larger size can finish sooner than the one before it, as NCCL's own can. The same algorithm can
too where NCCL trims channels: a ring on LL launches ⌊size / (512 threads × 8 B × ranks)⌋ of them,
and with 3, 5, 6 or 7 GPUs that floor drops a larger share of one size's channels than of the next
size's (dgx-a100-80gb --gpus-per-node 3: 12.0 µs at 32 KiB, 11.4 µs at 64 KiB, both ring/LL).
--emulate also runs the discrete-event emulator over the machine's topology graph and adds its
time, busbw and the bottleneck link: the busiest link and its share of the time, "none saturated"
(the busiest named) when no link is busy half the time, where latency and pipeline fill set the
pace, or "none (latency-bound)" when no link carries a measurable share. The emulator streams the
chosen algorithm's flows (ring, tree, NVLS, direct sends) at NCCL's per-channel rates and per-step
latencies, so on a machine nothing else shares it lands near the closed form but not on it (Δ):
each inter-node hop pays its own route's wire latency where NCCL's figure assumes one leaf switch
(ring all-reduce on 4 A100 nodes: +2.2% at 8 B), and all-to-all's sends to different peers overlap
one's start-up latency with another's transfer where the closed form adds latency to transfer (8
H100 nodes: −34% at 4 MiB, within 1% by 512 MiB). It is a second opinion where links are shared:
--concurrent-groups, --oversubscription, a training step's many collectives at once. The switches'
own reduction (SHARP, with --collnet) is not in the topology graph: where NCCL, or hierarchical's
inter-node step, reduces there, the emulator runs the fastest algorithm it executes instead (8 H100
nodes, hierarchical at 256 MiB: +35%).

Options:
      --op OP               all-reduce, all-gather, reduce-scatter, broadcast, reduce, all-to-all,
                            send-recv
      --gpu ID              a GPU preset (its usual DGX-class system) or a system preset, or
      --system ID           a system preset
      --network ID          the inter-node fabric (default: the system's)
      --nodes N             nodes taking part (default 1)
      --gpus-per-node N     GPUs of each node taking part (default: all)
      --concurrent-groups K K sibling groups run the same collective at once on the same nodes,
                            sharing their NICs (the 8 data-parallel rings of a TP-8 job:
                            --gpus-per-node 1 --concurrent-groups 8); times are the last group's
      --algorithm A         ring, tree, nvls, nvls-tree, pat, hierarchical, collnet-direct and
                            collnet-chain (with --collnet), or auto (default: what NCCL's tuner
                            picks, not always the fastest shown)
      --size BYTES          one size instead of the sweep (64MiB, 1GB, 1e9)
      --collnet             turn CollNet on (NCCL_COLLNET_ENABLE=1): all-reduce may then reduce in
                            the InfiniBand switches (SHARP: CollNetDirect, CollNetChain, NVLS
                            across nodes) where NCCL's tuner picks them; off by default, as in
                            NCCL. Needs a network with in-network reduction (SHARP: the error
                            names them; trainplan presets networks lists every network)
      --emulate             also emulate the chosen algorithm's flows; name the bottleneck link
      --oversubscription R  fat-tree leaf oversubscription for the emulator (default 1): it slows
                            only traffic between leaves. One NCCL ring or tree crosses each leaf
                            boundary once per channel, under the trunk's rate, so a lone collective
                            rarely feels it; many at once do, as a training step's pipeline sends do
                            (trainplan estimate --emulate with cluster.oversubscription)
      --event-budget N      the emulator's work limit over all sizes (default 10,000,000 events;
                            flows in flight and flow–link visits count too): past it, a clear
                            refusal saying how much it needs at least. It is the CLI's only limit
                            on emulation: POST /v1/collective also caps nodes × sizes emulated
                            at 256 and the budget at 2,000,000
      --json                print the JSON answer (the body of POST /v1/collective)
  -h, --help                show this help

Exit status:
  0  answered
  1  the request is impossible (an algorithm the machine lacks, an emulation past its event budget)
  2  usage error or invalid input

Examples:
  trainplan collective --op all-reduce --gpu h100-sxm --nodes 4
  trainplan collective --op all-reduce --gpu h100-sxm --nodes 4 --size 8GiB --collnet
  trainplan collective --op all-reduce --gpu a100-80gb --nodes 16 --size 1GiB --emulate
  trainplan collective --op all-reduce --gpu a100-80gb --nodes 128 --size 1GiB --emulate --oversubscription 4
  trainplan collective --op all-to-all --gpu h100-sxm --nodes 8 --size 64MiB --emulate --event-budget 20000000
  trainplan collective --op all-reduce --gpu v100-32gb --nodes 4 --gpus-per-node 1 --concurrent-groups 8 --size 1GiB --emulate
`;

/**
 * The request (the API's body) from flags: counts as the other commands read them (count, number:
 * "1,024", "2k", decimal notation only), a size by parseBytes. What does not parse goes through as the
 * text given, so the schema names it against its flag. --gpu takes a system id too, as it does for
 * estimate, nodes and inference (protocol's clusterMachine): the request has a field of its own for
 * one, so a system named by --gpu goes there (unless --system is given too, which the schema refuses).
 */
function requestFrom(v: FlagValues): Record<string, unknown> {
  const size = typeof v.size === 'string' ? parseBytes(v.size) ?? v.size : undefined;
  const systemAsGpu = typeof v.gpu === 'string' && v.system === undefined && !gpuById(v.gpu) && systemById(v.gpu) !== undefined;
  return defined({
    op: v.op, gpu: systemAsGpu ? undefined : v.gpu, system: systemAsGpu ? v.gpu : v.system, network: v.network, algorithm: v.algorithm,
    nodes: count(v, 'nodes'), gpusPerNode: count(v, 'gpus-per-node'), oversubscription: number(v, 'oversubscription'),
    eventBudget: count(v, 'event-budget'), concurrentGroups: count(v, 'concurrent-groups'), size,
    // Passed as given (not `=== true`): the flag locator finds the field by the value it sets, so a note's "(emulate)" reads "(--emulate)".
    ...(v.emulate !== undefined && v.emulate !== false && { emulate: v.emulate }),
    ...(v.collnet !== undefined && v.collnet !== false && { collnet: v.collnet }),
  });
}

/** Where each flag lands in the request, found by requestFrom itself, so an issue's message names flags, not fields. */
const TERMS = flagLocator({ flags: FLAGS, requestFlags: Object.keys(FLAGS), fromFlags: requestFrom });

/**
 * A message in flag terms: TERMS' rewording, and the field the request's "is a GPU: give it as gpu" names (a GPU id
 * given to --system) as the flag, "--gpu", which TERMS leaves alone after "as".
 */
const inFlagTerms = (message: string): string => TERMS.inFlagTerms(message).replace(/\bgive it as (gpu|system)\b/g, 'give it as --$1');

const usageFailure = (io: CliIo, message: string): number => usageError(io, SYNOPSIS, message);

const gbps = (value: number): string => value.toFixed(2);

/** The nccl-tests-like table, plus the emulator's columns when it ran; `typedBinary`: --size was given in binary units. */
export function formatCollectiveTable(answer: CollectiveOkJson, typedBinary = false): string {
  const emulated = answer.rows.some((r) => r.emulated);
  const header = ['size', 'time', 'algbw GB/s', 'busbw GB/s', 'algorithm', 'protocol'];
  if (emulated) header.push('emulated', 'emu busbw', 'Δ', 'bottleneck link');
  const rows = answer.rows.map((r) => {
    const cells = [formatSize(r.bytes, typedBinary), formatSeconds(r.seconds), gbps(r.algbwGBps), gbps(r.busbwGBps), r.algorithm, r.protocol];
    if (emulated) {
      const e = r.emulated;
      cells.push(e ? formatSeconds(e.seconds) : '–', e ? gbps(e.busbwGBps) : '–',
        e ? percentText(e.differenceFromClosedForm) : '–',
        e ? bottleneckText(e.bottleneckLink) : '–');
    }
    return cells;
  });
  const siblings = answer.concurrentGroups !== undefined ? ` · ${answer.concurrentGroups} groups at once` : '';
  const collnet = answer.collnet === true ? ' · CollNet (SHARP) on' : '';
  const title = `${answer.op} · ${answer.gpu} × ${grouped(answer.ranks)} (${countText(answer.nodes, 'node')} × ${answer.gpusPerNode}, ${answer.system}, ${answer.network})${siblings} · algorithm ${answer.algorithm}${collnet}`;
  const lines = [title, '', ...renderTable([header, ...rows], { align: ['right', 'right', 'right', 'right', 'left', 'left', 'right', 'right', 'right', 'left'] })];
  if (answer.topology) lines.push('', 'topology:', ...answer.topology.map((l) => `  ${l}`));
  for (const note of answer.notes) lines.push('', `note: ${inFlagTerms(note)}`);
  return `${lines.join('\n')}\n`;
}

/** A signed fraction as a percentage to 0.1%: a difference that rounds to zero is "0.0%", never "-0.0%". */
export function percentText(fraction: number): string {
  const tenths = Math.round(fraction * 1000);
  return `${(tenths === 0 ? 0 : tenths / 10).toFixed(1)}%`;
}

/**
 * The busiest link and its utilisation. A link busy under half the time does not set the pace: latency and pipeline
 * fill do (a QA pass read "node 0 nic 0 (10%)" as the bottleneck of a fill-bound 16 MiB NVLSTree), and the cell says so.
 */
export function bottleneckText(link: { link: string; utilisation: number }): string {
  const pct = Math.round(link.utilisation * 100);
  if (pct === 0) return 'none (latency-bound)';
  return pct < 50 ? `none saturated (busiest ${link.link}, ${pct}%)` : `${link.link} (${pct}%)`;
}

export const collectiveCommand: Command = {
  name: 'collective',
  summary: 'cost one collective over sizes 8 B to 16 GiB by the NCCL cost model, or emulate it',
  usage: USAGE,
  flags: FLAGS,
  async run(argv, io) {
    const flags = commandFlags(io, argv, { flags: FLAGS, usage: USAGE, synopsis: SYNOPSIS });
    if (typeof flags === 'number') return flags;
    const v = flags.values;
    if (typeof v.op !== 'string') return usageFailure(io, `missing --op: give ${FLAGS.op!.valueName!}`);
    if (typeof v.size === 'string' && parseBytes(v.size) === undefined) {
      // "1Gb", "400Mb": a capital prefix with a lower-case b is how link speeds write bits (parseBytes refuses it).
      const unit = v.size.replace(/^[\d.e+-]+\s*/i, '');
      const bits = /^[KMGTP]i?b$/.test(unit) ? ` (${unit} counts bits; a size is in bytes: ${unit.toUpperCase().replace('IB', 'iB')})` : '';
      return usageFailure(io, `--size needs a size in bytes such as 64MiB or 1e9, got '${v.size}'${bits}`);
    }
    // No node-size cap here: it keeps a server's requests short, and this runs on the user's own CPU, where the event
    // budget (--event-budget) bounds the emulator's work. So the README's 16,384-GPU emulation runs from the CLI.
    const answer = runCollective(requestFrom(v), { maxEmulatedNodeSizes: Number.POSITIVE_INFINITY });
    if (!answer.ok) {
      if (v.json === true) io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
      for (const issue of answer.issues) {
        const message = inFlagTerms(issue.message);
        printError(io, issue.path === '' ? message : `${TERMS.flagFor(issue.path) ?? issue.path}: ${message}`);
      }
      return answer.reason === 'invalid' ? EXIT.usage : EXIT.infeasible;
    }
    io.stdout(v.json === true ? `${JSON.stringify(answer, null, 2)}\n` : formatCollectiveTable(answer, typeof v.size === 'string' && typedInBinary(v.size)));
    return EXIT.ok;
  },
};

