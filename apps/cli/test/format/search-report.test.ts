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
    expect(header(lines)).toEqual(['#', 'plan', 'step', 'tokens/s', 'MFU', 'memory', 'days', 'GPU-hours', 'cost']);
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
  });
});
