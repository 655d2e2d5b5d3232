import { runInference, type InferenceResponseJson } from '../../src/index.ts';
import type { FieldIssue } from '../../src/wire.ts';

export type InferenceOk = Extract<InferenceResponseJson, { ok: true }>;

/** runInference's answer to a request that must be served, or a failed test naming why it was refused. */
export function served(body: object): InferenceOk {
  const a = runInference(body);
  if (!a.ok) throw new Error(a.message);
  return a;
}

/** The issues runInference finds with a request: none when it answers. */
export function inferenceIssues(body: object): FieldIssue[] {
  const a = runInference(body);
  return a.ok ? [] : a.issues;
}
