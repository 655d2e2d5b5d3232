import { askedSizeBatchNote, assumedGlobalBatch as sharedAssumedGlobalBatch, defaultBatchNote, type AssumedGlobalBatch, type DefaultBatch } from '@trainplan/ask';
import { nodesRequestSchema, nodesText, validate, type NodesResponseJson } from '@trainplan/protocol';
import { assumedBatchLine, flagBatchInputs, flagDeadlineBatchFor, flagDefaultBatch } from '../default-batch.ts';
import type { FlagValues } from '../flags.ts';
import { grouped } from '../format/count-text.ts';

/**
 * The batch `trainplan nodes` assumed without --global-batch, said twice: as the report's (or stderr's) "assumed" line in
 * flags, and as the `assumedGlobalBatch` field of --json in the request's fields, the field POST /v1/nodes adds to an
 * answer whose request omits training.globalBatchSize (apps/api nodes-default-batch.ts, documented in /openapi.json). QA:
 * `nodes --model llama3-70b --gpu h100-sxm --tokens 15T --gpu-hours 5.7M --json` lacked the field the API's answer to the
 * same question carries, so a script reading it got it from one and not the other.
 */

/** Which batch the size a deadline, a budget or the curve answered (or its closest) took, as @trainplan/ask says it. */
interface SizeTook {
  readonly nodes: number;
  /** The batch its plan took. */
  readonly used: number;
  /** The size's own default (what `--nodes N` takes there). */
  readonly own: DefaultBatch;
  readonly took: ReturnType<ReturnType<typeof flagDeadlineBatchFor>['said']>;
}

/** The size an answer names (its own, or the closest's where the goal was missed), and the batch it took; undefined where it names none. */
function sizeTook(v: FlagValues, a: NodesResponseJson): SizeTook | undefined {
  // A refusal (tokens under one step) was checked at the batch asked with no size: it names no size.
  const nodes = a.ok ? a.nodes : a.reason === 'invalid' ? undefined : a.closest?.nodes;
  if (nodes === undefined) return undefined;
  const batchFor = flagDeadlineBatchFor(v);
  // The closest's plan carries the batch it took, as the answer's does; the batch that size is searched at where it carries none.
  const used = a.ok ? a.configuration.scenario.training.globalBatchSize : a.closest?.scenario?.training.globalBatchSize ?? batchFor(nodes);
  return { nodes, used, own: flagDefaultBatch({ ...v, nodes: String(nodes) }), took: batchFor.said(nodes, used) };
}

/**
 * The assumed line of a deadline, a budget or the curve at the default batch: each size at its own, and the one the
 * answer's size (or the closest's) took, with why and, where it is not its own, the flags that plan that size alone at it.
 */
export function perSizeBatchLine(v: FlagValues, a: NodesResponseJson): string {
  const head = 'assumed (no --global-batch): each cluster size at the batch --nodes takes there, or the multiple across its aim where faster';
  const s = sizeTook(v, a);
  if (s === undefined) return `${head} (about 4M tokens, or the model's published batch, rounded so that data-parallel sizes of its GPUs divide it)`;
  const said = s.took.why === 'own' ? defaultBatchNote(s.own)
    : s.took.why === 'across' ? `${s.took.note}; --nodes ${s.nodes} --global-batch ${s.used} plans that size alone at it`
    : `global batch ${grouped(s.used)} sequences, the batch asked with no size (--nodes ${s.nodes} rounds it up to ${grouped(s.own.sequences)}, more than 10% over its aim)`;
  return `${head}; on ${nodesText(s.nodes)}: ${said}`;
}

/**
 * The assumed line of `--nodes N` at the default batch: the batch N took (planned as a deadline plans it, the faster of its
 * own default and the multiple across its aim) and why, with the flags that plan it at its own default where it took
 * another (@trainplan/ask askedSizeBatchNote). Where nothing ran on N, its own default, the batch the request carries.
 */
export function askedSizeBatchLine(v: FlagValues, a: NodesResponseJson): string {
  const own = flagDefaultBatch(v);
  if (!a.ok) return `assumed (no --global-batch): ${defaultBatchNote(own)}`;
  const said = askedSizeBatchNote(flagDeadlineBatchFor(v), a.nodes, a.configuration.scenario.training.globalBatchSize, (n) => `--global-batch ${n}`);
  return `assumed (no --global-batch): ${said}`;
}

/**
 * --json's assumedGlobalBatch, as POST /v1/nodes words it for the same question with the batch omitted (the request's
 * fields, as the JSON's other prose is): with --nodes, that size's default; otherwise the batch the answer's size (or the
 * closest's) took, and why. Undefined where --global-batch or --input gave the batch, or where the request is refused by
 * its schema (the API answers that 400, with no field; a refusal after it, tokens under one step, keeps it).
 */
export function assumedGlobalBatch(v: FlagValues, request: Record<string, unknown>, answer: NodesResponseJson): AssumedGlobalBatch | undefined {
  if (assumedBatchLine(v, request) === undefined) return undefined;
  const valid = validate(nodesRequestSchema, request);
  if (!valid.ok) return undefined;
  return sharedAssumedGlobalBatch(flagBatchInputs(v), valid.value, answer, flagDeadlineBatchFor(v));
}

/**
 * The assumed line of `--input` whose body omits training.globalBatchSize: the answer's assumedGlobalBatch (the API's, from
 * @trainplan/ask runNodesBody) said as the flags' line is, "assumed (no training.globalBatchSize): …", in the request's
 * fields as --input's messages are. Undefined where the answer assumed none (the batch given, or the body refused by its schema).
 */
export function inputBatchLine(answer: { readonly assumedGlobalBatch?: AssumedGlobalBatch }): string | undefined {
  const note = answer.assumedGlobalBatch?.note;
  return note === undefined ? undefined : `assumed (no training.globalBatchSize): ${note.replace(/^training\.globalBatchSize omitted: /, '')}`;
}
