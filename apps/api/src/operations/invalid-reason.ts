import { MAX_CLUSTER_NODES } from '@trainplan/protocol';
import { formatGrouped } from '@trainplan/units';

/**
 * When `reason: "invalid"` is a 200 and when a 400, as each POST operation's description says it (QA: the spec said
 * neither). The scenario contract answers a scenario it cannot run with ok: false and the reason, so an id no preset
 * catalogue has, which only the catalogue can judge, is such an answer (README: "an unknown preset id … is reason:
 * "invalid" with an issues list like the 400's"); a body that is no request at all is RFC 9110 §15.5.1's 400, whose
 * problem (problems.ts invalidInput) carries the same ok: false and reason.
 */
export const INVALID_REASON_TEXT = 'The reason "invalid" comes back as a 200 answer or as a 400 problem. A well-formed request naming an '
  + 'id no preset catalogue has (a GPU, system, network or model id, e.g. "a100-81gb") is a 200 answer, ok: false with reason '
  + '"invalid" and its issues; so are settings the planner refuses, together or on the GPU, each issue with the rule broken '
  + '(rule): precision-unsupported (BF16 or FP8 on a GPU without it), zero-with-pipeline (ZeRO-2 or 3 with a pipeline), '
  + 'fp8-params-needs-fp8 and fp8-params-needs-distributed-optimizer (fp8Params without FP8 or without the distributed '
  + 'optimizer), tp-overlap-needs-sequence-parallel, recompute-layers-needs-full (recomputeLayers without recompute "full") '
  + 'and the like. A body that breaks the request schema (a field missing, of the wrong type or out of range, cluster.gpus '
  + `past ${formatGrouped(MAX_CLUSTER_NODES)} of the machine's nodes included) is a 400 problem, which says ok: false and reason "invalid" too.`;
