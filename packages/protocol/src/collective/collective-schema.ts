/**
 * The wire shape of one collective request (POST /v1/collective, `trainplan collective --json`):
 * an op, a machine (GPU or system preset id), a node count, an algorithm, the sizes, and whether to
 * run the discrete-event emulator. Built with the schema toolkit, so the same definition validates
 * (with JSON paths) and publishes a JSON Schema.
 */
import { formatBytes, million, TiB } from '@trainplan/units';
import { array } from '../schema/compose.ts';
import { object, optional, withDefault } from '../schema/object.ts';
import { boolean, enumOf, integer, number, string } from '../schema/scalars.ts';
import type { JsonSchema, Schema } from '../schema/types.ts';
import { jsonSchemaDocument, validate } from '../schema/validate.ts';
import type { FieldIssue } from '../wire.ts';

export const COLLECTIVE_OPS = [
  'all-reduce', 'all-gather', 'reduce-scatter', 'broadcast', 'reduce', 'all-to-all', 'send-recv',
] as const;
export const COLLECTIVE_ALGORITHMS = ['auto', 'ring', 'tree', 'nvls', 'nvls-tree', 'pat', 'hierarchical', 'collnet-direct', 'collnet-chain'] as const;

/** The largest message one request may ask about: 1 TiB, far past any GPU's memory (a hostile-input guard). */
export const MAX_COLLECTIVE_BYTES = TiB(1);
/** The most sizes one request may list. */
export const MAX_COLLECTIVE_SIZES = 64;
/** The most nodes: 65,536 (524,288 GPUs of 8), beyond any machine built. */
export const MAX_COLLECTIVE_NODES = 65_536;

export interface CollectiveRequest {
  op: (typeof COLLECTIVE_OPS)[number];
  gpu?: string;
  system?: string;
  network?: string;
  nodes: number;
  gpusPerNode?: number;
  concurrentGroups?: number;
  algorithm: (typeof COLLECTIVE_ALGORITHMS)[number];
  size?: number;
  sizes?: number[];
  emulate: boolean;
  collnet?: boolean;
  oversubscription?: number;
  eventBudget?: number;
}

const presetId = (description: string): Schema<string> => string({ minLength: 1, maxLength: 64, description });
/** Whole bytes: a message is a count of them. */
const size = (description: string): Schema<number> =>
  integer({ min: 1, max: MAX_COLLECTIVE_BYTES, description, unit: 'bytes', boundText: formatBytes });

export const collectiveRequestSchema: Schema<CollectiveRequest> = object({
  op: enumOf(COLLECTIVE_OPS, { description: 'The collective, nccl-tests size conventions (collectives-reference §2).' }),
  gpu: optional(presetId("GPU preset id, e.g. h100-sxm; its usual DGX-class system is used. Give this or system.")),
  system: optional(presetId('System preset id, e.g. dgx-h100. Give this or gpu.')),
  network: optional(presetId("Inter-node fabric preset id; default: the system's.")),
  nodes: withDefault(integer({ min: 1, max: MAX_COLLECTIVE_NODES, description: 'Nodes taking part.' }), 1),
  gpusPerNode: optional(integer({ min: 1, max: 1024, description: "GPUs of each node taking part; default: all of the system's." })),
  concurrentGroups: optional(integer({
    min: 1, max: 1024,
    description: 'Sibling groups running the same collective at once on the same nodes, each with gpusPerNode GPUs of every node, '
      + 'sharing its NICs and switches (the 8 data-parallel rings of a TP-8 job: gpusPerNode 1, concurrentGroups 8). Default 1.',
  })),
  algorithm: withDefault(enumOf(COLLECTIVE_ALGORITHMS, {
    description: "'auto' takes NCCL's fastest predicted (algorithm, protocol); a named one is forced.",
  }), 'auto'),
  size: optional(size('One message size in bytes (nccl-tests "size"). Give this, sizes, or neither for the sweep 8 B … 16 GiB by ×2.')),
  sizes: optional(array(size('A message size in bytes.'), { minItems: 1, maxItems: MAX_COLLECTIVE_SIZES })),
  emulate: withDefault(boolean({ description: 'Also run the discrete-event emulator over the topology graph.' }), false),
  collnet: optional(boolean({
    description: 'Turn CollNet on (NCCL_COLLNET_ENABLE=1, SHARP plugin loaded): all-reduce may then reduce in the InfiniBand switches '
      + '(CollNetDirect, CollNetChain, NVLS across nodes) where NCCL\'s tuner picks them. Off by default, as in NCCL; refused on a network '
      + 'without in-network reduction.',
  })),
  oversubscription: optional(number({ min: 1, max: 64, description: 'Fat-tree leaf oversubscription for the emulator (1: non-blocking).' })),
  eventBudget: optional(integer({ min: 1, max: million(100), description: 'Most events the emulator may process for this request.' })),
}, {
  expected: 'a collective request object',
  description: 'One collective on a machine of presets, costed by the closed form and optionally emulated.',
  refine(raw, issue) {
    if ((raw.gpu === undefined) === (raw.system === undefined)) {
      issue('gpu', `give either gpu or system, ${raw.gpu === undefined ? 'got neither' : 'not both'}`);
    }
    if (raw.size !== undefined && raw.sizes !== undefined) issue('sizes', 'give either size or sizes, not both');
  },
  jsonSchema: {
    allOf: [
      { oneOf: [{ required: ['gpu'] }, { required: ['system'] }] },
      { not: { required: ['size', 'sizes'] } },
    ],
  },
});

export const collectiveRequestJsonSchema: JsonSchema = /* @__PURE__ */ jsonSchemaDocument(collectiveRequestSchema, {
  id: 'https://trainplan.dev/schemas/collective-request.json', title: 'Collective request',
});

export type CollectiveValidation = { ok: true; value: CollectiveRequest } | { ok: false; issues: FieldIssue[] };

/**
 * Validates a collective request and fills in its defaults. Never throws. An op or algorithm that is a slip of a
 * known one is refused naming it, as every enumerated field is (schema enumOf: "op: expected one of …, got
 * "allreduce" (did you mean all-reduce?)").
 */
export function validateCollectiveRequest(value: unknown): CollectiveValidation {
  return validate(collectiveRequestSchema, value);
}
