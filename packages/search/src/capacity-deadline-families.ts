import type { Candidate, SearchBase } from './candidate.ts';
import { REPLICA_SCAN_CONFIRMS, replicaFamily, shapeKey } from './capacity-replicas.ts';
import { MAX_NODES } from './capacity-limits.ts';
import { meetsGoal, type CapacityOptions, type Sizer } from './capacity-sizer.ts';
import type { CapacityGoal, CapacityPoint } from './capacity-types.ts';

/** Rounds of family scans a deadline's search runs: each seeds from the fastest sizes found so far, new shapes only. */
export const DEADLINE_FAMILY_ROUNDS = 4;

/**
 * Rounds below an answer the powers of two and the bisection found (fewestOn's refinement): one, from the fastest sizes'
 * shapes, so that a deadline met by a power of two costs little more (Llama 3 70B on H100, 15T tokens, 30 days: 1.7 s
 * before, 2.9 s with four rounds, about 2 s with one).
 */
export const DEADLINE_REFINE_ROUNDS = 1;

/** Distinct shapes (of the fastest sizes found) whose families, and their neighbours' (familyShapes), a round scans. */
export const DEADLINE_SEED_SHAPES = 2;

/**
 * A shape and its neighbours: twice or half the context or tensor parallelism (as the time–cost curve's gap filling takes
 * them), and every other pipeline depth that cuts the model into as many chunks (p · v the same, so each chunk holds as
 * many layers and the split stays valid). A fixed batch with few factors of two runs only where the data-parallel size
 * divides it, so the fastest sizes take model-parallel shapes no power of two holds (QA: Llama 3 70B on H100 at 8,190
 * sequences: 8,190 nodes of TP 2 · PP 10 · CP 4 · v 8 take 3.66 days, while every power of two runs PP 16 · CP 8 and the
 * fastest of those takes 59.4 days); a chunk count held, the depth moves the replica's node count (PP 8 · v 5 → PP 10 ·
 * v 4: 8 → 10 nodes) and with it the sizes its family reaches. A shape that is no plan is dropped by its estimate.
 */
export function familyShapes(c: Candidate): Candidate[] {
  const halved = (n: number): number[] => (n % 2 === 0 ? [n / 2] : []);
  const chunks = c.pipeline * c.virtualStages;
  const depths: Candidate[] = [];
  for (let p = 1; p <= chunks; p++) {
    if (chunks % p === 0 && p !== c.pipeline) depths.push({ ...c, pipeline: p, virtualStages: chunks / p });
  }
  return [
    c,
    { ...c, context: 2 * c.context }, ...halved(c.context).map((context) => ({ ...c, context })),
    { ...c, tensor: 2 * c.tensor }, ...halved(c.tensor).map((tensor) => ({ ...c, tensor })),
    ...depths,
  ];
}

/** A family member's estimate: its size and time (one estimate with the family's shape, not the size's search). */
interface Member { readonly nodes: number; readonly seconds: number }

/** What a deadline's family scans share across rounds and calls: each shape's members, estimated once. */
export type FamilyCache = Map<string, readonly Member[]>;

/** The range a family scan estimates, in nodes: from `fromNodes` to one below `belowNodes` (and MAX_NODES at most). */
interface FamilyWindow { readonly fromNodes: number; readonly belowNodes: number }

/**
 * One round of family scans: the shapes of the DEADLINE_SEED_SHAPES fastest sizes not seeded before (`seeded` gains them)
 * and their neighbours (familyShapes), each shape's members in the range estimated once (`cache`). Undefined when no size
 * runs or no new shape is left to seed from. `unsearched`: the members no size's search has run on.
 */
function familyRound(
  s: Sizer, base: SearchBase, tokens: number, options: CapacityOptions, price: number | undefined, range: FamilyWindow, cache: FamilyCache, seeded: Set<string>,
): { readonly fastest: CapacityPoint; readonly unsearched: readonly Member[]; readonly toNodes: number } | undefined {
  const toNodes = Math.min(MAX_NODES, range.belowNodes - 1);
  const byTime = s.points().sort((a, b) => a.seconds - b.seconds);
  const fastest = byTime[0];
  if (fastest === undefined || toNodes < range.fromNodes) return undefined;
  const seeds: Candidate[] = [];
  for (const p of byTime) {
    if (seeds.length >= DEADLINE_SEED_SHAPES) break;
    const key = shapeKey(p.plan.candidate);
    if (seeded.has(key)) continue;
    seeded.add(key);
    seeds.push(p.plan.candidate);
  }
  if (seeds.length === 0) return undefined;
  const members: Member[] = [];
  for (const shape of seeds.flatMap(familyShapes)) {
    const key = shapeKey(shape);
    let family = cache.get(key);
    if (family === undefined) {
      family = replicaFamily(base, tokens, shape, {}, options, price, { fromNodes: range.fromNodes, toNodes })
        .map(({ nodes, seconds }) => ({ nodes, seconds }));
      cache.set(key, family);
    }
    members.push(...family.filter((m) => m.nodes >= range.fromNodes && m.nodes <= toNodes));
  }
  // The sizes searched, gathered once: s.points() builds its list afresh, and a family has hundreds of members.
  const searched = new Set(byTime.map((p) => p.nodes));
  const unsearched = members.filter((m) => !searched.has(m.nodes) && s.noPlan(m.nodes) === undefined);
  return { fastest, unsearched, toNodes };
}

