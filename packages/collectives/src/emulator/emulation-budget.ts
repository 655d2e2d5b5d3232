import { budgetUnits, EVENTS_PER_FLOW_IN_FLIGHT, VISITS_PER_EVENT } from './flow-engine.ts';

/**
 * The default budget, in events: a few seconds of emulation on one core (a budget unit is
 * 0.2–0.4 µs, flow-engine.ts VISITS_PER_EVENT). Flows in flight and flow–link visits count against
 * it too (`workCost`), so it bounds memory (≈ 250 MB of flow slots at most) and time whatever the
 * run's shape.
 */
export const DEFAULT_EVENT_BUDGET = 10_000_000;

/** What a run needs, at least, before it starts: events, the most flows in flight, flow–link visits. */
export interface Work {
  readonly events: number;
  readonly peakFlows: number;
  readonly visits: number;
}

/** The budget a run of `work` spends, in events: as FlowEngine's `cost`. */
export function workCost(work: Work): number {
  return budgetUnits(work.events, work.peakFlows, work.visits);
}

/**
 * What the event budget counts, in words, for a refusal. A function, not a top-level template, so that a bundle that never
 * refuses (the widget's, whose stand-in runs no emulation) drops it: esbuild keeps an unused top-level template.
 */
export const budgetUnitsText = (): string => `events (an event, ${EVENTS_PER_FLOW_IN_FLIGHT} per flow in flight, 1 per ${VISITS_PER_EVENT} flow–link visits while re-rating)`;

/**
 * A lower bound on the flow–link visits of an all-to-all over `nodes` nodes of `ppn` GPUs, each
 * sending `pairBytes` to every remote GPU, the r-th remote send of every rank starting at
 * `remoteStartSeconds(r)` (NCCL's per-post network overhead, direct-program.ts). In round r every
 * rank starts one remote send, so every rank's PCIe-up and host→NIC links change and the round
 * re-rates every remote send in flight: the settle reads each on those two links (2 visits) and the
 * filling reads it once per link of its route for the links' weights and once more for their
 * capacity (2 × `routeLinks`; FlowEngine counts exactly these). Sends in flight at round r: a
 * node has started ppn·(r + 1) remote sends, of which at most B·t_r / pairBytes can have finished by
 * t_r (B: its NICs' bandwidth, bytes/s), whatever the sharing.
 */
export function allToAllVisitsAtLeast(options: {
  readonly nodes: number;
  readonly ppn: number;
  readonly pairBytes: number;
  readonly nodeNicBytesPerSecond: number;
  readonly routeLinks: number;
  readonly remoteStartSeconds: (round: number) => number;
}): number {
  const { nodes, ppn, pairBytes, nodeNicBytesPerSecond, routeLinks } = options;
  const rounds = (nodes - 1) * ppn;
  let perNode = 0;
  for (let r = 0; r < rounds; r++) {
    const finished = Math.floor((nodeNicBytesPerSecond * options.remoteStartSeconds(r)) / pairBytes);
    const inFlight = ppn * (r + 1) - finished;
    if (inFlight > 0) perNode += inFlight;
  }
  return nodes * perNode * (2 + 2 * routeLinks);
}
