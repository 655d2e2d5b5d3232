import { collectiveOperation } from './collective.ts';
import { estimateOperation } from './estimate.ts';
import { memoryOperation } from './memory.ts';
import { inferenceOperation, nodesOperation, scaleOperation, searchOperation } from './search.ts';
import type { PostOperation } from './operation.ts';

/** Every POST endpoint, in the order /openapi.json and /docs list them. An endpoint adds a line here. */
export const POST_OPERATIONS: readonly PostOperation[] = [
  estimateOperation,
  memoryOperation,
  collectiveOperation,
  searchOperation,
  nodesOperation,
  scaleOperation,
  inferenceOperation,
];
