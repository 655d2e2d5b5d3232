import type { Hono } from 'hono';
import { readBody } from '../http/read-body.ts';
import { invalidInput, overBudget, serviceBusy } from '../http/problems.ts';
import { respond } from '../http/respond.ts';
import { runsSlow, type PostOperation, type RunInBackground } from '../operations/operation.ts';

/**
 * Each operation as a POST route: read (JSON or MessagePack) → validate (400) → run → 200 or 422. A slow request (an
 * operation's every request, or those its `slow` names: an estimate that emulates) runs through `runInBackground`
 * where the runtime gives one (503 when it is busy), else here.
 */
export function postOperationRoutes(app: Hono, operations: readonly PostOperation[], runInBackground?: RunInBackground): void {
  for (const op of operations) {
    app.post(op.path, async (c) => {
      const body = await readBody(c, op.subject);
      if (!body.ok) return body.response;
      const valid = op.validate(body.value);
      if (!valid.ok) return invalidInput(valid.issues, op.subject);
      const result = runInBackground !== undefined && runsSlow(op, valid.value) ? await runInBackground(op.path, valid.value) : op.run(valid.value);
      if ('busy' in result) return serviceBusy(result.busy.retryAfterSeconds, result.busy.stopping === true);
      if ('overBudget' in result) return overBudget(result.overBudget.detail, result.overBudget.limit);
      return respond(c, result.answer);
    });
  }
}
