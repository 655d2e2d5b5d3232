import type { ParsedQuestion } from '../question.ts';
import { contextProblem } from '../serving-context.ts';
import { asksFewestServing } from './serving-fewest.ts';
import { servingParallelProblems } from './serving-parallel-notes.ts';
import { usersInAll } from './serving-users.ts';

/**
 * Whether one serving question's answer (answerServing) searches GPU counts or spreads of replicas, asking runInference again
 * on each, rather than planning the GPUs asked once: the chat bot defers those (runs-search.ts). Decided on the parsed
 * question alone, by the conditions answerServing dispatches on, in its order. Times measured with ask() on one core:
 *
 * - A request rate (the protocol's requestsPerSecond): the load's replicas are planned, and where the GPUs named hold no
 *   replica, the fewest that serve the rate are searched count by count (fewestServingGpus, up to 256 counts at a rate).
 *   Llama 3.1 405B at 1,000 requests/s on 8 H100 with 8k prompts took 2.6 s, on 8 H200 (which hold it) 4 ms: which one it
 *   is only the answer knows, so a rate is deferred whenever one is read. Security QA (CWE-400): the same rate asked of four
 *   GPUs compared was answered inline after 6.2 s, past the platforms' 3 s.
 * - Concurrent requests in all (usersInAll): spread over replicas of each shape, each shape's batches asked one at a time
 *   (spreadUsers): up to 0.22 s measured (100,000 users of Llama 3.1 405B on 1,024 H100).
 * - The fewest GPUs asked (asksFewestServing): counts asked in turn until one serves (fewestGpusToServe): up to 0.33 s
 *   measured (Llama 3.1 405B on H100 within 5 ms a token, which no count meets).
 *
 * Any other question is planned once on the GPUs asked (3 to 35 ms measured), and stays inline. Where those hold no replica
 * its answer searches the counts that do, which only the answer knows; without a rate that search ends at the largest
 * replica's count (fewestGpus): 0.36 s at most over the package's test questions (Llama 3.1 405B on 8 H100 within 45 ms a
 * token), inside the 3 s. A question refused before any plan (servingParallelProblems, contextProblem) runs none, and its
 * refusal stays inline as other refusals do.
 */
export function servingSearches(q: ParsedQuestion): boolean {
  const p = q.parameters;
  if (servingParallelProblems(p).length > 0 || contextProblem(q.stated, p) !== undefined) return false;
  return p.requestsPerSecond !== undefined || usersInAll(q) !== undefined || asksFewestServing(q);
}
