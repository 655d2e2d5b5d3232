import { gpuById } from '@trainplan/hardware';
import { modelFlopsPerStep } from '@trainplan/model';
import { modelById } from '@trainplan/presets';
import { runEstimate, type EstimateOk } from '@trainplan/protocol';
import { formatPercent } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

/** The chat apps' candidate budget (apps/chatops DEFAULT_CHAT_CANDIDATE_BUDGET): the bot's scenario as Slack and Discord get it. */
const CHAT_CANDIDATE_BUDGET = 20_000;

/**
 * MFU as the model reference (§2) and Megatron's "model FLOPs" count it: attention over every (query, key) pair, not the
 * causal half the kernels compute, over the step time × GPUs × the GPU's dense 16-bit peak.
 */
function mfuCounted(e: EstimateOk, attention: 'full' | 'causal'): number {
  const shape = modelById('llama3-8b')!.shape;
  const flops = modelFlopsPerStep(shape, { globalBatchSize: e.resolved.globalBatchSize, seqLength: e.resolved.seqLength, attention });
  return flops / (e.stepTimeSeconds * e.resolved.gpus * gpuById('h100-sxm')!.peakFlops.bf16!);
}

// At 128k tokens attention is most of a step's FLOPs, so the two conventions are far apart (the causal count about 0.59 of
// the full one): a bot that counted otherwise than the planner would say another MFU than the CLI's estimate of its plan.
describe('the bot\'s MFU at long context is the CLI\'s estimate\'s for the same scenario (attention counted full, as Megatron)', () => {
  it.each([
    ['Llama 3 8B at 128k context on 64 H100 for 100B tokens'],
    ['what MFU does Llama 3 8B get at 128k context on 64 H100'],
    ['mfu of llama 3 8b with 128k sequence length on 64 H100 with tp 8 cp 8'],
  ])('"%s"', (question) => {
    const a = ask(question, { publicUrl: null, candidateBudget: CHAT_CANDIDATE_BUDGET });
    expect(a.scenario).toBeDefined();
    // What `trainplan estimate` and POST /v1/estimate run on the scenario.
    const e = runEstimate(a.scenario!) as EstimateOk;
    expect(e.ok).toBe(true);
    expect(e.resolved.seqLength).toBe(131_072);
    expect(mfuCounted(e, 'full')).toBeCloseTo(e.mfu, 9);
    expect(mfuCounted(e, 'causal')).toBeLessThan(0.7 * e.mfu);
    const said = a.figures.find((f) => f.label === 'MFU')?.value;
    expect(said).toBe(formatPercent(e.mfu));
    expect(a.headline).toContain(`${formatPercent(e.mfu)} MFU`);
    // The causal count is said as the CLI's warning says it, beside, never as the headline's figure.
    expect(a.headline).not.toContain(formatPercent(mfuCounted(e, 'causal')));
    expect(a.notes).toContain(e.warnings.find((w) => w.startsWith('MFU counts attention over every (query, key) pair')));
  });
});
