import { countOf, formatGrouped } from '@trainplan/units';
import { LINK_KINDS, linkName, type TopologyGraph } from '../topology/topology-graph.ts';
import { budgetUnitsText, DEFAULT_EVENT_BUDGET, workCost } from './emulation-budget.ts';
import { FlowEngine } from './flow-engine.ts';
import { prepareCollective, type EmulatedCollective, type EmulatedCollectiveResult, type Prepared, type Program } from './prepare-collective.ts';

export { DEFAULT_EVENT_BUDGET } from './emulation-budget.ts';
export type { EmulatedCollective, EmulatedCollectiveResult } from './prepare-collective.ts';

export interface LinkUsage {
  readonly link: number;
  readonly name: string;
  readonly kind: string;
  readonly bytes: number;
  readonly bandwidthBytesPerSecond: number;
  /** Bytes carried ÷ (bandwidth × the emulated time). */
  readonly utilisation: number;
}

export type EmulationResult =
  | {
    readonly ok: true;
    /** When the last collective finished. */
    readonly seconds: number;
    readonly events: number;
    /** The budget spent, in events: events, flows in flight and flow–link visits (FlowEngine `cost`). */
    readonly cost: number;
    readonly collectives: readonly EmulatedCollectiveResult[];
    /** Links that carried bytes, most utilised first (at most `maxLinks`). */
    readonly links: readonly LinkUsage[];
    readonly bottleneck: LinkUsage | null;
  }
  | {
    readonly ok: false; readonly reason: 'event-budget'; readonly message: string; readonly limit: number;
    /**
     * A lower bound on the budget the run needs, never an estimate of it: refused before running (`ran` false), the
     * work known beforehand (events and flows in flight; flow–link visits are known only by running); stopped
     * (`ran` true), the work done when it passed the limit. Either way the run needs at least this, and more.
     */
    readonly needed: number;
    /** Whether it ran until it passed the budget (and was stopped), rather than being refused before it started. */
    readonly ran: boolean;
  }
  | { readonly ok: false; readonly reason: 'invalid'; readonly message: string };

function invalid(message: string): EmulationResult {
  return { ok: false, reason: 'invalid', message };
}

function overBudget(needed: number, budget: number, ran: boolean): EmulationResult {
  const rounded = Math.ceil(needed);
  return {
    ok: false, reason: 'event-budget', limit: budget, needed: rounded, ran,
    message: ran
      ? `the emulation ran past the event budget of ${formatGrouped(budget)} ${budgetUnitsText()}; stopped at ${formatGrouped(rounded)}`
      : `the emulation needs at least ${formatGrouped(rounded)} ${budgetUnitsText()}, over the event budget of ${formatGrouped(budget)}`,
  };
}

/**
 * Which collectives may run a ring in symmetric mode: those whose links no other collective
 * crosses. Symmetric mode loads only the representatives' links (ring-program.ts), so another
 * collective's flows on the ring's other links would see none of its traffic; it is exact only
 * for a collective alone on its links.
 */
function exclusiveLinks(t: TopologyGraph, prepared: readonly Prepared[]): boolean[] {
  if (prepared.length === 1) return [true];
  // No collective could use symmetric mode (the planner's stage sends, short rings): nothing to route twice.
  if (!prepared.some((p) => p.symmetricCandidate)) return prepared.map(() => false);
  // owner[l]: 0 none, i + 1 collective i alone, −1 several.
  const owner = new Int32Array(t.linkCount);
  prepared.forEach((p, i) => p.links((link) => {
    const o = owner[link] as number;
    if (o === 0) owner[link] = i + 1; else if (o !== i + 1) owner[link] = -1;
  }));
  return prepared.map((p, i) => {
    if (!p.symmetricCandidate) return false;
    let alone = true;
    p.links((link) => { if (owner[link] !== i + 1) alone = false; });
    return alone;
  });
}

