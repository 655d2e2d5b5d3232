/** @trainplan/ask: plain-language planning questions → parsed intents → answers as data and text. */
export type {
  IntentName, AskParameters, Layout, DefaultUsed, ParsedQuestion, CollectiveOp, CollectiveAlgorithm, ParseOptions,
} from './question.ts';
export { parse, normalize, MAX_QUESTION_LENGTH } from './parse.ts';
export { isHelpRequest } from './classify.ts';
export {
  DEFAULT_GPU, DEFAULT_DEADLINE_SECONDS, DEFAULT_NODES, DEFAULT_BATCH_TOKENS, DEFAULT_COLLECTIVE_BYTES,
  DEFAULT_COLLECTIVE_GPUS, CHINCHILLA_TOKENS_PER_PARAMETER, deadlineBatchFor, defaultBatch, defaultBatchNote, seqLengthOf,
} from './defaults.ts';
export type { DefaultBatch, DefaultBatchWhy } from './defaults.ts';
export { assumedGlobalBatch, type AssumedGlobalBatch, type BatchInputs } from './assumed-global-batch.ts';
export { askedSizeBatchNote } from './asked-size-batch.ts';
export { nodesBatchInputs, runNodesBody, validateNodesBody, type NodesAnswer, type NodesBody } from './nodes-default-batch.ts';
export type { Answer, AnswerFigure, AnswerKind, AnswerOptions, PublicUrl } from './answer/answer-types.ts';
export { DEFAULT_PUBLIC_URL } from './answer/answer-types.ts';
export { answer, ask } from './answer/answer.ts';
export { runsSearch } from './answer/runs-search.ts';
export { clipText } from './clip-text.ts';
export { EXAMPLE_QUESTIONS } from './answer/help-answer.ts';
export { renderText } from './answer/render-text.ts';
export { widgetUrl, widgetLink, scenarioOf } from './scenario.ts';
export type { CustomModel, ShapeFamily } from './custom-model.ts';
// The speculative-decoding defaults a question gets when it names a draft but not γ or α: the CLI takes the same.
export { DEFAULT_ACCEPTANCE_RATE, DEFAULT_DRAFT_TOKENS } from './speculative.ts';
