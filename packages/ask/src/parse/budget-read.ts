import { formatCountExact } from '@trainplan/units';
import { CHINCHILLA_TOKENS_PER_PARAMETER, gpusPerNodeOf } from '../defaults.ts';
import { DATA_BYTES_WHY, takeDataBytes } from '../lexicon/data-bytes.ts';
import { HW_TOKEN, Scanner, takeCollectiveOp, takeGpuHours, takeNodeHours, takeTokenPhrases, takeTokens } from '../lexicon/quantities.ts';
import type { AskParameters, NotRead } from '../question.ts';
import { asTyped } from './as-typed.ts';
import type { ModelsNamed } from './models-named.ts';
import type { ParseState } from './state.ts';

/**
 * A budget in node-hours as GPU-hours, the planner's unit: node-hours × the GPUs of the node type asked (named, or the
 * GPU's usual node, gpusPerNodeOf), said so ("700k node-hours = 5.6M GPU-hours of 8-GPU nodes"). Beside a budget in
 * GPU-hours it is a second budget, said not read.
 */
export function nodeHoursBudget(
  read: { nodeHours: number; written: string }, stated: AskParameters, typed: (phrase: string) => string,
): { gpuHours: number; reading: string } | { notRead: NotRead } {
  if (stated.gpuHours !== undefined) {
    // As typed where the text holds it; the GPU's marker ("700k HW node-hours") left out.
    const written = typed(read.written.replace(new RegExp(String.raw`\s*\b${HW_TOKEN}\b\s*`), ' '));
    return { notRead: { phrase: `"${written}"`, why: `a second budget beside the ${formatCountExact(stated.gpuHours)} GPU-hours, which are planned; give one` } };
  }
  const perNode = gpusPerNodeOf(stated);
  const gpuHours = read.nodeHours * perNode;
  return {
    gpuHours,
    reading: `a budget in node-hours: ${formatCountExact(read.nodeHours)} node-hours = ${formatCountExact(gpuHours)} GPU-hours of ${perNode}-GPU nodes (the budget planned in GPU-hours; never a count of nodes)`,
  };
}

/** The training budget written: GPU-hours, node-hours, tokens (or a bare second size), a data size in bytes, Chinchilla. */
export type BudgetRead = ReturnType<typeof readBudget>;

/** The training budget, read after the serving figures (whose token counts are lengths and loads) and before the deadline. */
export function readBudget(st: ParseState, { bare }: ModelsNamed) {
  const { s, text, stated, notRead } = st;
  stated.gpuHours = takeGpuHours(s);
  // "700k node-hours": a budget, made GPU-hours once the counts say the node (below), never 700k nodes.
  const nodeHours = takeNodeHours(s);
  Object.assign(stated, takeTokenPhrases(s, stated.seqLength !== undefined));
  // "2TB of text": a size in bytes, never a token count; said not read (below), never dropped unsaid. Not a collective's message.
  const dataBytes = takeCollectiveOp(new Scanner(s.text)) === undefined ? takeDataBytes(s) : undefined;
  if (dataBytes !== undefined) notRead.push({ phrase: `"${asTyped(text, dataBytes)}"`, why: DATA_BYTES_WHY });
  stated.tokens = takeTokens(s);
  // The bare size is the budget only where none is written with its "tokens" word; else said not read, as a model named apart.
  const bareTokens = bare !== undefined && stated.tokens === undefined && stated.tokensPerParameter === undefined ? bare : undefined;
  if (bareTokens !== undefined) stated.tokens = bareTokens.tokens;
  // "Chinchilla-optimal", "compute-optimal": 20 tokens per parameter (Hoffmann et al. 2022), where no budget is given.
  const chinchilla = s.take(/\b(?:chinchilla|compute)[\s-]*optimal\b|\bchinchilla\b(?![\s-]*(?:70b|scaling))/) !== undefined
    && stated.tokens === undefined && stated.tokensPerParameter === undefined;
  if (chinchilla) stated.tokensPerParameter = CHINCHILLA_TOKENS_PER_PARAMETER;
  return { nodeHours, dataBytes, bareTokens, chinchilla };
}
