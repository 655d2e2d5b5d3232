import type { Hono } from 'hono';
import { readBody } from '../http/read-body.ts';
import { invalidInput, overBudget } from '../http/problems.ts';
import { respond } from '../http/respond.ts';
import type { PostOperation } from '../operations/operation.ts';

/** Each operation as a POST route: read (JSON or MessagePack) → validate (400) → run → 200 or 422. */
export function postOperationRoutes(app: Hono, operations: readonly PostOperation[]): void {
  for (const op of operations) {
    app.post(op.path, async (c) => {
      const body = await readBody(c, op.subject);
      if (!body.ok) return body.response;
      const valid = op.validate(body.value);
      if (!valid.ok) return invalidInput(valid.issues, op.subject);
      const result = op.run(valid.value);
      if ('overBudget' in result) return overBudget(result.overBudget.detail, result.overBudget.limit);
      return respond(c, result.answer);
    });
  }
}
