/**
 * The answer to POST /v1/collective (`CollectiveResponseJson` in collective-response.ts) as one
 * toolkit schema: the JSON Schema /openapi.json publishes, and a validator for clients and for the
 * tests that hold the code's answers to it.
 *
 * Like the estimate, answers strip unknown keys rather than refuse them: the project may add output
 * fields, and a client built against an older document must keep reading newer answers.
 */
import { array, union } from '../schema/compose.ts';
import { object, optional } from '../schema/object.ts';
import { boolean, enumOf, integer, literal, number, string } from '../schema/scalars.ts';
import type { JsonSchema, Schema } from '../schema/types.ts';
import { jsonSchemaDocument, validate, type Validation } from '../schema/validate.ts';
import { fieldIssueSchema } from '../estimate-schema.ts';
import { COLLECTIVE_ALGORITHMS, COLLECTIVE_OPS } from './collective-schema.ts';
import type { CollectiveResponseJson } from './collective-response.ts';

const open = { unknownKeys: 'strip' } as const;
const seconds = (description: string) => number({ min: 0, description: `${description}, in seconds.` });
const gigabytesPerSecond = (description: string) => number({ min: 0, description: `${description}, in GB/s (10^9 bytes per second).` });
const count = (description: string) => integer({ min: 1, description });
// The cost model's names (packages/collectives Algorithm, Protocol); kept open as the wire type is.
const algorithmRan = string({ description: 'The algorithm that ran: ring, tree, nvls, nvls-tree, pat, hierarchical, direct, ….' });
const protocolRan = string({ description: "NCCL's protocol: LL, LL128 or Simple." });

const link = object({
  link: string({ description: 'The link, e.g. "node0.gpu3 → nvswitch0".' }),
  kind: string({ description: 'The kind of link (NVLink, PCIe, NIC, fabric, …).' }),
  utilisation: number({ min: 0, description: 'Bytes carried over the run divided by bandwidth × run time, a ratio.' }),
  bytes: number({ min: 0, description: 'Bytes carried over the run.' }),
  bandwidthGBps: gigabytesPerSecond("The link's bandwidth"),
}, { ...open, description: 'One link of the topology graph and how busy the run kept it.' });

const emulated = object({
  seconds: seconds('Emulated time of the collective'),
  algbwGBps: gigabytesPerSecond('Algorithm bandwidth: bytes / seconds'),
  busbwGBps: gigabytesPerSecond("Bus bandwidth: algbw times nccl-tests' factor for the op"),
  algorithm: algorithmRan,
  protocol: protocolRan,
  mode: enumOf(['full', 'symmetric'], { description: "'full': one flow per rank per step per channel; 'symmetric': one per edge class." }),
  events: integer({ min: 0, description: 'Emulator events spent.' }),
  bottleneckLink: link,
  links: array(link, { maxItems: 8, description: 'The busiest links, most utilised first.' }),
  differenceFromClosedForm: number({ description: 'Emulated time / closed-form time − 1.' }),
}, { ...open, description: "With emulate: true, the discrete-event emulator's answer for the same size." });

const row = object({
  bytes: number({ min: 0, description: 'Message size, in bytes.' }),
  seconds: seconds("Time of the collective (NCCL's cost model)"),
  algbwGBps: gigabytesPerSecond('Algorithm bandwidth: bytes / seconds'),
  busbwGBps: gigabytesPerSecond("Bus bandwidth: algbw times nccl-tests' factor for the op"),
  algorithm: algorithmRan,
  protocol: protocolRan,
  emulated: optional(emulated),
}, { ...open, description: 'One size, nccl-tests columns.' });