/** The `max` most utilised links (and so the bottleneck), without listing every link. */
function topLinks(t: TopologyGraph, engine: FlowEngine, seconds: number, max: number): LinkUsage[] {
  const keep = Math.max(1, max);
  const chosen: { link: number; utilisation: number }[] = [];
  for (let l = 0; l < t.linkCount; l++) {
    const bytes = engine.linkBytes[l] as number;
    if (bytes <= 0) continue;
    const utilisation = seconds > 0 ? bytes / ((t.linkBandwidth[l] as number) * seconds) : 0;
    if (chosen.length === keep && utilisation <= (chosen[keep - 1] as { utilisation: number }).utilisation) continue;
    let at = chosen.length;
    while (at > 0 && (chosen[at - 1] as { utilisation: number }).utilisation < utilisation) at--;
    chosen.splice(at, 0, { link: l, utilisation });
    if (chosen.length > keep) chosen.pop();
  }
  return chosen.map(({ link, utilisation }) => ({
    link, name: linkName(t, link), kind: LINK_KINDS[t.linkKind[link] ?? 0] ?? 'link', bytes: engine.linkBytes[link] as number,
    bandwidthBytesPerSecond: t.linkBandwidth[link] as number, utilisation,
  }));
}

/**
 * Runs collectives at the same time over a topology graph, flows sharing links, and reports when
 * each finished, per-link utilisation and the bottleneck link. The event budget bounds the whole
 * run — events, flows in flight (memory) and flow–link visits (the work of re-rating) — as one
 * count (emulation-budget.ts): the work is estimated first and a run past the budget refused (as
 * data) before anything large is built; the engine counts it as it goes and stops at the budget
 * too, so a run never hangs or runs for minutes. Ring all-reduce / all-gather / reduce-scatter use
 * NCCL's ring channels and its protocol choice for the size (caps and per-step latencies from
 * NCCL's model); all-to-all and send-recv run as direct sends.
 */
export function emulateCollectives(options: {
  readonly topology: TopologyGraph;
  readonly collectives: readonly EmulatedCollective[];
  readonly eventBudget?: number;
  readonly mode?: 'auto' | 'full' | 'symmetric';
  readonly maxLinks?: number;
}): EmulationResult {
  const { topology: t, collectives } = options;
  const budget = options.eventBudget ?? DEFAULT_EVENT_BUDGET;
  const mode = options.mode ?? 'auto';
  const gpuCount = t.nodes * t.gpusPerNode;
  const prepared: Prepared[] = [];
  for (const [i, c] of collectives.entries()) {
    if (!(c.bytes > 0) || !Number.isFinite(c.bytes)) return invalid(`collectives[${i}].bytes must be a finite number > 0, got ${c.bytes}`);
    if (c.gpus.length < 2) return invalid(`collectives[${i}] needs at least 2 GPUs, got ${c.gpus.length}`);
    if (new Set(c.gpus).size !== c.gpus.length) return invalid(`collectives[${i}].gpus lists a GPU twice`);
    for (const gpu of c.gpus) {
      if (!Number.isInteger(gpu) || gpu < 0 || gpu >= gpuCount) {
        return invalid(`collectives[${i}].gpus: GPU ${gpu} is not in the topology (${countOf(gpuCount, 'GPU')})`);
      }
    }
    const p = prepareCollective(t, c, mode, budget);
    if (typeof p === 'string') return invalid(`collectives[${i}]: ${p}`);
    if ('overBudget' in p) return overBudget(p.overBudget, budget, false);
    prepared.push(p);
  }
  // Symmetric mode only where it is exact; forced 'symmetric' is the caller's choice.
  const exclusive = mode === 'symmetric' ? prepared.map(() => true) : exclusiveLinks(t, prepared);
  const programs: Program[] = [];
  const modes: ('full' | 'symmetric')[] = [];
  let needed = 0;
  for (const [i, p] of prepared.entries()) {
    const built = p.build(exclusive[i] ?? false);
    if ('overBudget' in built) return overBudget(needed + built.overBudget, budget, false);
    // Flows in flight are summed over collectives: they may all be in flight at once.
    needed += workCost(built.work);
    if (needed > budget) return overBudget(needed, budget, false);
    programs.push(built.program);
    modes.push(built.mode);
  }
  const engine = new FlowEngine(t.linkBandwidth, t.linkLatency);
  for (const program of programs) program.start(engine);
  if (!engine.run(budget)) return overBudget(engine.cost, budget, true);
  // A program finishes when its last chunk arrives, which may be a wire latency after the last event.
  const seconds = programs.reduce((latest, p) => Math.max(latest, p.finishedAt), engine.now);
  const links = topLinks(t, engine, seconds, options.maxLinks ?? 16);
  return {
    ok: true,
    seconds,
    events: engine.events,
    cost: engine.cost,
    collectives: prepared.map((p, i) => ({ ...p.result, mode: modes[i] ?? 'full', seconds: (programs[i] as Program).finishedAt })),
    links,
    bottleneck: links[0] ?? null,
  };
}
