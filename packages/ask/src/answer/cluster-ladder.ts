import { FRONTIER_OCTAVE_STEPS, FRONTIER_SCAN_WINDOW, MAX_NODES } from '@trainplan/protocol';

/**
 * The cheap end of the time–cost curve, searched on a ladder of cluster sizes instead of the whole curve: the sizes at or
 * above a floor (the fewest nodes that spend a budget within a year, tokens-bought.ts) where a plan trains for the fewest
 * GPU-hours. The whole curve (runNodes' frontier, @trainplan/search capacity-frontier.ts) also follows the fast end up to
 * 8,192 nodes and refines it, 250–400 sizes and 2–8 s; the size a budget buys the most tokens with is the cheapest at or
 * above the floor, which sits within an octave or two of it (the GPU-hours a token rise with the node count as scaling
 * efficiency falls, Narayanan et al. SC'21 §3.3), so a few dozen sizes find it.
 *
 * The ladder is the curve's own: the sizes of at most four significant bits (capacity-frontier.ts
 * FRONTIER_OCTAVE_STEPS: every size below 16 nodes, then eight a doubling), whose GPUs still split a power-of-two batch
 * and head count; then the multiples of the cheapest sizes' model-parallel replicas (the curve's replica families), and
 * the sizes beside the cheapest found (its neighbours' factors differ, and so do their splits).
 */

/**
 * A cluster size planned: its nodes and GPUs, its time to train and the GPU-hours of that time, the GPUs of one
 * model-parallel replica of its plan (tensor × pipeline × context parallel: its GPUs over its data-parallel size), and of
 * one tensor × context parallel group in it.
 */
export interface LadderPoint {
  readonly nodes: number;
  readonly gpus: number;
  readonly seconds: number;
  readonly gpuHours: number;
  readonly replicaGpus: number;
  readonly groupGpus: number;
}

/**
 * One size's plan, or where none runs there, the nearest size that runs as the planner names it (runNodes' closest on a
 * size that runs nothing: the smallest fit, for a model too large for the floor), absent where it names none (no size
 * runs at all, or the request is refused), when the ladder stops: the whole curve's answer then says why.
 */
export type SizeTried<P extends LadderPoint> = { readonly point: P; readonly nearest?: undefined } | { readonly point?: undefined; readonly nearest?: number };

/** The sizes searched that run, fewest nodes first, and the cheapest at or above the floor (undefined where none runs). */
export interface LadderSearch<P extends LadderPoint> {
  readonly points: readonly P[];
  readonly cheapest: P | undefined;
  /** Sizes searched, those that run nothing included. */
  readonly searches: number;
}

/** The largest size searched: @trainplan/search's MAX_NODES, the curve's own largest. */
export const LADDER_MAX_NODES = MAX_NODES;

/** Sizes below this are all on the ladder: the curve's octave steps are whole nodes from 1 up to 16 (2^k × (8 + i) / 8). */
const OCTAVE_STEPS = FRONTIER_OCTAVE_STEPS;

/**
 * The ladder climbs while a size is within this many times the cheapest found's nodes: one doubling past it. Past the
 * cheapest the GPU-hours a token grow with the node count (the batch splits into fewer micro-batches a pipeline, the
 * bubble grows: Narayanan et al. SC'21 §3.3); a doubling's eight sizes with none cheaper is the curve turned up.
 */
const CLIMB_PAST_CHEAPEST = 2;

/**
 * Nodes on each side of the cheapest the ladder found that are searched: capacity-frontier.ts FRONTIER_SCAN_WINDOW, the
 * whole curve's own window beside its cheapest (a size between the steps, 19 nodes between 18 and 20, can beat both).
 * Only the sizes that hold whole tensor × context groups of the cheapest's plan (groupUnit: every size where a group fits
 * in a node), the pipeline and data-parallel sizes left free: a size that splits no such group (853 nodes, a prime) runs
 * none of its shapes, and searching it costs the most of any (no plan found prunes nothing, and the planner then looks
 * for the nearest size that runs: 0.1–0.25 s each for a 546B on 850 nodes of H100, where a size that runs takes 5–15 ms).
 */
export const LADDER_WINDOW = FRONTIER_SCAN_WINDOW;

/**
 * The cheapest sizes whose plans' replicas are tried at other multiples (replicaUnit), each with its neighbour shapes:
 * past a few hundred nodes the ladder's sizes seldom hold whole replicas of the best shapes, and a multiple of a cheap
 * size's replica between them is cheaper than both (capacity-frontier.ts replicaRefine: Llama 3 70B on H100, 252 nodes of
 * 9-node replicas beat 256; here a 285B on A100, 260 and 312 nodes of 13-node replicas beat the ladder's 288 for fewer
 * GPU-hours and less time). The neighbours are the curve's too (capacity-frontier.ts neighbourShapes): twice or half the
 * context or tensor parallelism, a replica of twice or half the GPUs (a 670B on B200: 270 nodes of TP 4 · PP 30 · CP 2
 * beat the ladder's 240 of the same with CP 4, and 245 of PP 35).
 */
const REPLICA_SHAPES = 3;

/**
 * Multiples of each replica tried, the first from the floor (and none past a doubling of the cheapest): a family's
 * GPU-hours a token move little from one multiple to the next (the same shape, a few more data-parallel replicas, the
 * batch growing with them), and the size a budget buys the most tokens with is the cheapest nearest the floor (the
 * replica multiples the whole curve picked for $20M–$50M budgets on A100, H100 and B200 were each the first or second
 * past it: 246 of 41 nodes from 238, 270 of 30 from 238, 380 of 38 from 357).
 */
