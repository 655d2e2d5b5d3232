import { kernelContext, layerComputeCost, peak16, resolveCalibration, type PlanInput } from '@trainplan/planner';
import type { PromptPrefill } from './continuous-batching.ts';
import { servingLayerForwardSeconds } from './prefill-layer.ts';
import { uncachedAttentionFraction } from './prefix-cache.ts';
import { promptChunkTokens } from './prompt-chunks.ts';

/** A lone sequence's forward per layer (the planner's layerComputeCost and layerProfile): its parts, as fusion needs them. */
function loneLayer(lone: PlanInput) {
  const cost = loneCost(lone);
  return { gemmCompute: cost.gemmForwardCompute, other: servingLayerForwardSeconds(lone) - cost.gemmForward - cost.attentionForward };
}

/** A lone sequence's attention forward per layer (the planner's layerComputeCost), without the rest of its layer's cost. */
const loneAttention = (lone: PlanInput) => loneCost(lone).attentionForward;

/** A lone sequence's layer compute (the planner's layerComputeCost, with its kernel context, calibration and peak). */
const loneCost = (lone: PlanInput) => layerComputeCost(lone, kernelContext(lone, resolveCalibration(lone)), peak16(lone.gpu));

/** Rows of the largest GEMM tile (kernel-time.ts GEMM_TILES): the steps the fused prompt rows' cost is read at. */
const TILE_ROWS = 256;

/**
 * A layer's figure over `amount` of the prompts' work run as one batch (`at(n)` its value at n, memoised), read at whole
 * steps of `step` (rows: a GEMM tile's; prompts: one) and taken linearly between them: the rows and prompts an iteration
 * admits vary (whole prompts arrive at a mean rate of b/L an iteration, chunks end short, decodes finish), so a mean is
 * charged the mean of the costs around it, not the cost of its rounding up (QA: 129 slots of 128-token prompts, 1.008
 * prompts an iteration, were charged a second tile in every iteration, −27% throughput for one slot more; and a ceil of
 * 512.0000000000001 charged a tile more). Under one step it is that share of one step's cost (a chunk of one prompt).
 */
function perSteps(step: number, at: (amount: number) => number): (amount: number) => number {
  const memo = new Map<number, number>();
  const whole = (n: number): number => {
    let v = memo.get(n);
    if (v === undefined) memo.set(n, (v = n <= 0 ? 0 : at(n)));
    return v;
  };
  return (amount) => {
    if (amount <= 0) return 0;
    const below = step * Math.floor(amount / step);
    const share = (amount - below) / step;
    return share === 0 ? whole(below) : (1 - share) * whole(below) + share * whole(below + step);
  };
}

/**
 * The prefill per layer of the prompts an iteration admits, as it adds to the decode it is fused into (`forward(n, tokens)`
 * the planner input of n sequences of that many tokens in one pass). Their rows join the decode's GEMMs, which stream the
 * weights anyway: they add their tensor-core time alone, not a second weight read or launch. The prompts' attention is
 * their tiles' time in the iteration's one attention launch. Their element-wise traffic and all-reduce bytes add; the
 * launches and latencies are the decode's. With a cached prefix of N tokens only the P − N new ones go through the GEMMs,
 * element-wise kernels and all-reduces, and their attention is (P² − N²)/P² of the whole prompt's
 * (prefix-cache.ts).
 */
export function promptPrefill(forward: (sequences: number, tokens: number) => PlanInput, promptTokens: number, cachedTokens: number, chunkTokens: number | undefined): PromptPrefill {
  const lone = (tokens: number) => forward(1, tokens);
  const prompt = lone(promptTokens);
  const oneToken = loneLayer(lone(1));
  // The attention's launch is the iteration's, one varlen kernel over every sequence's queries (vLLM's flash-attention
  // backend; the decode layer's KERNELS_PER_LAYER counts it): the prompts add their tiles' time, not a launch, and n of
  // them the time of one launch over n sequences, its last wave shared, not n lone launches' (QA: with the flash kernel's
  // whole tiles costed, each 1-token prompt a 128 × 128 tile a head, n such prompts at a lone launch's rate, 8 blocks on
  // 132 SMs, paid n mostly empty waves: continuous served 0.34× static).
  const overhead = resolveCalibration(prompt).kernelOverhead;
  const uncached = uncachedAttentionFraction(promptTokens, cachedTokens);
  const attention = perSteps(1, (n) => Math.max(0, loneAttention(forward(n, promptTokens)) - overhead) * uncached);
  // A chunk's attention is its queries' against every key before them: a prompt of its last token's length less one of
  // its first's (the planner's whole flash tiles each), so a later chunk does more than an earlier one, and a full
  // chunk's does not change as the prompt grows (a share of the whole prompt's did, at each tile row the prompt crossed:
  // QA retest 2 follow-up, Llama 3 8B decoding faster at 641 tokens than at 640).
  const upTo = (tokens: number) => (tokens <= 0 ? 0 : Math.max(0, loneAttention(lone(tokens)) - overhead));
  const whole = attention(1);
  const tokens = promptChunkTokens(promptTokens, cachedTokens, chunkTokens);
  // Each chunk starts where the one before it ends (the first at the cached prefix): each boundary's attention once.
  const ends = tokens.length === 1 || whole === 0 ? [] : tokens.map(({ toToken }) => upTo(toToken));
  const startOf = (j: number, fromToken: number) => (j > 0 && tokens[j - 1]!.toToken === fromToken ? ends[j - 1]! : upTo(fromToken));
  const chunks = tokens.map(({ fromToken, toToken }, j) => ({
    rowsShare: (toToken - fromToken) / (promptTokens - cachedTokens),
    // One chunk: the prompt's own attention (its cached prefix's left out, prefix-cache.ts).
    attentionShare: ends.length === 0 ? 1 : (ends[j]! - startOf(j, fromToken)) / whole,
  }));
  // The prompts' rows join the iteration's GEMMs, element-wise kernels and tensor-parallel all-reduces as one batch of
  // rows (vLLM runs an iteration's prefill and decode tokens as one flattened batch; Sarathi-Serve §4): their GEMMs'
  // tiles and waves, their traffic and one all-reduce's size are those of all the rows together, not of each prompt
  // (QA: costed one by one, 1-token prompts paid a 128-row tile each and continuous served 0.03× static; 3-token prompts
  // paid an all-reduce each, 0.15×). The element-wise and all-reduce launches and latencies are the decode's (the rows'
  // figures less a one-token forward's).
  const rows = promptTokens - cachedTokens;
  const gemm = perSteps(TILE_ROWS, (n) => loneLayer(lone(n)).gemmCompute);
  const other = perSteps(TILE_ROWS, (n) => Math.max(0, loneLayer(lone(n)).other - oneToken.other));
  return {
    layerTensorCoreSeconds: (prompts, attentionPrompts = prompts) => gemm(prompts * rows) + attention(attentionPrompts),
    layerOtherSeconds: (prompts) => other(prompts * rows),
    activationBytes: 2 * (promptTokens - cachedTokens) * prompt.model.hiddenSize,
    chunks,
  };
}
