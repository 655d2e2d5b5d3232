import { runSearch, type SearchOkJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { formatSearchReport } from '../../src/format/search-report.ts';

const LLAMA = { model: 'llama3-8b', cluster: { gpu: 'h100-sxm', nodes: 1 }, training: { globalBatchSize: 64 }, top: 3 };

function report(request: Record<string, unknown>): { answer: SearchOkJson; lines: string[] } {
  const answer = runSearch(request);
  if (!answer.ok) throw new Error(answer.message);
  return { answer, lines: formatSearchReport(answer).split('\n') };
}

const header = (lines: string[]): string[] => lines[lines.indexOf('top plans:') + 1]!.trim().split(/\s{2,}/);

describe('formatSearchReport', () => {
  it('without a token budget the top plans have no days column: there are no days to show', () => {
    expect(header(report(LLAMA).lines)).toEqual(['#', 'plan', 'step', 'tokens/s', 'MFU', 'memory']);
  });

  it('with a token budget and a price, the table shows each plan\'s days, GPU-hours and cost, as --json carries them', () => {
    const { answer, lines } = report({ ...LLAMA, training: { ...LLAMA.training, tokens: 1e12 }, objective: 'cost', pricePerGpuHour: 2.5 });
    // The cost's header names its unit: whatever currency --price was given in (a sign such as "$" is dropped on reading).
    expect(header(lines)).toEqual(['#', 'plan', 'step', 'tokens/s', 'MFU', 'memory', 'days', 'GPU-hours', "cost (in --price's currency)"]);
    const first = lines[lines.indexOf('top plans:') + 2]!;
    expect(first).toContain(Math.round(answer.top[0]!.gpuHours!).toLocaleString('en-US'));
    expect(first.endsWith(` ${Math.round(answer.top[0]!.cost!).toLocaleString('en-US')}`)).toBe(true);
  });

  it('the best plan\'s line gives its GPU-hours beside its days, as --tokens promises', () => {
    const { answer, lines } = report({ ...LLAMA, training: { ...LLAMA.training, tokens: 1e12 } });
    const best = lines[lines.findIndex((l) => l.startsWith('best: ')) + 1]!;
    expect(best).toMatch(new RegExp(` · ${answer.best.days!.toFixed(1)} days · ${Math.round(answer.best.gpuHours!).toLocaleString('en-US')} GPU-hours$`));
  });

  it('the best plan\'s days are grouped by thousands, as trainplan nodes writes them', () => {
    const { answer, lines } = report({ ...LLAMA, training: { ...LLAMA.training, tokens: 1e14 } });
    expect(answer.best.days).toBeGreaterThan(1000);
    const grouped = answer.best.days!.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    expect(lines[lines.findIndex((l) => l.startsWith('best: ')) + 1]).toContain(` · ${grouped} days · `);
    // The table's days column groups them too (QA: "3140.1 d" under "3,140.1 days").
    const first = lines[lines.indexOf('top plans:') + 2]!.trim().split(/\s{2,}/);
    expect(first).toContain(`${grouped} d`);
  });

  it('counts its candidates and the pruned tally as trainplan nodes and the bot write counts: "8.60M", no space', () => {
    const { answer, lines } = report({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, top: 1 });
    // The premise: millions of candidates, and tallies in the thousands.
    expect(answer.spaceSize).toBeGreaterThan(1e6);
    const m = /^searched (\d+\.\d+)M candidates \(/.exec(lines[1]!);
    expect(m, lines[1]).not.toBeNull();
    expect(Number(m![1]) * 1e6).toBeCloseTo(answer.spaceSize, -4);
    const tally = lines.slice(lines.indexOf('pruned:') + 1).filter((l) => l.trim() !== '');
    expect(tally).toHaveLength(answer.pruned.length);
    for (const [i, line] of tally.entries()) {
      const count = line.trim().split(/\s+/)[0]!;
      expect(count).toMatch(answer.pruned[i]!.count < 1000 ? /^\d+$/ : /^\d+(\.\d+)?[kMB]$/);
    }
  });

  it('the best plan\'s cost says its currency, once, after the figure', () => {
    const { answer, lines } = report({ ...LLAMA, training: { ...LLAMA.training, tokens: 1e12 }, objective: 'cost', pricePerGpuHour: 2.5 });
    const best = lines[lines.findIndex((l) => l.startsWith('best: ')) + 1]!;
    expect(best.endsWith(` · cost ${Math.round(answer.best.cost!).toLocaleString('en-US')} (in --price's currency)`)).toBe(true);
  });

  it('one full estimate is said in the singular: "1 full estimate", not "1 full estimates"', () => {
    // Llama 3 8B on one H100 node with every choice pinned (TP 8 with SP, PP 1, CP 1, v 1, micro-batch 1, no recompute, the layers
    // alone in the split): one candidate is left after the rules, and it is the one plan estimated in full.
    const pinned = {
      tensorSizes: [8], pipelineSizes: [1], contextSizes: [1], virtualStageCounts: [1], microBatchSizes: [1], recompute: ['none'], pipelineSlots: ['layers'], sequenceParallel: [true],
    };
    const { answer, lines } = report({ ...LLAMA, constraints: pinned });
    expect(answer.fullEstimates).toBe(1);
    expect(lines[1]).toMatch(/ \(1 full estimate; the rest ruled out by rules and bounds\)$/);
  });

  it('an FP8 search says its MFU is of the FP8 peak, with the BF16 peak\'s share beside it, on the best line and in the table', () => {
    const { answer, lines } = report({ ...LLAMA, training: { ...LLAMA.training, precision: 'fp8' } });
    const e = answer.best.estimate;
    // Against the BF16 peak the share is the model TFLOP/s per GPU over the H100 SXM's dense BF16 peak, 989.4 TFLOP/s
    // (NVIDIA's H100 datasheet); MFU itself is of the 1,978.9 TFLOP/s FP8 peak, so about half of it.
    const ofBf16 = `${((e.modelTflopsPerGpu / 989.4) * 100).toFixed(1)}%`;
    expect(`${((e.modelTflopsPerGpu / 1978.9) * 100).toFixed(1)}%`).toBe(`${(e.mfu * 100).toFixed(1)}%`);
    const best = lines[lines.findIndex((l) => l.startsWith('best: ')) + 1]!;
    expect(best).toContain(` · MFU ${(e.mfu * 100).toFixed(1)}% of the FP8 peak (${ofBf16} of the BF16 peak) · `);
    expect(header(lines)).toEqual(['#', 'plan', 'step', 'tokens/s', 'MFU (FP8 peak)', 'MFU (BF16 peak)', 'memory']);
    const first = lines[lines.indexOf('top plans:') + 2]!.trim().split(/\s{2,}/);
    expect(first.slice(4, 6)).toEqual([`${(e.mfu * 100).toFixed(1)}%`, ofBf16]);
  });

  it('a BF16 search keeps its one MFU figure, with no peak named', () => {
    const { answer, lines } = report(LLAMA);
    const best = lines[lines.findIndex((l) => l.startsWith('best: ')) + 1]!;
    expect(best).toContain(` · MFU ${(answer.best.estimate.mfu * 100).toFixed(1)}% · memory `);
    expect(best).not.toContain('peak');
  });
});
