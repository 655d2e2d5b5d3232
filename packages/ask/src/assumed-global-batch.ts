import { formatGrouped } from '@trainplan/units';
import { nodesText, type NodesResponseJson } from '@trainplan/protocol';
import { askedSizeBatchNote } from './asked-size-batch.ts';
import { deadlineBatchFor, defaultBatch, defaultBatchNote } from './defaults.ts';
import type { AskParameters } from './question.ts';

/**
 * The default global batch a nodes request without one was planned at, said as the answer's `assumedGlobalBatch`
 * extension (documented in /openapi.json by apps/api nodes-schemas.ts): one wording for the API and the CLI's --json.
 */

/** What the default batch is computed from: the fields of a request the CLI's flags give. */
export type BatchInputs = Pick<AskParameters, 'model' | 'gpu' | 'system' | 'gpusPerNode' | 'seqLength' | 'nodes' | 'gpus'>;

/** The answer's extension where the batch was assumed. */
export interface AssumedGlobalBatch {
  /** The global batch, in sequences, the answer's cluster size was planned at (or, where the answer names none, the batch asked with no size). */
  sequences: number;
  /** The cluster size `sequences` is for; absent where it is the batch asked with no size. */
  nodes?: number;
  /** Why it is that size, in defaultBatchNote's wording. */
  note: string;
}

const PER_SIZE = 'training.globalBatchSize omitted: each cluster size was planned at the default batch a request with nodes set to that size takes, '
  + 'or at the multiple of its data-parallel unit across the default\'s aim where that is faster';

/**
 * Which batch was assumed, for POST /v1/nodes and `trainplan nodes --json` alike (apps/api nodes-default-batch.ts,
 * apps/cli nodes-assumed-batch.ts), as the CLI's assumed line says it (assumedBatchLine with --nodes, perSizeBatchLine otherwise):
 * with `nodes`, the batch that size took and why (its own default, unless planned as a deadline plans it took another);
 * otherwise the one the answer's size (or the closest's) took, and why.
 */
export function assumedGlobalBatch(
  inputs: BatchInputs, request: { readonly nodes?: number; readonly training: { readonly globalBatchSize: number } }, answer: NodesResponseJson,
  batchFor: (nodes: number) => number,
): AssumedGlobalBatch {
  const sized = deadlineBatchFor(inputs);
  if (request.nodes !== undefined) {
    // The size asked for, at the batch its plan took: planned as a deadline's search plans it (askedSizeBatchNote says why),
    // that batch and why, and how to plan the size at its own default where it took another. Where nothing ran there, the
    // size's own default, the batch a request for it carries.
    const own = defaultBatch({ ...inputs, nodes: request.nodes });
    const used = answer.ok ? answer.configuration.scenario.training.globalBatchSize : own.sequences;
    const said = askedSizeBatchNote(sized, request.nodes, used, (n) => `a request with training.globalBatchSize ${formatGrouped(n)}`);
    return { sequences: used, nodes: request.nodes, note: `training.globalBatchSize omitted: ${said}` };
  }
  // A refused request (ok false, invalid: tokens under one step) was checked at the batch asked with no size.
  const nodes = answer.ok ? answer.nodes : answer.reason === 'invalid' ? undefined : answer.closest?.nodes;
  if (nodes === undefined) {
    return {
      sequences: request.training.globalBatchSize,
      note: `training.globalBatchSize omitted: ${defaultBatchNote(defaultBatch(inputs))}, the default with no cluster size (each size searched takes the default a request with nodes set to it takes)`,
    };
  }
  const own = defaultBatch({ ...inputs, nodes });
  // The closest's plan carries the batch it took, as the answer's does; batchFor's where it carries none.
  const used = answer.ok ? answer.configuration.scenario.training.globalBatchSize : answer.closest?.scenario?.training.globalBatchSize ?? batchFor(nodes);
  // Which batch the size took (its own, the one across its aim, or the one asked with no size), in ask's words, with how to
  // plan that size alone at it in the request's fields.
  const took = sized.said(nodes, used);
  const said = took.why === 'own' ? defaultBatchNote(own)
    : took.why === 'across' ? `${took.note}; a request with nodes ${nodes} and training.globalBatchSize ${used} plans that size alone at it`
    : `global batch ${formatGrouped(used)} sequence${used === 1 ? '' : 's'}, the batch asked with no size (${nodesText(nodes)} would round it to `
      + `${formatGrouped(own.sequences)}, more than 10% from its aim)`;
  return { sequences: used, nodes, note: `${PER_SIZE}; on ${nodesText(nodes)}: ${said}` };
}

