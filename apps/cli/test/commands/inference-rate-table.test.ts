import type { InferencePointJson } from '@trainplan/protocol';
import { formatGrouped, formatSeconds } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

// With --rate the plan is ranked by the GPUs the rate takes and its headline's first token includes the wait for a
// slot: the tables say which first token they show, and show the GPUs each row takes.

async function cli(args: string[]) {
  const io = fakeIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const RATED = ['inference', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--prompt', '2048', '--output', '256', '--batching', 'continuous',
  '--rate', '100', '--max-token-ms', '30', '--max-ttft-s', '1'];

/** The table under a heading: its header's cells and its rows' cells, split on the column gaps. */
function table(out: string, heading: string): { head: string[]; rows: string[][] } {
  const lines = out.slice(out.indexOf(heading)).split('\n').slice(1);
  const body = lines.slice(0, lines.indexOf(''));
  const cells = (line: string) => line.trim().split(/\s{2,}/);
  return { head: cells(body[0]!), rows: body.slice(1).map(cells) };
}

describe('--rate: the tables beside the headline', () => {
  it('the frontier shows each row\'s GPUs for the rate (the JSON\'s load.gpus), and its first token is said to be without the queue', async () => {
    const { code, out } = await cli(RATED);
    expect(code).toBe(0);
    const a = JSON.parse((await cli([...RATED, '--json'])).out);
    const { head, rows } = table(out, 'throughput-versus-latency frontier:');
    const gpus = head.indexOf('GPUs');
    const first = head.indexOf('first token (no queue)');
    expect(gpus).toBeGreaterThan(0);
    expect(first).toBeGreaterThan(0);
    expect(rows).toHaveLength(a.frontier.length);
    a.frontier.forEach((p: InferencePointJson, i: number) => {
      expect(rows[i]![gpus]).toBe(p.load === undefined ? '—' : formatGrouped(p.load.gpus));
      // The first token before any wait for a slot, which the headline's includes.
      expect(rows[i]![first]).toBe(formatSeconds(p.prefillSeconds));
    });
    // The headline's GPUs are the fewest of any row meeting the bounds, and its first token is its row's plus the wait.
    const best = a.best as InferencePointJson;
    expect(out).toContain(`the first token in ${formatSeconds(best.load!.firstTokenSeconds)}`);
    expect(best.load!.firstTokenSeconds).toBeCloseTo(best.prefillSeconds + best.load!.queueSeconds, 12);
    expect(out).toContain('first token (no queue): without that wait');
  });

  it('each shape\'s largest batch shows its GPUs too; without a rate there is no GPUs column and no "no queue"', async () => {
    const { head } = table((await cli(RATED)).out, 'largest batch per TP × PP:');
    expect(head).toContain('GPUs');
    const unrated = [...RATED.slice(0, RATED.indexOf('--rate')), ...RATED.slice(RATED.indexOf('--rate') + 2)];
    const plain = (await cli(unrated)).out;
    expect(table(plain, 'largest batch per TP × PP:').head).not.toContain('GPUs');
    expect(plain).not.toContain('no queue');
    expect(table(plain, 'largest batch per TP × PP:').head).toContain('first token');
  });
});

describe('a load under capacity never reads as 100% (units\' formatLoad, tested there)', () => {
  it('1,000 requests/s of Llama 3 70B, replicas loaded past 99.5%: the line says the tenths, as the JSON\'s utilization', async () => {
    // (A case whose best plan loads its replicas past 99.5%; which case does moves with the serving model's figures.)
    const args = ['inference', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--prompt', '2048', '--output', '512', '--batching', 'continuous', '--rate', '1000', '--max-ttft-s', '60'];
    const a = JSON.parse((await cli([...args, '--json'])).out);
    const u: number = a.best.load.utilization;
    expect(u).toBeGreaterThan(0.995);
    expect(u).toBeLessThan(1);
    const { out } = await cli(args);
    expect(out).not.toContain('100% loaded');
    expect(out).toContain(`, ${(u * 100).toFixed(1)}% loaded: `);
  });
});
