/**
 * When `reason: "invalid"` is a 200 and when a 400, as each POST operation's description says it (QA: the spec said
 * neither). The scenario contract answers a scenario it cannot run with ok: false and the reason, so an id no preset
 * catalogue has, which only the catalogue can judge, is such an answer (README: "an unknown preset id … is reason:
 * "invalid" with an issues list like the 400's"); a body that is no request at all is RFC 9110 §15.5.1's 400, whose
 * problem (problems.ts invalidInput) carries the same ok: false and reason.
 */
export const INVALID_REASON_TEXT = 'The reason "invalid" comes back two ways: a well-formed request naming an id no preset catalogue '
  + 'has (a GPU, system, network or model id, e.g. "a100-81gb") is a 200 answer, ok: false with reason "invalid" and its issues; '
  + 'a body that breaks the request schema (a field missing, of the wrong type or out of range) is a 400 problem, which says '
  + 'ok: false and reason "invalid" too.';
