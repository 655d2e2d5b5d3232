/**
 * Rings over GPUs joined by direct NVLinks (no NVSwitch), as NCCL's graph search lays them
 * (src/graph/search.cc ncclTopoCompute): every channel is a ring through the group's GPUs along
 * NVLink edges only, each channel taking one link's bandwidth on every edge it crosses, and the
 * search adds channels while every edge still has a free link. On a DGX-1 with V100 it finds the
 * six rings the whitepaper describes: the ring of doubled links both ways twice and the ring of
 * single links both ways once, all 24 links busy in both directions.
 *
 * `links` is the node's pair table (hardware nvlinkPeerLinks): links[a·g + b] NVLinks from a to b.
 */

/** Directed Hamiltonian cycles through `locals` along NVLink edges, each starting at locals[0]. */
function hamiltonianCycles(links: Readonly<Uint8Array>, g: number, locals: readonly number[]): number[][] {
  const n = locals.length;
  const cycles: number[][] = [];
  const path = [locals[0] as number];
  const used = new Set(path);
  const extend = (): void => {
    const last = path[path.length - 1] as number;
    if (path.length === n) {
      if (n === 1 || (links[last * g + (path[0] as number)] as number) > 0) cycles.push([...path]);
      return;
    }
    for (const next of locals) {
      if (used.has(next) || (links[last * g + next] as number) === 0) continue;
      path.push(next); used.add(next);
      extend();
      path.pop(); used.delete(next);
    }
  };
  extend();
  return cycles;
}

const memo = new WeakMap<Readonly<Uint8Array>, Map<string, number[][]>>();

export function cyclesOf(links: Readonly<Uint8Array>, g: number, locals: readonly number[]): number[][] {
  let byGroup = memo.get(links);
  if (!byGroup) memo.set(links, (byGroup = new Map()));
  const key = locals.join(',');
  let cycles = byGroup.get(key);
  if (!cycles) byGroup.set(key, (cycles = hamiltonianCycles(links, g, locals)));
  return cycles;
}

/** `cycle` rotated to start at `entry` (a member of it). */
export function rotate(cycle: readonly number[], entry: number): number[] {
  const at = cycle.indexOf(entry);
  return [...cycle.slice(at), ...cycle.slice(0, at)];
}

/**
 * One ring per channel: the local GPUs in ring order, starting at the channel's entry GPU (null:
 * anywhere). `open`: the ring leaves the node from its last GPU (a ring over several nodes), so the
 * edge back to the entry is not used, and the last GPU is one `exitNear` the entry where some ring
 * allows it: NCCL's search ends a channel's path at a GPU that reaches the channel's NIC, charging
 * that GPU's path to the NIC (src/graph/search.cc ncclTopoSearchRecGpu, NCCL_CROSS_NIC=0). Each
 * channel takes the cycle whose busiest edge would be the least loaded relative to its link count,
 * then the one over the least-used edges. Null when the GPUs have no NVLink ring through all of
 * them, or are fewer than two.
 */
export function packMeshRings(
  links: Readonly<Uint8Array>, g: number, locals: readonly number[], entries: readonly (number | null)[], open: boolean,
  exitNear: (entry: number, exit: number) => boolean = () => true,
): number[][] | null {
  if (locals.length < 2) return null;
  const cycles = cyclesOf(links, g, locals);
  if (cycles.length === 0) return null;
  const load = new Float64Array(g * g);
  const rings: number[][] = [];
  for (const entry of entries) {
    let best: number[] | null = null;
    let bestPeak = Number.POSITIVE_INFINITY;
    let bestUse = Number.POSITIVE_INFINITY;
    const near = open && entry !== null && cycles.some((c) => exitNear(entry, c[(c.indexOf(entry) + c.length - 1) % c.length] as number));
    for (const cycle of cycles) {
      const ring = entry === null ? cycle : rotate(cycle, entry);
      if (near && !exitNear(entry as number, ring[ring.length - 1] as number)) continue;
      const edges = open ? ring.length - 1 : ring.length;
      let peak = 0;
      let use = 0;
      for (let i = 0; i < edges; i++) {
        const e = (ring[i] as number) * g + (ring[(i + 1) % ring.length] as number);
        const cap = links[e] as number;
        peak = Math.max(peak, ((load[e] as number) + 1) / cap);
        use += (load[e] as number) / cap;
      }
      if (peak < bestPeak - 1e-12 || (Math.abs(peak - bestPeak) <= 1e-12 && use < bestUse - 1e-12)) {
        best = ring; bestPeak = peak; bestUse = use;
      }
    }
    const ring = best as number[];
    const edges = open ? ring.length - 1 : ring.length;
    for (let i = 0; i < edges; i++) {
      const e = (ring[i] as number) * g + (ring[(i + 1) % ring.length] as number);
      load[e] = (load[e] as number) + 1;
    }
    rings.push(ring);
  }
  return rings;
}

/**
 * How many one-link channels NCCL's search fits on a single node's mesh: rings are added while
 * every edge of the next one still has a free NVLink. 0 when the GPUs have no NVLink ring.
 */
export function meshRingChannels(links: Readonly<Uint8Array>, g: number, locals: readonly number[]): number {
  if (locals.length < 2) return 0;
  const cycles = cyclesOf(links, g, locals);
  if (cycles.length === 0) return 0;
  // No more channels than a GPU has links out to the group.
  const bound = Math.min(...locals.map((a) => locals.reduce((sum, b) => sum + (links[a * g + b] as number), 0)));
  let fitted = 0;
  for (let channels = 1; channels <= bound; channels++) {
    const rings = packMeshRings(links, g, locals, new Array<null>(channels).fill(null), false) as number[][];
    const load = new Map<number, number>();
    let fits = true;
    for (const ring of rings) {
      for (let i = 0; i < ring.length && fits; i++) {
        const e = (ring[i] as number) * g + (ring[(i + 1) % ring.length] as number);
        const next = (load.get(e) ?? 0) + 1;
        load.set(e, next);
        if (next > (links[e] as number)) fits = false;
      }
    }
    if (!fits) break;
    fitted = channels;
  }
  return fitted;
}
