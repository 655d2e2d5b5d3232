import { batchAsSequencesWarning } from '@trainplan/protocol';
import { modelById } from '@trainplan/presets';
import type { CliIo } from './io.ts';
import type { RequestIo } from './request-command.ts';

/** A batch batchAsSequencesWarning judges: sequences, tokens per sequence, and the tokens to train where the request gives them. */
export type BatchToWarn = Parameters<typeof batchAsSequencesWarning>[0];

/**
 * The warning that a batch given reads as a token count typed as sequences (protocol's batchAsSequencesWarning:
 * `--global-batch 4M` meaning "4M tokens" is 4,000,000 sequences), in flag terms where flags built the request. One
 * policy for nodes, search and scale, which all take --global-batch (QA: `search --global-batch 4M` planned a 6.21 h step
 * unsaid where nodes warned). Undefined for a plausible batch, or none (a batch assumed by default is never a mistyped one:
 * the caller passes none then).
 */
export function batchWarning(io: RequestIo, batch: BatchToWarn | undefined): string | undefined {
  const warning = batch && batchAsSequencesWarning(batch);
  return warning === undefined ? undefined : io.inFlagTerms?.(warning) ?? warning;
}

type Json = Readonly<Record<string, unknown>>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const positive = (x: unknown): number | undefined => (typeof x === 'number' && x > 0 ? x : undefined);

/**
 * The batch a search or scale request asks for (with --weak, the first listed size's, the one given): its
 * training.globalBatchSize, at training.seqLength or else the model's (the contract: `training.seqLength` may override
 * the model's; a preset id's from its shape, a shape's its own), and training.tokens where given. Undefined where the
 * request does not say them (the schema names what is wrong with it).
 */
export function requestBatch(request: unknown): BatchToWarn | undefined {
  if (!isObject(request) || !isObject(request.training)) return undefined;
  const { training, model } = request;
  const globalBatchSize = positive(training.globalBatchSize);
  const seqLength = positive(training.seqLength)
    ?? (typeof model === 'string' ? modelById(model)?.shape.seqLength : isObject(model) ? positive(model.seqLength) : undefined);
  const tokens = positive(training.tokens);
  return globalBatchSize === undefined || seqLength === undefined ? undefined : { globalBatchSize, seqLength, ...(tokens !== undefined && { tokens }) };
}

/** The report's line for the warning: under the batch it is about, marked as the report marks warnings. */
export const batchWarningLines = (warning: string | undefined): string[] => (warning === undefined ? [] : [`  ⚠ ${warning}`]);

/** The warning where no report carries it (--json, --export): on stderr, so that stdout stays the answer alone. */
export function printBatchWarning(io: CliIo, warning: string | undefined): void {
  if (warning !== undefined) io.stderr(`trainplan: warning: ${warning}\n`);
}