/** The topology graph as data (summariseTopology): counts, and links grouped by kind, bandwidth and latency. */
const topologyGraph = object({
  nodes: count('Nodes.'),
  gpusPerNode: count('GPUs per node.'),
  nicsPerNode: count('Compute NICs (rails) per node.'),
  leaves: count('Leaf switches.'),
  railOptimised: boolean({ description: 'NIC r of every node on a leaf of rail r.' }),
  nodesPerLeaf: count('Nodes one leaf switch holds (the last may hold fewer).'),
  oversubscription: number({ min: 1, description: 'Leaf oversubscription, down-links to up-links.' }),
  linkCount: count('Directed links.'),
  links: array(object({
    kind: string({ description: 'What the link joins (nvlink-up, host-nic, nic-leaf, leaf-spine, …).' }),
    count: count('Links of this kind, bandwidth and latency.'),
    bandwidthBytesPerSecond: number({ min: 0, description: 'Bandwidth of one link, one direction, in bytes per second.' }),
    latencySeconds: number({ min: 0, description: 'Latency of one link, in seconds.' }),
  }, { ...open, description: 'Links of one kind, bandwidth and latency.' }), { description: 'The links, grouped.' }),
}, { ...open, description: 'With emulate: true, the topology graph the emulator ran on, as data.' });

const collectiveOk = object({
  ok: literal(true),
  op: enumOf(COLLECTIVE_OPS, { description: 'The collective.' }),
  gpu: string({ description: 'GPU preset id.' }),
  system: string({ description: 'System (node) preset id.' }),
  network: string({ description: 'Inter-node fabric preset id.' }),
  nodes: count('Nodes.'),
  gpusPerNode: count('GPUs per node.'),
  ranks: count('Ranks in the group (nodes × GPUs per node).'),
  concurrentGroups: optional(count('Sibling groups that ran the same collective at once on the same nodes (when more than one).')),
  algorithm: enumOf(COLLECTIVE_ALGORITHMS, { description: "The algorithm asked for ('auto': NCCL's choice, the argmin of its tuner's predicted times; the times given are that choice as it runs)." }),
  collnet: optional(boolean({ description: 'True when the request turned CollNet on: its SHARP algorithms were weighed.' })),
  rows: array(row, { description: 'One row per size, in the order asked.' }),
  topology: optional(array(string(), { maxItems: 4096, description: 'With emulate: true, the topology the emulator ran on, as text lines.' })),
  topologyGraph: optional(topologyGraph),
  notes: array(string({ maxLength: 4096 }), { description: 'Caveats for humans.' }),
}, { ...open, expected: 'a collective answer', description: 'The collective costed at each size.' });

const collectiveError = object({
  ok: literal(false),
  reason: enumOf(['invalid', 'unavailable', 'event-budget'], {
    description: "invalid input, an algorithm the machine cannot run ('unavailable'), or an emulation past its event budget.",
  }),
  message: string({ maxLength: 4096, description: 'The reason, for humans.' }),
  issues: array(fieldIssueSchema, { description: 'Each offending field.' }),
  limit: optional(object({
    name: string({ description: 'The budget, e.g. eventBudget or emulatedNodeSizes.' }),
    value: number({ min: 0, description: 'Its value.' }),
    requested: number({ min: 0, description: 'What the request needs: exactly, or at least this when requestedIsLowerBound is true.' }),
    requestedIsLowerBound: optional(boolean({
      description: 'True when requested is a lower bound: an emulation\'s eventBudget is known before it runs only in part (events, '
        + 'flows in flight), and otherwise only by running it until it passes the budget. It needs at least requested, and more.',
    })),
  }, { ...open, description: "For 'event-budget': the limit and what the request needs." })),
}, { ...open, expected: 'a collective failure', description: 'No answer, with the reason: never a crash.' });

/** The annotation checks at compile time that the validated type is collective-response.ts's type. */
export const collectiveResponseSchema: Schema<CollectiveResponseJson> = union([collectiveOk, collectiveError], {
  expected: 'a collective answer with ok true or ok false',
});

export const collectiveResponseJsonSchema: JsonSchema = /* @__PURE__ */ jsonSchemaDocument(collectiveResponseSchema, {
  id: 'https://trainplan.dev/schemas/collective-response.json', title: 'Collective response',
});

/** Validates a collective answer read from the API; unknown (newer) fields are dropped. Never throws. */
export function validateCollectiveResponse(value: unknown): Validation<CollectiveResponseJson> {
  return validate(collectiveResponseSchema, value);
}
