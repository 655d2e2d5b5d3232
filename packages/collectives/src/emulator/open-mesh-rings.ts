import { cyclesOf, packMeshRings, rotate } from '../mesh-rings.ts';

/**
 * The emulator's rings over a direct NVLink mesh for a ring across nodes, which leaves each node from its last GPU.
 * Kept out of mesh-rings.ts, which the closed form (and the browser widget's bundle) needs only for its one-node ring
 * count.
 */

/** What an open ring's links carry at the ring graph's speed, in channels (NCCL's per-link budget, search.cc followPath). */
export interface MeshBudget {
  /** Channels a directed pair joined by `links` NVLinks carries: ⌊links × NCCL's per-link GB/s ÷ speed⌋. */
  readonly edgeChannels: (links: number) => number;
  /** Channels one GPU's host link sends out of the node: ⌊its GB/s ÷ speed⌋, at least one. */
  readonly exitChannels: number;
}

/** Rings tried before the search gives up and packs greedily (NCCL's search has a time limit too: search.cc). */
const SEARCH_STEPS = 5_000;

/**
 * One ring per channel, each from its entry GPU (`entries[c]`) to the GPU it leaves the node from, laid as NCCL's
 * search lays them within `budget`. Every channel takes its speed off each NVLink pair it crosses and off the exit GPU's
 * path to the NIC, the GPU's own PCIe link among them (src/graph/search.cc ncclTopoFollowPath; paths.cc
 * ncclTopoSetPaths), and a step whose path no longer fits is undone and the next one tried (search.cc
 * ncclTopoSearchRecGpu). Here the rings mesh-rings.ts's greedy packing would try are ranked as it ranks them — an exit
 * `exitNear` the entry where one is, then (new) the exit fewest channels leave from so far, then the least-loaded
 * busiest edge, then the least-used edges — and searched depth first: a channel whose ring would put more channels on a
 * pair's NVLinks or a GPU's host link than they carry tries the next ring, and an earlier channel its next when none
 * fits. DGX-1 on 8 NDR NICs at 12 GB/s: a single NVLink (20 GB/s) carries one channel, a doubled one (40) three, and a
 * GPU's PCIe Gen3 link (12, as NCCL counts it) one out. Greedily, GPUs 0 and 4 each sent two channels out (channel 0
 * enters at GPU 0, whose predecessor GPU 7 has no NVLink to it, so no ring of it leaves "near") and GPU 0→1's single
 * NVLink carried two, each at half speed: 63 then 80 GB/s busbw against the 96 of NCCL's graph. Where no packing fits,
 * the greedy one. Null when the GPUs have no NVLink ring through all of them, or are fewer than two.
 */
export function packOpenMeshRings(
  links: Readonly<Uint8Array>, g: number, locals: readonly number[], entries: readonly number[],
  exitNear: (entry: number, exit: number) => boolean, budget: MeshBudget,
): number[][] | null {
  if (locals.length < 2) return null;
  const cycles = cyclesOf(links, g, locals);
  if (cycles.length === 0) return null;
  const load = new Float64Array(g * g);
  const exits = new Float64Array(g);
  const rings: number[][] = [];
  const edgeCount = locals.length - 1;
  const edgeAt = (ring: readonly number[], i: number): number => (ring[i] as number) * g + (ring[i + 1] as number);
  const exitOf = (ring: readonly number[]): number => ring[ring.length - 1] as number;
  const apply = (ring: readonly number[], delta: number): void => {
    for (let i = 0; i < edgeCount; i++) load[edgeAt(ring, i)] = (load[edgeAt(ring, i)] as number) + delta;
    exits[exitOf(ring)] = (exits[exitOf(ring)] as number) + delta;
  };
  const fits = (ring: readonly number[]): boolean => {
    if ((exits[exitOf(ring)] as number) + 1 > budget.exitChannels) return false;
    for (let i = 0; i < edgeCount; i++) {
      const e = edgeAt(ring, i);
      if ((load[e] as number) + 1 > budget.edgeChannels(links[e] as number)) return false;
    }
    return true;
  };
  const ranked = (entry: number): number[][] => {
    const scored = cycles.map((cycle) => {
      const ring = rotate(cycle, entry);
      let peak = 0;
      let use = 0;
      for (let i = 0; i < edgeCount; i++) {
        const e = edgeAt(ring, i);
        peak = Math.max(peak, ((load[e] as number) + 1) / (links[e] as number));
        use += (load[e] as number) / (links[e] as number);
      }
      return { ring, exits: exits[exitOf(ring)] as number, near: exitNear(entry, exitOf(ring)), peak, use };
    });
    const anyNear = scored.some((r) => r.near);
    const miss = (r: (typeof scored)[number]): number => (anyNear && !r.near ? 1 : 0);
    const by = (a: number, b: number): number => (Math.abs(a - b) <= 1e-12 ? 0 : a - b);
    return scored
      .sort((a, b) => miss(a) - miss(b) || a.exits - b.exits || by(a.peak, b.peak) || by(a.use, b.use))
      .map((r) => r.ring);
  };
  let steps = 0;
  const search = (c: number): boolean => {
    if (c === entries.length) return true;
    for (const ring of ranked(entries[c] as number)) {
      if (!fits(ring)) continue;
      if (++steps > SEARCH_STEPS) return false;
      apply(ring, 1); rings.push(ring);
      if (search(c + 1)) return true;
      apply(ring, -1); rings.pop();
    }
    return false;
  };
  return search(0) ? rings : packMeshRings(links, g, locals, entries, true, exitNear);
}