const REPLICA_MULTIPLES = 4;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The fewest nodes whose GPUs hold whole groups of `gpus` GPUs: the group's GPUs over their common factor with a node's. */
const nodesHolding = (gpus: number, p: LadderPoint): number => gpus / gcd(gpus, p.gpus / p.nodes);

/** The fewest nodes whose GPUs hold whole replicas of `p`'s plan. */
export const replicaUnit = (p: LadderPoint): number => nodesHolding(p.replicaGpus, p);

/** The fewest nodes whose GPUs hold whole tensor × context groups of `p`'s plan: 1 where a group fits in a node. */
export const groupUnit = (p: LadderPoint): number => nodesHolding(p.groupGpus, p);

/** The smallest ladder size above `nodes`: the next size of at most four significant bits. */
export function nextLadderSize(nodes: number): number {
  const power = 2 ** Math.floor(Math.log2(nodes));
  const step = Math.max(1, power / OCTAVE_STEPS);
  return (Math.floor(nodes / step) + 1) * step;
}

/** The fewer GPU-hours; the fewer nodes on a tie (capacity-frontier.ts cheaper). */
export const cheaper = <P extends LadderPoint>(a: P, b: P): P => (b.gpuHours < a.gpuHours || (b.gpuHours === a.gpuHours && b.nodes < a.nodes) ? b : a);

/**
 * The cheapest size at or above `floor` nodes: the first size there that runs, the ladder above it while within a doubling
 * of the cheapest found; then, until the cheapest holds, the first multiples of the REPLICA_SHAPES cheapest sizes'
 * replicas and their neighbours', and the sizes within LADDER_WINDOW of the cheapest that hold its tensor × context
 * groups. Never a size below the floor. `at` plans one size; each is asked once.
 */
export function cheapestOnLadder<P extends LadderPoint>(at: (nodes: number) => SizeTried<P>, floor: number): LadderSearch<P> {
  const tried = new Map<number, SizeTried<P>>();
  const run = (nodes: number): SizeTried<P> => {
    const known = tried.get(nodes);
    if (known !== undefined) return known;
    const size = at(nodes);
    tried.set(nodes, size);
    return size;
  };
  const done = (cheapest: P | undefined): LadderSearch<P> => ({
    points: [...tried.values()].flatMap((s) => (s.point === undefined ? [] : [s.point])).sort((a, b) => a.nodes - b.nodes),
    cheapest,
    searches: tried.size,
  });
  // The first size at or above the floor that runs: the planner's nearest where larger, else the next ladder size. `low`:
  // the fewest nodes left to search, past those known to run nothing (the planner's nearest is nearer than all between).
  let low = Math.max(1, Math.ceil(floor));
  let cheapest: P | undefined;
  for (let n = low; cheapest === undefined && n <= LADDER_MAX_NODES;) {
    const size = run(n);
    if (size.point !== undefined) cheapest = size.point;
    else if (size.nearest === undefined) break;
    else if (size.nearest > n) {
      if (n === low) low = size.nearest;
      n = size.nearest;
    } else n = nextLadderSize(n);
  }
  if (cheapest === undefined) return done(undefined);
  for (let n = nextLadderSize(cheapest.nodes); n <= LADDER_MAX_NODES && (n <= CLIMB_PAST_CHEAPEST * cheapest.nodes || n <= low + LADDER_WINDOW); n = nextLadderSize(n)) {
    const size = run(n);
    if (size.point !== undefined) cheapest = cheaper(cheapest, size.point);
  }
  const visit = (n: number): void => {
    const size = run(n);
    if (size.point !== undefined) cheapest = cheaper(cheapest!, size.point);
  };
  // The replicas' multiples until the cheapest holds, then the window beside it; again where the window moved it.
  for (let windowed: P | undefined; windowed !== cheapest;) {
    for (let around: P | undefined; around !== cheapest;) {
      around = cheapest;
      const shapes = done(cheapest).points.slice().sort((a, b) => a.gpuHours - b.gpuHours || a.nodes - b.nodes)
        .filter((p, i, all) => all.findIndex((o) => replicaUnit(o) === replicaUnit(p)) === i).slice(0, REPLICA_SHAPES);
      for (const shape of shapes) {
        // The shape's own replica, and its neighbours' of half and twice its GPUs.
        for (const replicaGpus of [shape.replicaGpus, shape.replicaGpus / 2, 2 * shape.replicaGpus].filter(Number.isInteger)) {
          const unit = replicaUnit({ ...shape, replicaGpus });
          const first = Math.ceil(low / unit) * unit;
          for (let n = first; n <= CLIMB_PAST_CHEAPEST * cheapest.nodes && n < first + REPLICA_MULTIPLES * unit; n += unit) visit(n);
        }
      }
    }
    windowed = cheapest;
    const unit = groupUnit(windowed);
    const high = Math.min(LADDER_MAX_NODES, windowed.nodes + LADDER_WINDOW);
    for (let n = Math.ceil(Math.max(low, windowed.nodes - LADDER_WINDOW) / unit) * unit; n <= high; n += unit) visit(n);
  }
  return done(cheapest);
}
