import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { runsSearch } from '../src/answer/runs-search.ts';
import { parse } from '../src/parse.ts';

/**
 * Security QA (CWE-400): a signed slash command asking this was answered inline after 6,186 ms (Discord 6,190 ms), past the
 * platforms' 3 s, the Node event loop held meanwhile (/healthz waited 6.14 s): runsSearch said serving ran no search, yet
 * the answer plans each of the four GPUs, and at the rate searches the fewest GPUs that serve it where 8 of one hold no
 * replica of the model (H100, V100).
 */
const QA = 'serve llama3.1-405b at 1000 requests/s on 8x H200 vs H100 vs B200 vs V100 at 8k per token';
/** The QA question of one GPU with no rate: one serving plan on the GPUs named. */
const SINGLE = 'serve llama3.1-405b on 8x H200 at 8k per token';

/** How long `f` takes, in ms. */
function timed(f: () => unknown): number {
  const start = performance.now();
  f();
  return performance.now() - start;
}

describe('serving questions the chat bot defers (runsSearch)', () => {
  it('the QA question runs a search: its GPUs compared, each a serving plan, at a rate', () => {
    expect(runsSearch(parse(QA))).toBe(true);
  });

  it('so does its rate asked of one GPU that holds no replica (the fewest GPUs for the rate, searched count by count)', () => {
    expect(runsSearch(parse('serve llama3.1-405b at 1000 requests/s on 8x H100 at 8k per token'))).toBe(true);
  });

  it('and its GPUs compared without the rate (a serving plan each, each of which may search counts)', () => {
    expect(runsSearch(parse('serve llama3.1-405b on 8x H200 vs H100 vs B200 vs V100 at 8k per token'))).toBe(true);
  });

  it('one GPU without a rate stays inline: one plan, a small part of the QA answer\'s time', () => {
    expect(runsSearch(parse(SINGLE))).toBe(false);
    // Measured in this test: SINGLE in 7–9 ms, QA in 4.8–5.5 s (four plans, the H100's and V100's searches at the rate most of
    // it), a ratio of 1/800 to 1/550. Held to 1/20, room for a loaded machine: the ratio is asserted, never either time.
    ask(SINGLE);
    const single = Math.min(timed(() => ask(SINGLE)), timed(() => ask(SINGLE)), timed(() => ask(SINGLE)));
    const qa = timed(() => ask(QA));
    expect(single / qa).toBeLessThan(1 / 20);
  });
});
