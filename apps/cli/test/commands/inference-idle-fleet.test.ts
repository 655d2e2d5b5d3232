import { formatGrouped, formatLoad, formatSeconds } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

// QA (High): "trainplan inference --model llama3.1-405b --gpu h100-sxm --prompt 8k --output 512 --rate 50 --max-ttft-s 2
// --batching continuous" answered "50 requests/s take 1,339,150 replicas (21,426,400 GPUs), 0% loaded", its prompt's prefill
// alone 1.99 s of the 2 s bound: a plan no operator would buy, headed as the best.

async function cli(args: string[]) {
  const io = fakeIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const QA = ['inference', '--model', 'llama3.1-405b', '--gpu', 'h100-sxm', '--prompt', '8k', '--output', '512', '--rate', '50', '--max-ttft-s', '2', '--batching', 'continuous'];
/**
 * Llama 2 13B's 40 heads split over TP 8 but not 16, so no degree across nodes helps: on V100s, 3,584 + 512 tokens at 50 requests/s
 * within 260 ms, the prefill nearly fills the bound (before: "best under the bounds …: TP 8 · PP 1 · batch 7", 2,064 GPUs 22% loaded).
 */
const NO_TP16 = ['inference', '--model', 'llama2-13b', '--gpu', 'v100-32gb', '--precision', 'fp16', '--prompt', '3584', '--output', '512',
  '--batching', 'continuous', '--rate', '50', '--max-ttft-s', '0.26'];

/** The line after the warnings naming the plan, and the line under it saying the rate's load. */
function planLines(out: string): { head: string; load: string } {
  const lines = out.split('\n');
  const at = lines.findIndex((l) => /^(best under the bounds|only replicas under)/.test(l));
  return { head: lines[at]!, load: lines[at + 1]! };
}

describe('trainplan inference at a rate whose first-token bound the prefill nearly fills', () => {
  it('the QA request: TP 16 over two nodes is the best, its replicas at least half loaded, and a warning says why it spans nodes', async () => {
    const { code, out } = await cli(QA);
    expect(code).toBe(0);
    const { head, load } = planLines(out);
    expect(head).toMatch(/^best under the bounds \(≤ 2\.00 s to the first token, 50 requests\/s\): TP 16 · PP \d+ · batch [\d,]+ · continuous batching/);
    const loaded = Number(/^50 requests\/s take [\d,]+ replicas \([\d,]+ GPUs\), (\d+)% loaded: /.exec(load)?.[1]);
    expect(loaded).toBeGreaterThanOrEqual(50);
    expect(out).toMatch(/\n⚠ within one NVLink domain \(TP ≤ 8\) the first-token bound binds: the prefill alone takes [\d.]+ s of its 2\.00 s \(TP 8 · PP 2 · batch 1\)/);
  });

  it('where no degree across nodes serves it, the idle fleet is not headed as the best, and what serves the rate at a real load follows', async () => {
    const a = JSON.parse((await cli([...NO_TP16, '--json'])).out);
    const idle = a.idleFleet;
    const { code, out } = await cli(NO_TP16);
    expect(code).toBe(0);
    const { head, load } = planLines(out);
    expect(head).toBe(`only replicas under 50% loaded meet the bounds (≤ 260 ms to the first token, 50 requests/s): TP ${a.best.tensor} · PP ${a.best.pipeline} `
      + `· batch ${a.best.batch} · continuous batching: ${formatGrouped(a.best.tokensPerSecondPerGpu)} tokens/s/GPU, ${formatSeconds(a.best.decodeStepSeconds)} per token`);
    expect(a.best.load.utilization).toBeLessThan(0.5);
    expect(load).toContain(`${formatLoad(a.best.load.utilization)} loaded`);
    // Why, first among the warnings, in flag terms; and the remedy, its bound and GPUs those asked again with it.
    expect(out).toContain(`\n⚠ the first-token bound binds: the prefill alone takes ${formatSeconds(a.best.prefillSeconds)} of its 260 ms`);
    expect(out).toContain(`a first-token bound of ${formatSeconds(idle.loosened.maxPrefillSeconds)} serves the rate on ${formatGrouped(idle.loosened.best.load.gpus)} GPUs at the fewest`);
    expect(out).toContain(`\nto serve 50 requests/s at a real load, give --max-ttft-s ${idle.loosened.maxPrefillSeconds} `
      + `(${formatGrouped(idle.loosened.best.load.gpus)} GPUs, ${formatLoad(idle.loosened.best.load.utilization)} loaded), or try fewer prompt tokens `
      + 'to prefill (a shared prefix cached, --shared-prefix, or a shorter prompt, --prompt) or a faster GPU (--gpu)\n');
    // The bound it names serves the rate on those GPUs, at least half loaded here, a third of the idle fleet's.
    const looser = [...NO_TP16.slice(0, -1), String(idle.loosened.maxPrefillSeconds)];
    const again = await cli(looser);
    expect(again.code).toBe(0);
    expect(planLines(again.out).load).toMatch(new RegExp(`^50 requests/s take [\\d,]+ replicas \\(${formatGrouped(idle.loosened.best.load.gpus)} GPUs\\)`));
    expect(idle.loosened.best.load.utilization).toBeGreaterThanOrEqual(0.5);
    expect(idle.loosened.best.load.gpus).toBeLessThan(a.best.load.gpus / 2);
  });

  it('an ordinary rate is headed as before: Llama 3 70B, 2K prompts at 20 requests/s within 2 s', async () => {
    const { code, out } = await cli(['inference', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--prompt', '2k', '--output', '512', '--rate', '20',
      '--max-ttft-s', '2', '--batching', 'continuous']);
    expect(code).toBe(0);
    expect(planLines(out).head).toMatch(/^best under the bounds \(≤ 2\.00 s to the first token, 20 requests\/s\): TP [1248] · PP \d+/);
    expect(out).not.toContain('first-token bound binds');
    expect(out).not.toContain('at a real load');
  });
});
