import { ASKS_DEFINITION } from '../classify.ts';

/**
 * "What is tensor parallelism", "explain the pipeline bubble": a definition, which a planner does not give. The answer says
 * so and points to one question that shows the term at work in a plan (its figures, its memory, its cost).
 */


/** Planning terms, each with a question whose answer shows it at work; the first whose words the question holds is pointed to. */
const TERMS: readonly (readonly [RegExp, string])[] = [
  [/\b(?:kv[\s-]*cache|inference|serving|ttft|latency|speculative|decod\w*|prefill|continuous batching)\b/, 'serve llama3-70b on one H100 node at 50 ms per token'],
  [/\b(?:all[\s-]*reduce|all[\s-]*gather|reduce[\s-]*scatter|all[\s-]*to[\s-]*all|collectives?|nccl|nvls|ring|tree)\b/, 'all-reduce 1 GB on 64 H100'],
  [/\b(?:memory|activations?|recompute|recomputation|checkpointing|optimizer states?|zero(?:[\s-]*\d)?|fsdp|sharding)\b/, 'memory for 70B with tp 8 pp 4 on A100 80GB'],
  [/\b(?:mfu|hfu|flops?|utili[sz]ation|throughput|step[\s-]*time)\b/, 'what MFU does gpt3-175b get on 1024 A100s'],
  [/\b(?:parallel\w*|tp|pp|cp|dp|pipeline|bubble|micro[\s-]*batch\w*|interleav\w*|virtual stages?)\b/, 'step time of llama3-8b on 8 H100 with tp 8'],
  [/\b(?:chinchilla|scaling laws?|tokens? per parameter|compute[\s-]*optimal)\b/, 'how many H100 nodes to train llama3-70b on 2T tokens in 30 days'],
];

/** The example to point a definition question to, or undefined when the (normalised) text asks no definition of a planning term. */
export function conceptExample(normal: string): string | undefined {
  if (!ASKS_DEFINITION.test(normal)) return undefined;
  return TERMS.find(([words]) => words.test(normal))?.[1];
}

/** The headline of a definition question: what the bot answers instead, and one question showing the term in a plan. */
export const conceptHeadline = (quoted: string, example: string): string =>
  `I answer planning questions, not definitions: "${quoted}" asks what a term means. Ask what it does to a plan, e.g. "${example}".`;
