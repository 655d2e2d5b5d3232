import { validateNodesBody as validateAtDefaultBatch, type NodesBody } from '@trainplan/ask';
import type { FieldIssue } from '@trainplan/protocol';
import { withUptimeHint } from './nodes-extensions.ts';
import { hoistTrainingTokens, withTrainingTokensHint } from './nodes-training-tokens.ts';

/**
 * POST /v1/nodes without training.globalBatchSize, planned as the CLI plans `trainplan nodes` without --global-batch
 * and as the chat bot does: each cluster size at the default batch a question about that size alone takes, so that an
 * API user gets the CLI's and the bot's headline numbers for the same question (QA: 15T tokens of Llama 3 70B on H100
 * within 5.7M GPU-hours was a 400 here and an answer there). The filling and the per-size planning are @trainplan/ask's
 * (nodes-default-batch.ts), which `trainplan nodes --input` calls too, so one body answers alike on both; what is the
 * API's own is reading an estimate's training.tokens as the budget and the hints on its refusals.
 */

export type { AssumedGlobalBatch, BatchInputs, NodesAnswer, NodesBody } from '@trainplan/ask';
export { runNodesBody } from '@trainplan/ask';

/**
 * Validates a nodes request as @trainplan/ask's validateNodesBody does (an omitted batch filled with the default where
 * the model is a preset id), after reading an estimate's training.tokens as the budget (hoistTrainingTokens), with the
 * API's hints on the uptime and token fields where it is refused.
 */
export function validateNodesBody(sent: unknown): { ok: true; value: NodesBody } | { ok: false; issues: FieldIssue[] } {
  const body = hoistTrainingTokens(sent);
  const v = validateAtDefaultBatch(body);
  return v.ok ? v : { ok: false, issues: withTrainingTokensHint(withUptimeHint(v.issues), body) };
}
