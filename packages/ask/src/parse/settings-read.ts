import { takeFlopBudget } from '../lexicon/flop-budget.ts';
import { takeStatedMfu } from '../lexicon/mfu.ts';
import { takeNetwork } from '../lexicon/network.ts';
import { SPARE_COUNT_UNREAD, spareProblem, takeSpareNodes } from '../lexicon/spare-nodes.ts';
import { takeUnmodelledSettings } from '../lexicon/unmodelled-settings.ts';
import { takeUptime } from '../lexicon/uptime.ts';
import { asTyped } from './as-typed.ts';
import type { HardwareNamed } from './hardware-named.ts';
import type { ParseState } from './state.ts';

/** The settings read before any count: the uptime, spare nodes, a FLOP budget, settings no plan models, the network. */
export type SettingsRead = ReturnType<typeof readSettings>;

/**
 * The settings whose words hold a number or a unit the counts and durations would take ("95% availability", "8 spare
 * nodes", "at 700W", "1 NIC per node"): read first, each said where it is not planned.
 */
export function readSettings(st: ParseState, hardware: HardwareNamed) {
  const { s, text, stated, problems, notRead } = st;
  const { unmodelledAside, unmodelledWhy } = hardware;
  // Before the settings no plan models, which would say "95% availability" not read: the share of time spent training.
  const uptime = takeUptime(s);
  if (uptime?.ok === true) stated.uptime = uptime.uptime;
  else if (uptime !== undefined) problems.push(uptime.problem);
  // Spare nodes ("with 8 spare nodes", "5% headroom for failures"): before the settings no plan models, whose "failures" it
  // holds (lexicon/spare-nodes.ts). A count of nodes reserved or spare with no word adding it ("16 nodes reserved on AWS",
  // "on our 8 spare nodes") is left to the counts as the cluster, said below.
  const spareRead = takeSpareNodes(s);
  const spare = spareRead.spare;
  const spareRefused = spare === undefined ? undefined : spareProblem(spare, asTyped(text, spare.written));
  if (spareRefused !== undefined) problems.push(spareRefused);
  // "5.76e23 FLOPs": a training compute, its digits never a count (lexicon/flop-budget.ts); said not read below where no
  // compute-optimal size is asked.
  const flopBudget = takeFlopBudget(s);
  // Before any count or duration: "at 700W" is power, never 700 weeks; "90% goodput" no percentage read elsewhere.
  notRead.push(...takeUnmodelledSettings(s, (phrase) => asTyped(text, phrase)));
  if (unmodelledAside !== undefined) notRead.push({ phrase: unmodelledAside, why: `${unmodelledWhy}: the plan is for the GPU named beside it` });
  if (spareRead.unread !== undefined) notRead.push({ phrase: `"${asTyped(text, spareRead.unread)}"`, why: SPARE_COUNT_UNREAD });
  // Before counts and speeds: "1 NIC per node" is no GPU count, "over HDR InfiniBand" the network between nodes.
  const network = takeNetwork(s);
  if (network !== undefined && 'network' in network) stated.network = network.network;
  else if (network !== undefined) notRead.push({ phrase: `the network "${asTyped(text, network.unread)}"`, why: network.why });
  return { uptime, spareRead, spare, spareRefused, flopBudget, network };
}

/** An MFU stated ("at 45% MFU"): planned, or refused where it is no fraction of peak. Read after the prices, before the KV cache's format. */
export function readMfu(st: ParseState): void {
  const { s, stated, problems } = st;
  const mfu = takeStatedMfu(s);
  if (mfu?.ok === true) stated.mfu = mfu.mfu;
  else if (mfu !== undefined) problems.push(mfu.problem);
}
