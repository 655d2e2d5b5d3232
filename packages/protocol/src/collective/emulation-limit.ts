import { sizeCount } from './sweep.ts';
import type { CollectiveRequest } from './collective-schema.ts';

/**
 * The most (nodes × sizes) one request may emulate on a server (runCollective's default: the API, the chat
 * bots). Measured on this repository's 2-core machine (test/fuzz found it): about 2–7 ms per node per emulated
 * size (all-reduce, auto or hierarchical), so 256 node-sizes stay near a second (e.g. one size on 256 nodes, or
 * the 32-size sweep on 8), where a server's request should. The emulator's event budget bounds the work of the
 * whole sweep (events, flows in flight and flow–link visits); this keeps a shared server's requests short. The
 * CLI, which spends only its user's CPU, lifts it (RunCollectiveOptions): its event budget is the bound there.
 */
export const MAX_EMULATED_NODE_SIZES = 256;

/** The node-sizes a request would emulate (0 without emulate). */
export const emulatedNodeSizes = (r: Pick<CollectiveRequest, 'emulate' | 'nodes' | 'size' | 'sizes'>): number =>
  (r.emulate ? r.nodes * sizeCount(r) : 0);