/**
 * The fewest nodes below `belowNodes` that meet `goal` among the replica families (replicaFamily) of the fastest sizes'
 * shapes and their neighbours (familyShapes), each member estimated once and the fewest members whose estimate meets the
 * goal searched in full (REPLICA_SCAN_CONFIRMS of them a round); while none is found, the fastest members that beat the
 * fastest size found are searched too, so that the next round seeds from their shapes. Rounds (DEADLINE_FAMILY_ROUNDS)
 * stop when one finds a size meeting the goal, or no new shape is left to seed from. Only sizes from `fromNodes` (the
 * peak-FLOPs floor: fewer cannot meet the deadline at 100% MFU) are estimated, so a family costs one estimate a member
 * in that range (about a twentieth of a size's search each). The fastest-sizes seeding is the budget's replica scan's
 * (scanReplicaFamilies); a deadline asks the families for the fewest that meet it rather than the fastest within it.
 */
export function fewestInFamilies(
  s: Sizer, base: SearchBase, tokens: number, goal: CapacityGoal, options: CapacityOptions,
  range: FamilyWindow, cache: FamilyCache, rounds = DEADLINE_FAMILY_ROUNDS,
): CapacityPoint | undefined {
  const seeded = new Set<string>();
  let fewest: CapacityPoint | undefined;
  for (let round = 0; round < rounds && fewest === undefined; round++) {
    const r = familyRound(s, base, tokens, options, goal.pricePerGpuHour, range, cache, seeded);
    if (r === undefined) return undefined;
    const meeting = r.unsearched.filter((m) => m.seconds <= (goal.deadlineSeconds ?? Infinity)).sort((a, b) => a.nodes - b.nodes);
    const faster = r.unsearched.filter((m) => m.seconds < r.fastest.seconds).sort((a, b) => a.seconds - b.seconds);
    const confirm = [...new Set([...meeting.slice(0, REPLICA_SCAN_CONFIRMS), ...faster.slice(0, REPLICA_SCAN_CONFIRMS)].map((m) => m.nodes))];
    for (const nodes of confirm) {
      const point = s.at(nodes);
      if (point && nodes <= r.toNodes && meetsGoal(point, goal) && (fewest === undefined || nodes < fewest.nodes)) fewest = point;
    }
  }
  return fewest;
}

/**
 * fewestInFamilies's rounds with no goal: each searches in full the REPLICA_SCAN_CONFIRMS members whose estimate beats the
 * fastest size found, for DEADLINE_FAMILY_ROUNDS rounds, until a round finds no faster size or no new shape is left.
 * What it searches depends on no deadline, so that a deadline no size meets is answered with the same fastest size
 * whichever deadline was asked (QA: Llama 3 70B on H100, 15T tokens: 1 day answered 8,192 nodes in 3.8 days, 3 days
 * 8,190 nodes in 3.7). A size that meets a deadline is among those it searches when any family member's estimate does:
 * the fastest member's search, a search over a space that holds the member's own plan, is no slower than that estimate.
 */
export function fastestInFamilies(
  s: Sizer, base: SearchBase, tokens: number, options: CapacityOptions, price: number | undefined,
  range: FamilyWindow, cache: FamilyCache, rounds = DEADLINE_FAMILY_ROUNDS,
): void {
  const seeded = new Set<string>();
  for (let round = 0; round < rounds; round++) {
    const r = familyRound(s, base, tokens, options, price, range, cache, seeded);
    if (r === undefined) return;
    const faster = r.unsearched.filter((m) => m.seconds < r.fastest.seconds).sort((a, b) => a.seconds - b.seconds);
    for (const m of faster.slice(0, REPLICA_SCAN_CONFIRMS)) s.at(m.nodes);
    // No size searched this round beat the fastest: the next round's seeds are shapes of slower sizes (scanReplicaFamilies
    // stops there too). Llama 3 70B on H100, 15T tokens: 3 sizes searched in round 1, none faster than 8,190 nodes; the
    // three rounds more took as long as the window and round 1 together and searched nothing.
    if (fastestOf(s.points()) === r.fastest) return;
  }
}

/** The size searched with the shortest time to train, the first searched on a tie (as familyRound's sort puts it first). */
const fastestOf = (points: readonly CapacityPoint[]): CapacityPoint | undefined =>
  points.reduce<CapacityPoint | undefined>((a, p) => (a === undefined || p.seconds < a.seconds ? p : a), undefined);
