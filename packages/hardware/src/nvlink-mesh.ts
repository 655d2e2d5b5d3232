import type { IntraNodeKind } from './types.ts';

/**
 * NVLinks joining each pair of GPUs of a DGX-1 with V100 (the "hybrid cube-mesh"): a cube with a
 * GPU at each corner, all twelve edges connected and two opposite faces with their diagonals too,
 * eight of the sixteen pairs doubled so that each GPU uses its six NVLink2 ports (NVIDIA DGX-1 With
 * Tesla V100 System Architecture whitepaper, WP-08437-002, "DGX-1 NVLink Network Topology").
 * GPU numbering as `nvidia-smi topo -m` prints it on a DGX-1V: GPU0 NV1 to GPU1 and GPU2, NV2 to
 * GPU3 and GPU4, SYS (no NVLink) to GPU5–7; GPUs 0–3 and 4–7 are each fully connected, and GPU i
 * joins GPU i + 4. Entries: [gpu, gpu, links].
 */
const DGX1_HYBRID_CUBE_MESH: readonly (readonly [number, number, number])[] = [
  [0, 1, 1], [0, 2, 1], [0, 3, 2], [0, 4, 2],
  [1, 2, 2], [1, 3, 1], [1, 5, 2],
  [2, 3, 2], [2, 6, 1],
  [3, 7, 1],
  [4, 5, 1], [4, 6, 1], [4, 7, 2],
  [5, 6, 2], [5, 7, 1],
  [6, 7, 2],
];

/** One table per node size, shared by every caller (callers only read it). */
const built = new Map<number, Uint8Array>();

/**
 * NVLinks between local GPUs a and b at `a * gpusPerNode + b` (0: no direct link), for a node whose
 * GPUs are joined directly rather than through NVSwitch; null when every GPU reaches every other
 * through a switch. A node using fewer GPUs than the mesh holds keeps the links among those it uses.
 */
export function nvlinkPeerLinks(kind: IntraNodeKind, gpusPerNode: number): Readonly<Uint8Array> | null {
  if (kind === 'nvswitch') return null;
  const cached = built.get(gpusPerNode);
  if (cached) return cached;
  const links = new Uint8Array(gpusPerNode * gpusPerNode);
  for (const [a, b, count] of DGX1_HYBRID_CUBE_MESH) {
    if (a >= gpusPerNode || b >= gpusPerNode) continue;
    links[a * gpusPerNode + b] = count;
    links[b * gpusPerNode + a] = count;
  }
  built.set(gpusPerNode, links);
  return links;
}
