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

/** What the pair table depends on: how the node is wired, how many GPUs it holds, and each GPU's NVLink count. */
export interface NvlinkNode {
  readonly intraNode: IntraNodeKind;
  readonly gpusPerNode: number;
  readonly nvlinkCount: number;
}

/** One table per (kind, node size, links per pair), shared by every caller (callers only read it). */
const built = new Map<string, Uint8Array>();

/**
 * NVLinks between local GPUs a and b at `a * gpusPerNode + b` (0: no direct link), for a node whose
 * GPUs are not joined through NVSwitch: the DGX-1 hybrid cube-mesh; a full mesh ('nvlink-full-mesh'),
 * every pair joined by ⌊nvlinkCount / (gpusPerNode − 1)⌋ links (a quad GH200 node: 18 / 3 = 6 per pair,
 * JSC's "300 GB/s between pairs of GPUs (150 GB/s per direction)" = 6 × 25 GB/s); or a PCIe-only node,
 * whose table is all zeros (no GPU pair has an NVLink; every peer path is PCIe through the host or a PCIe
 * switch: a 2-GPU NVLink bridge is not modelled). Null when every GPU reaches every other through an
 * NVSwitch. A node using fewer GPUs than the DGX-1 mesh holds keeps the links among those it uses.
 */
export function nvlinkPeerLinks(node: NvlinkNode): Readonly<Uint8Array> | null {
  const { intraNode: kind, gpusPerNode: g } = node;
  let perPair = 0;
  switch (kind) {
    case 'nvswitch':
      return null;
    case 'nvlink-full-mesh':
      perPair = g > 1 ? Math.floor(node.nvlinkCount / (g - 1)) : 0;
      break;
    case 'nvlink-hybrid-cube-mesh':
    case 'pcie':
      break;
    default:
      return unknownKind(kind);
  }
  const key = `${kind}:${g}:${perPair}`;
  const cached = built.get(key);
  if (cached) return cached;
  const links = new Uint8Array(g * g);
  if (kind === 'nvlink-hybrid-cube-mesh') {
    for (const [a, b, count] of DGX1_HYBRID_CUBE_MESH) {
      if (a >= g || b >= g) continue;
      links[a * g + b] = count;
      links[b * g + a] = count;
    }
  } else if (kind === 'nvlink-full-mesh') {
    for (let a = 0; a < g; a++) for (let b = 0; b < g; b++) if (a !== b) links[a * g + b] = perPair;
  }
  built.set(key, links);
  return links;
}

/** Exhaustiveness: a new IntraNodeKind fails to compile here until nvlinkPeerLinks handles it. */
function unknownKind(kind: never): never {
  throw new Error(`unknown intra-node kind ${String(kind)}`);
}
