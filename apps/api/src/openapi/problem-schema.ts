import { array, boolean, enumOf, integer, jsonSchemaDocument, number, object, optional, string } from '@trainplan/protocol';

/**
 * The error body of apps/api/src/http/problems.ts and protocol's problemDetails, in the toolkit: RFC 9457 §3.1's members
 * and, per status, the extension members (§3.2) the API adds. Unknown members are stripped, not refused, as §3.2 asks a
 * client to ignore the extensions it does not know.
 */
export const problemJsonSchema = jsonSchemaDocument(object({
  type: string({ description: 'A URI naming the problem type, or about:blank.' }),
  title: string(),
  status: integer({ min: 400, max: 599 }),
  detail: string({ description: 'What went wrong, for humans.' }),
  issues: optional(array(object({ path: string(), message: string() }), { description: 'For 400: each offending field by its JSON path.' })),
  instance: optional(string({ description: "For 500: this occurrence's id (urn:uuid:…), which the server logged with the error: quote it in a report." })),
  limitBytes: optional(integer({ min: 0, description: 'For 413: the most bytes a body may have.' })),
  limit: optional(string({ description: 'For 422: the work limit the request would exceed (e.g. nodes, emulatedGpus, pipelineStages, eventBudget, candidateBudget).' })),
  max: optional(number({ min: 0, description: 'For 422: that limit\'s value.' })),
  requested: optional(number({ min: 0, description: 'For 422: what the request asked for: exactly, or at least this when requestedIsLowerBound is true.' })),
  requestedIsLowerBound: optional(boolean({ description: 'For 422 over the event budget: requested is a lower bound (the emulation was stopped at the budget, or counted before running), not the whole need.' })),
  allow: optional(array(string(), { description: 'For 405: the methods the path answers, as the Allow header lists them.' })),
  retryAfterSeconds: optional(integer({ min: 0, description: 'For 503: the seconds to wait before asking again, as the Retry-After header says them.' })),
  ok: optional(boolean({ description: 'For 400: false, with reason and message: the scenario contract\'s invalid answer, as the CLI prints it and an array\'s slot holds it.' })),
  reason: optional(enumOf(['invalid'], { description: 'For 400: the contract\'s reason, "invalid".' })),
  message: optional(string({ description: 'For 400: the first issues on one line, as the contract\'s invalid answer says them.' })),
}, { unknownKeys: 'strip', description: 'RFC 9457 problem details.' }));
