import { runScale, validateNodesResponse } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[], tty = false, stdin?: string) {
  const io = { ...fakeIo(stdin === undefined ? {} : { stdin }), stderrIsTTY: tty };
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const GPT3 = ['nodes', '--model', 'gpt3-175b', '--gpu', 'dgx-a100-80gb', '--global-batch', '1536', '--tokens', '300B'];

describe('trainplan nodes', () => {
  it.each(['30d', '30 days', '30D'])('--days %s is 30 days: the unit the flag is already in is allowed', async (days) => {
    const LLAMA = ['nodes', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--tokens', '1T', '--json'];
    const [given, plain] = await Promise.all([cli([...LLAMA, '--days', days]), cli([...LLAMA, '--days', '30'])]);
    expect(given.code).toBe(0);
    expect(JSON.parse(given.out).nodes).toBe(JSON.parse(plain.out).nodes);
  });

  it('without --global-batch the report says why the batch is its size, as the bot does: more than 4M tokens on a large cluster', async () => {
    const { code, out } = await cli(['nodes', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--tokens', '2T', '--nodes', '640']);
    expect(code).toBe(0);
    // 640 nodes × 8 GPUs / 8 = 640 sequences of 8,192 tokens: 5.24M, not "about 4M".
    expect(out.split('\n')[0]).toBe('assumed (no --global-batch): global batch 640 sequences (5.24M tokens: one sequence per 8 GPUs, more than the usual '
      + '4M tokens on a cluster this large, as Llama 3 405B trained with 2,048 sequences on 16,384 H100s)');
  });

  it('at 128k the batch grown for the cluster stops at 16M tokens, as Llama 3 405B\'s Table 4 (QA: 448 sequences, 58.7M tokens)', async () => {
    const { code, out } = await cli(['nodes', '--model', 'llama3.1-405b', '--gpu', 'dgx-h100', '--seq-length', '128k', '--tokens', '800B', '--days', '30']);
    expect(code).toBe(0);
    const line = out.split('\n')[0]!;
    // The cap said as the answers print it: 2^24 tokens, 16.8M, Table 4's "16M" (QA: "up to 16M" beside 16.8M and 18.4M).
    expect(line).toContain("one sequence per 8 GPUs up to 16.8M tokens (2^24) a step, the \"16M\" every row of Llama 3 405B's Table 4 keeps");
    const m = /on ([\d,]+) nodes: global batch ([\d,]+) sequences/.exec(line);
    const [nodes, sequences] = [Number(m?.[1]?.replace(/,/g, '')), Number(m?.[2]?.replace(/,/g, ''))];
    // By hand: 2^24 / 131,072 = 128 sequences, rounded to a multiple of the size's data-parallel step (on 448 nodes, 56:
    // 112; on 504, 63: 126), never one sequence per 8 GPUs: the 400-odd the rule gave on these sizes.
    expect(sequences).toBeGreaterThanOrEqual(112);
    expect(sequences).toBeLessThanOrEqual(144);
    expect(sequences).toBeLessThan(nodes / 2);
  });

  it('--days 30dd is refused as given', async () => {
    const { code, err } = await cli([...GPT3, '--days', '30dd']);
    expect(code).toBe(2);
    expect(err).toMatch(/^trainplan: --days: expected a number > 0 and ≤ 100,000, got "30dd" \(write 30, 30d or 30 days; /);
  });

  it('--seq-length 8k is 8192 tokens (k is 1024 in a sequence length, as the chat bot reads "8k context"), 2048 stays 2048', async () => {
    for (const [given, tokens] of [['8k', 8192], ['2K', 2048], ['2048', 2048], ['1.5k', 1536]] as const) {
      const { code, out } = await cli(['nodes', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--tokens', '1T', '--days', '30', '--seq-length', given, '--json']);
      expect(code, given).toBe(0);
      expect(JSON.parse(out).configuration.scenario.training.seqLength, given).toBe(tokens);
    }
  });

  it('--budget with --price and no deadline: the fastest plan the money affords, with the smallest cluster that fits', async () => {
    const { code, out } = await cli([...GPT3, '--budget', '1.2M', '--price', '2', '--json']);
    expect(code).toBe(0);
    const a = JSON.parse(out);
    expect(validateNodesResponse(a).ok).toBe(true);
    expect(a.mode).toBe('fastest-within-budget');
    expect(a.cost).toBeLessThanOrEqual(1.2e6);
    expect(a.cost).toBeCloseTo(2 * a.gpuHours, 3);
    expect(a.smallest.nodes).toBeLessThan(a.nodes);
    expect(a.smallest.days).toBeGreaterThan(a.days);
    // The JSON keeps the fields it had: nodes, days, gpuHours, configuration.
    expect(a.configuration.scenario.cluster.nodes).toBe(a.nodes);
  });

  it('says both answers in words', async () => {
    const { code, out } = await cli([...GPT3, '--budget', '1.2M', '--price', '2']);
    expect(code).toBe(0);
    // The first cost says its currency (--price's: the CLI drops any sign it is given); the next, on the line below, is bare.
    // The uptime the figures assume under the first of them (100%: no --uptime), then the smallest size's.
    expect(out).toMatch(/^fastest within the budget: \d+ nodes \([\d,]+ × a100-80gb\)\ntime to train 300B tokens: [\d.]+ days · [\d,]+ GPU-hours · cost [\d,]+ \(in --price's currency\)\n  at 100% uptime: no restarts or failures counted \(--uptime 0\.9 for Meta's Llama 3 figure\)\nsmallest cluster that fits: \d+ nodes?, [\d.]+ days · [\d,]+ GPU-hours · cost [\d,]+\n/);
  });

  it('a budget alone says how thoroughly the cluster sizes were searched, the JSON\'s note, as a deadline says what it checked', async () => {
    const args = [...GPT3, '--budget', '1.2M', '--price', '2'];
    const a = JSON.parse((await cli([...args, '--json'])).out);
    expect(a.mode).toBe('fastest-within-budget');
    expect(a.note).toMatch(/^the fastest of \d+ cluster sizes searched \(/);
    const { code, out } = await cli(args);
    expect(code).toBe(0);
    // The JSON's note names request fields ("a deadline (days)"), as the API's does; the report says them as flags.
    expect(a.note).toContain('a deadline (days) with the budget runs');
    expect(a.note).not.toMatch(/--days|--nodes/);
    expect(out).toContain(`cluster sizes searched\n  ${a.note.replace('a deadline (days)', 'a deadline (--days)')}\n`);
    // A deadline's note is its checked line, said once.
    const deadline = await cli([...GPT3, '--days', '30']);
    expect(deadline.out).toContain('\n  checked: ');
    expect(deadline.out).not.toContain('(every one searched)');
  });

  it('the help\'s example (--gpu-hours 6.4M, no deadline) answers weeks, not the thousands of days of the smallest cluster', async () => {
    const { code, out } = await cli(['nodes', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--tokens', '15T', '--gpu-hours', '6.4M', '--json']);
    expect(code).toBe(0);
    const a = JSON.parse(out);
    expect(a.gpuHours).toBeLessThanOrEqual(6.4e6);
    expect(a.smallest.days).toBeGreaterThan(1000);
    expect(a.days).toBeLessThan(a.smallest.days / 10);
  });

  it('the report groups thousands of days as it groups GPU-hours: the smallest cluster of the help\'s example takes "8,764.4 days"', async () => {
    const args = ['nodes', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--tokens', '15T', '--gpu-hours', '6.4M'];
    const a = JSON.parse((await cli([...args, '--json'])).out);
    const grouped = a.smallest.days.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    expect((await cli(args)).out).toContain(`smallest cluster that fits: ${a.smallest.nodes} nodes, ${grouped} days · `);
  });

  it('a deadline the batch holds back ends with a hint: the same question at twice the batch (GPT-3 175B in 2 days on H100)', async () => {
    const args = ['nodes', '--model', 'gpt3-175b', '--gpu', 'h100-sxm', '--global-batch', '2048', '--tokens', '300B', '--days', '2'];
    const a = JSON.parse((await cli([...args, '--json'])).out);
    expect(a.largerBatch.globalBatchSize).toBe(4096);
    const { code, out } = await cli(args);
    expect(code).toBe(0);
    expect(out).toContain(`\nhint: ${a.largerBatch.message}\n`);
    expect((await cli([...GPT3, '--days', '30'])).out).not.toContain('hint:');
  });

  it('--frontier: the cheapest size as the answer, then the curve with each size\'s time, GPU-hours, cost and plan, ★ on the Pareto sizes', async () => {
    const args = [...GPT3, '--frontier', '--price', '2'];
    const a = JSON.parse((await cli([...args, '--json'])).out);
    expect(validateNodesResponse(a).ok).toBe(true);
    expect(a.mode).toBe('cost-time-frontier');
    const { code, out } = await cli(args);
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^cheapest: ${a.nodes} nodes \\(${a.gpus} × a100-80gb\\)\ntime to train 300B tokens: [\\d.]+ days · [\\d,]+ GPU-hours · cost [\\d,]+ \\(in --price's currency\\)\n`));
    const table = out.slice(out.indexOf('time–cost curve'));
    expect(table.split('\n')[0]).toBe(`time–cost curve over ${a.frontier.length} cluster sizes that run (★: no other size searched trains as fast for as few GPU-hours):`);
    // The cost column says its currency; a BF16 plan's MFU is one column, of the BF16 peak.
    expect(table.split('\n')[1]!.trim().split(/\s{2,}/)).toEqual(['nodes', 'GPUs', 'time', 'GPU-hours', "cost (in --price's currency)", 'MFU', 'plan']);
    const rows = table.split('\n').slice(2).filter((line) => line.startsWith('  ') && !line.includes('not shown'));
    // The curve's fastest size at twice the batch, after the table.
    expect(out.trimEnd().split('\n').at(-1)).toBe(`hint: ${a.largerBatch.message}`);
    type Size = { nodes: number; days: number; gpuHours: number; cost: number; pareto: boolean; label: string };
    // Shown: the smallest that fits, the powers of two and every ★ size; the sizes between the powers of two searched besides are left out.
    const shown = a.frontier.filter((p: Size, i: number) => i === 0 || p.pareto || (p.nodes & (p.nodes - 1)) === 0);
    const left: Size[] = a.frontier.filter((p: Size) => !shown.includes(p));
    expect(left.length).toBeGreaterThan(0);
    expect(table).toContain(`\n  ${left.length} other sizes not shown: a ★ size beats each on both time and GPU-hours\n`);
    for (const p of left) {
      expect(shown.some((q: Size) => q.pareto && q.days <= p.days && q.gpuHours <= p.gpuHours), `${p.nodes} nodes`).toBe(true);
    }
    expect(rows).toHaveLength(shown.length);
    shown.forEach((p: Size, i: number) => {
      const row = rows[i]!;
      expect(row.startsWith('  ★'), `${p.nodes} nodes`).toBe(p.pareto);
      expect(row).toContain(` ${p.nodes.toLocaleString('en-US')} `);
      expect(row).toContain(Math.round(p.gpuHours).toLocaleString('en-US'));
      expect(row).toContain(Math.round(p.cost).toLocaleString('en-US'));
      expect(row).toContain(p.label);
    });
    expect(rows.find((r) => r.endsWith('← cheapest'))).toContain(` ${a.nodes.toLocaleString('en-US')} `);
    expect(rows.find((r) => r.endsWith('← fastest'))).toContain(` ${a.fastest.nodes.toLocaleString('en-US')} `);
  });

  it('--export with a goal no size meets leaves stdout empty (no prose for `> run.sh`): the report, the assumed batch once and the reason go to stderr', async () => {
    // 300B tokens of GPT-3 175B in half a day: no cluster of up to 8,192 nodes is that fast.
    const { code, out, err } = await cli(['nodes', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--tokens', '300B', '--days', '0.5', '--export', 'megatron']);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err.match(/assumed \(no --global-batch\)/g)).toHaveLength(1);
    expect(err).toMatch(/\nno answer: no cluster of up to 8,?192 nodes meets the deadline/);
    expect(err).toMatch(/\nclosest feasible alternative: [\d,]+ nodes, [\d.]+ (?:hours|days), [\d,]+ GPU-hours\n/);
    // The last line is the reason code and the answer's message (the report's first line after "no answer: "), as without --export.
    expect(err.endsWith(`\ntrainplan: deadline-unreachable: ${/^no answer: (.*)$/m.exec(err)![1]!}\n`)).toBe(true);
  });

  it('--export nemo says when NeMo 1.x\'s virtual-stage assertion refuses the split it writes (80 layers and the loss on 9 stages, v 3)', async () => {
    const { code, out } = await cli(['nodes', '--model', 'llama3-70b', '--gpu', 'dgx-h100', '--tokens', '2T', '--days', '30', '--export', 'nemo']);
    expect(code).toBe(0);
    expect(out).toContain('  # NeMo 1.x asserts (num_layers // pipeline_model_parallel_size) % virtual_pipeline_model_parallel_size == 0, which 80 // 9 = 8 fails for 3');
  });

  it('--export megatron names the cluster size it found, which Megatron takes from the launcher, not from its arguments', async () => {
    const args = [...GPT3, '--days', '30'];
    const a = JSON.parse((await cli([...args, '--json'])).out);
    const { code, out } = await cli([...args, '--export', 'megatron']);
    expect(code).toBe(0);
    const header = out.split('\n')[1]!;
    const m = /^# planned for (\d+) nodes × 8 GPUs \(world size ([\d,]+): TP (\d+) · PP (\d+) · CP (\d+) · DP (\d+)\), the fewest nodes that meet the deadline; the launcher sets it \(torchrun --nnodes (\d+) --nproc-per-node 8\)$/.exec(header);
    expect(m, header).not.toBeNull();
    const [nodes, world, tp, pp, cp, dp, launched] = m!.slice(1).map((x) => Number(x.replace(/,/g, '')));
    expect([nodes, launched]).toEqual([a.nodes, a.nodes]);
    // validate_args: world_size % (TP · PP · CP) == 0, and DP is the quotient.
    expect(world).toBe(8 * a.nodes);
    expect(tp! * pp! * cp! * dp!).toBe(world);
    expect(out).toContain(`--tensor-model-parallel-size ${tp} \\\n`);
    expect(out).toContain(`--pipeline-model-parallel-size ${pp} \\\n`);
    // NeMo carries the size in trainer: as well.
    const nemo = (await cli([...args, '--export', 'nemo'])).out.split('\n');
    expect(nemo).toContain(`  num_nodes: ${a.nodes}`);
    expect(nemo).toContain('  devices: 8');
  });

  it('--frontier --export says it exported the curve\'s cheapest size, and how to export another', async () => {
    const args = ['nodes', '--model', 'llama3-8b', '--gpu', 'dgx-h100', '--tokens', '1T', '--frontier'];
    const a = JSON.parse((await cli([...args, '--json'])).out);
    expect(a.mode).toBe('cost-time-frontier');
    for (const format of ['megatron', 'nemo']) {
      const { code, out } = await cli([...args, '--export', format]);
      expect(code).toBe(0);
      const header = out.split('\n')[1]!;
      expect(header).toMatch(new RegExp(`^# planned for ${a.nodes} nodes? × 8 GPUs \\(world size ${8 * a.nodes}: [^)]*\\), the time–cost curve's cheapest size `));
      expect(header).toContain('run again with --nodes N in place of --frontier');
    }
  }, 150_000); // three full time–cost searches (1 to 8,192 nodes), ~11 s of CPU each alone: the 60 s default is too close on 2 shared cores

  it('--export with --json is a usage error, as in search: one of them replaces the report, not both', async () => {
    const { code, out, err } = await cli([...GPT3, '--nodes', '128', '--export', 'megatron', '--json']);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toMatch(/^trainplan: give --json or --export, not both \(usage: trainplan nodes /);
  });

  it.each([
    [['--nodes', '0'], '--nodes: expected an integer ≥ 1, got 0'],
    [['--nodes', '-4'], '--nodes: expected an integer ≥ 1, got -4'],
    [['--nodes', '2', '--seq-length', '0'], '--seq-length: expected an integer ≥ 1, got 0'],
  ])('without --global-batch, %j names only the flag at fault, not the batch it would assume (NaN, Infinity)', async (flags, message) => {
    const { code, out, err } = await cli(['nodes', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--tokens', '1T', ...flags]);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toBe(`trainplan: ${message}\n`);
  });

  it('--budget without --price is a usage error said by --budget, naming --price (QA: "--price: a budget in money needs --price")', async () => {
    const { code, out, err } = await cli([...GPT3, '--budget', '1M']);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toMatch(/^trainplan: --budget needs --price: a budget in money becomes GPU-hours at the price of one GPU-hour \(--price P\); or give the budget in GPU-hours \(--gpu-hours H\) \(usage: trainplan nodes [^\n]*\)\n$/);
  });

  it('a deadline answer says how far below it every size was checked, telling sizes that run no plan from sizes that miss the deadline', async () => {
    const { code, out } = await cli([...GPT3, '--days', '30']);
    expect(code).toBe(0);
    const a = JSON.parse((await cli([...GPT3, '--days', '30', '--json'])).out);
    const { fromNodes, noPlan } = a.checked;
    const total = a.nodes - fromNodes;
    // Below the answer some counts leave no TP × PP × DP split of the batch (a prime count of nodes, say):
    // those run nothing rather than miss the deadline.
    expect(noPlan).toBeGreaterThan(0);
    expect(noPlan).toBeLessThan(total);
    const m = /^fewest nodes: (\d+) nodes[\s\S]*\n {2}checked: of the sizes from (\d+) to (\d+) nodes, (\d+) miss the deadline and (\d+) run no plan \([^)]+\); fewer than \2 cannot meet it even at 100% MFU\n/.exec(out);
    expect(m, out).not.toBeNull();
    expect(Number(m![1])).toBe(a.nodes);
    expect(Number(m![3])).toBe(Number(m![1]) - 1);
    expect([Number(m![4]), Number(m![5])]).toEqual([total - noPlan, noPlan]);
  });

  it('sizes that run out of memory are not said to miss the deadline (a one-step run: the answer is the smallest cluster that fits)', async () => {
    const oneStep = String(1536 * 2048);
    const { code, out } = await cli([...GPT3.slice(0, -1), oneStep, '--days', '30', '--json']);
    expect(code).toBe(0);
    const a = JSON.parse(out);
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: a });
    // Every smaller size, swept independently, runs nothing for want of memory.
    const below = Array.from({ length: a.nodes - 1 }, (_, i) => i + 1);
    const sweep = runScale({ model: 'gpt3-175b', cluster: { gpu: 'dgx-a100-80gb' }, training: { globalBatchSize: 1536 }, nodes: below });
    // No size runs: the sweep answers ok: false, its points still there.
    if (!('points' in sweep)) throw new Error(sweep.message);
    expect(sweep).toMatchObject({ ok: false, reason: 'no-feasible-configuration' });
    for (const p of sweep.points) expect(p.reason, `${p.nodes} nodes`).toMatch(/out of memory/);
    expect(a.checked).toEqual({ fromNodes: 1, complete: true, noPlan: a.nodes - 1, outOfMemory: a.nodes - 1 });
    const text = (await cli([...GPT3.slice(0, -1), oneStep, '--days', '30'])).out;
    expect(text).toContain(`\n  checked: no size from 1 to ${a.nodes - 1} nodes runs a plan (out of memory)\n`);
    expect(text).not.toMatch(/misses the deadline|fewer than 1 |0\.0 days/);
  });

  it('a token budget smaller than one global batch is refused, naming --tokens: training takes whole steps', async () => {
    const { code, out, err } = await cli([...GPT3.slice(0, -1), '1', '--days', '30']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe('trainplan: --tokens: 1 token is less than one optimizer step, a global batch of 1,536 × 2,048 = 3,145,728 tokens (training takes whole steps)\n');
  });

  it('a null request on stdin names the request, like search, scale and inference, not an internal error', async () => {
    const nodes = await cli(['nodes', '--input', '-'], false, 'null');
    expect(nodes.code).toBe(2);
    expect(nodes.err).toBe('trainplan: (request): expected a nodes request object, got null\n');
    const search = await cli(['search', '--input', '-'], false, 'null');
    expect(search.code).toBe(nodes.code);
    expect(search.err).toBe('trainplan: (request): expected a search request object, got null\n');
  });

  it.each([
    [['--gpu-hours', '0'], '--gpu-hours'],
    [['--budget', '0', '--price', '2'], '--budget'],
    [['--days', '30', '--gpu-hours', '0'], '--gpu-hours'],
  ])('a zero budget (%j) is a usage error naming its flag, as --days 0 is', async (flags, flag) => {
    const { code, out, err } = await cli([...GPT3, ...flags]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(`trainplan: ${flag}: expected a number > 0, got 0\n`);
  });

  it('a deadline met easily with a budget that is not: the budget is blamed, with the cheapest plan that meets the deadline', async () => {
    const { code, out, err } = await cli([...GPT3, '--days', '200', '--gpu-hours', '100', '--json']);
    expect(code).toBe(1);
    const a = JSON.parse(out);
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: a });
    expect(a.reason).toBe('budget-unreachable');
    expect(a.closest.days).toBeLessThanOrEqual(200);
    expect(a.closest.gpuHours).toBeGreaterThan(100);
    expect(a.message).toContain(`${Math.round(a.closest.gpuHours - 100).toLocaleString('en-US')} over the budget of 100`);
    expect(err).toMatch(/^trainplan: budget-unreachable: /);
    // The deadline alone is met, so it cannot be what fails.
    expect((await cli([...GPT3, '--days', '200'])).code).toBe(0);
  });

  it('a money budget with a deadline is checked the same way', async () => {
    const { code, out } = await cli([...GPT3, '--days', '30', '--budget', '100', '--price', '2']);
    expect(code).toBe(1);
    expect(out).toMatch(/^no answer: the deadline can be met but not within the budget: .*a cost of [\d,]+ at the price given, [\d,]+ over the budget of 100/);
    const alt = /\nclosest feasible alternative: \d+ nodes, ([\d.]+) days, [\d,]+ GPU-hours, cost [\d,]+ \(in --price's currency\)\n/.exec(out);
    expect(alt, out).not.toBeNull();
    expect(Number(alt![1])).toBeLessThanOrEqual(30);
  });

  it('a cluster size that runs nothing offers the nearest size that runs, above or below, not the smallest', async () => {
    const asked = 1700;
    const { code, out } = await cli([...GPT3, '--nodes', String(asked), '--json']);
    expect(code).toBe(1);
    const a = JSON.parse(out);
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: a });
    expect(a.reason).toBe('does-not-fit');
    // Why: 1,700 × 8 = 13,600 GPUs = 2^5 · 5^2 · 17, and no split of them divides the 96 layers, the heads and a batch of 1,536 = 2^9 · 3.
    expect(a.message).toMatch(/^no configuration of 1,700 nodes splits its 13,600 GPUs into a layout the model and a batch of 1,536 divide/);
    // The sizes around it, swept independently (at most 64 a sweep): the nearest that runs, either side.
    const sweep = (from: number, to: number) => {
      const s = runScale({ model: 'gpt3-175b', cluster: { gpu: 'dgx-a100-80gb' }, training: { globalBatchSize: 1536 }, nodes: Array.from({ length: to - from + 1 }, (_, i) => from + i) });
      if (!s.ok) throw new Error(s.message);
      return s.points.filter((p) => p.stepTimeSeconds !== undefined).map((p) => p.nodes);
    };
    const runs = [...sweep(asked - 48, asked - 1), ...sweep(asked + 1, asked + 48)];
    expect(runs).not.toContain(asked);
    const distance = Math.min(...runs.map((n) => Math.abs(n - asked)));
    expect(Math.abs(a.closest.nodes - asked)).toBe(distance);
    expect(runs).toContain(a.closest.nodes);
    // And the nearest smaller size that runs is named too, for a user who has only the nodes asked for.
    const smaller = Math.max(...runs.filter((n) => n < asked));
    expect(a.closest.nodes).toBeGreaterThan(asked); // 1728 is nearer than 1664: the smaller size is named beside it
    expect(a.message).toContain(`the nearest smaller ${smaller.toLocaleString('en-US')} nodes`);
  });

  it('a size as far from a smaller one that runs as from a larger one offers both, each with its days: 86 nodes → 84 and 88', async () => {
    const { code, out, err } = await cli([...GPT3, '--nodes', '86']);
    expect(code).toBe(1);
    const offered = /; the nearest sizes that run are 84 nodes \(2 fewer, ([\d.]+) days\) and 88 nodes \(2 more, ([\d.]+) days\)\n/;
    expect(out).toMatch(offered);
    // stderr: the reason code for a script, then the answer's message, which blames divisibility, not memory: 688 GPUs =
    // 2^4 · 43, and the prime 43 divides none of what TP, PP, CP and DP must divide (96 heads, 96 layers, 2,048 tokens, a
    // batch of 1,536). --json's stderr line is the same.
    expect(err).toBe(`trainplan: does-not-fit: ${/^no answer: (.*)$/m.exec(out)![1]!}\n`);
    expect(err).toMatch(/^trainplan: does-not-fit: no configuration of 86 nodes splits its 688 GPUs into a layout the model and a batch of 1,536 divide/);
    expect(err).not.toMatch(/memory/);
    expect((await cli([...GPT3, '--nodes', '86', '--json'])).err).toMatch(offered);
    // Each with the days that size takes (as asking for it answers).
    const days = async (nodes: number) => JSON.parse((await cli([...GPT3, '--nodes', String(nodes), '--json'])).out).days.toFixed(1);
    const [, d84, d88] = offered.exec(out)!;
    expect([d84, d88]).toEqual([await days(84), await days(88)]);
  });

  it.each([
    [['--days', '30'], 'a deadline'],
    [['--nodes', '128'], 'a size'],
  ])('constraints that contradict each other (with %j) are a usage error: exit 2, one stderr line, no report', async (goal) => {
    const { code, out, err } = await cli([...GPT3, ...goal, '--tensor', '8', '--max-tensor', '4']);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    // The contradiction alone: no size is to blame ("no configuration of 128 nodes runs" or "on any cluster size" is left out).
    expect(err).toBe('trainplan: the constraints contradict each other: --tensor asks for TP 8, but --max-tensor caps it at 4 (8 > 4)\n');
  });

  it('a GPU-hour budget no size meets ends stderr with budget-unreachable and the answer\'s message, on one line', async () => {
    // GPT-3 175B on 300B tokens takes about 6 × 175e9 × 300e9 = 3.15e23 FLOPs: at 312 TFLOP/s a GPU, over 280,000 GPU-hours at
    // 100% MFU, far above 1,000.
    const { code, out, err } = await cli([...GPT3, '--gpu-hours', '1000']);
    expect(code).toBe(1);
    const message = /^no answer: (.*)$/m.exec(out)![1]!;
    expect(message).toMatch(/^no cluster size stays within the GPU-hour budget of 1,000: /);
    expect(err).toBe(`trainplan: budget-unreachable: ${message}\n`);
  });

  it('an FP8 plan\'s MFU is said against the FP8 peak, with the BF16 peak\'s share beside it', async () => {
    const args = ['nodes', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--tokens', '1T', '--nodes', '1', '--global-batch', '64', '--precision', 'fp8'];
    const e = JSON.parse((await cli([...args, '--json'])).out).configuration.estimate;
    const { code, out } = await cli(args);
    expect(code).toBe(0);
    // Of the BF16 peak: the model TFLOP/s per GPU over the H100 SXM's dense BF16 peak, 989.4 TFLOP/s (NVIDIA's datasheet).
    const ofBf16 = `${((e.modelTflopsPerGpu / 989.4) * 100).toFixed(1)}%`;
    expect(out).toMatch(new RegExp(`\n  step [^\n]* · MFU ${(e.mfu * 100).toFixed(1)}% of the FP8 peak \\(${ofBf16} of the BF16 peak\\) · `));
  });

  it('--days -5 is refused for its value, not taken for a flag', async () => {
    const { code, err } = await cli([...GPT3, '--days', '-5']);
    expect(code).toBe(2);
    expect(err).toMatch(/^trainplan: --days: expected a number > 0, got -5$/m);
    expect(err).not.toContain('got the flag');
  });

  it('on GB200 NVL72 the headline names the NVLink domains (racks) the GPUs fill, as --json counts them; other systems name none', async () => {
    const args = ['nodes', '--model', 'llama3-70b', '--gpu', 'gb200', '--tokens', '15T', '--days', '30'];
    const a = JSON.parse((await cli([...args, '--json'])).out);
    // Every field protocol's schema knows, kept; assumedGlobalBatch (no --global-batch) is the API's extension, documented
    // beside POST /v1/nodes (apps/api nodes-schemas.ts), which protocol's open schema drops.
    const { assumedGlobalBatch: _assumed, ...answer } = a;
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: answer });
    // A GB200 node is a tray of 4 GPUs; its racks hold 72: whole racks and a last one holding the rest.
    const racks = Math.ceil(a.gpus / 72);
    const last = a.gpus - 72 * (racks - 1);
    expect(a.gpus).toBe(4 * a.nodes);
    expect(a.nvlinkDomains).toEqual({ count: racks, gpusEach: 72 });
    const { code, out } = await cli(args);
    expect(code).toBe(0);
    const grouped = (n: number) => n.toLocaleString('en-US');
    expect(out).toContain(`\nfewest nodes: ${grouped(a.nodes)} nodes (${grouped(a.gpus)} × gb200 in ${racks} NVLink domains of 72 GPUs${last === 72 ? '' : `, the last holding ${last}`})\n`);
    const h100 = await cli(['nodes', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--tokens', '1T', '--nodes', '16']);
    expect(h100.out).toMatch(/\non: 16 nodes \(128 × h100-sxm\)\n/);
    expect(h100.out).not.toContain('NVLink domain');
  });

  it('one node is "1 node"', async () => {
    const { code, out } = await cli(['nodes', '--model', 'gpt3-1.3b', '--gpu', 'a100-80gb', '--global-batch', '512', '--tokens', '1B', '--nodes', '1']);
    expect(code).toBe(0);
    expect(out).toMatch(/^on: 1 node \(8 × a100-80gb\)\n/);
    expect(out).toContain('· 1 cluster size searched');
  });

  it('on a terminal, the bar restarts for each cluster size searched and names it', async () => {
    const { err } = await cli([...GPT3, '--days', '30', '--json'], true);
    const sizes = new Set([...err.matchAll(/sizing (\d+) nodes? \(cluster size (\d+)\)/g)].map((m) => m[2]));
    expect(sizes.size).toBeGreaterThan(10);
    expect(err).toMatch(/sizing 1 node \(cluster size 1\)/);
    expect(err.endsWith('\r')).toBe(true);
    expect((await cli([...GPT3, '--days', '30', '--json'])).err).toBe('');
  });

  describe('a request built from flags is told its fields by their flags', () => {
    it('--days with --nodes names --nodes, --days, --gpu-hours and --budget, and leaves "days on that many nodes" as it reads', async () => {
      const { code, out, err } = await cli([...GPT3, '--days', '30', '--nodes', '8']);
      expect({ code, out }).toEqual({ code: 2, out: '' });
      expect(err).toBe('trainplan: give --nodes (days on that many nodes) or a goal (--days, --gpu-hours, --budget), not both\n');
    });

    it('no goal: "give a deadline (--days), a budget (--gpu-hours, or --budget with --price), --nodes, or --frontier", pinned on no flag (none was given)', async () => {
      const { code, err } = await cli(GPT3);
      expect(code).toBe(2);
      expect(err).toBe('trainplan: give a deadline (--days), a budget (--gpu-hours, or --budget with --price), --nodes, or --frontier\n');
    });

    it('--frontier with a goal names both by their flags', async () => {
      const { code, err } = await cli([...GPT3, '--frontier', '--days', '3']);
      expect(code).toBe(2);
      expect(err).toBe('trainplan: give --frontier (the time–cost curve) or a goal (--days), not both\n');
    });

    it('the plan\'s warnings name --memory-fraction; --json keeps the field, memoryFraction', async () => {
      const args = [...GPT3, '--nodes', '16', '--memory-fraction', '1'];
      const { code, out } = await cli(args);
      expect(code).toBe(0);
      expect(out).toMatch(/\n {2}⚠ peak memory is 9\d\.\d% of the GPU's: .*; --memory-fraction 0\.9 keeps 10%\)\n/);
      expect(out).not.toContain('memoryFraction');
      expect((await cli([...args, '--json'])).out).toContain('memoryFraction 0.9 keeps 10%');
    });

    it('an --input request is told its JSON fields', async () => {
      const request = { model: 'gpt3-175b', cluster: { gpu: 'dgx-a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 3e11, days: 30, nodes: 8 };
      const { code, err } = await cli(['nodes', '--input', '-'], false, JSON.stringify(request));
      expect(code).toBe(2);
      expect(err).toBe('trainplan: nodes: give nodes (days on that many nodes) or a goal (days, gpuHours, budget), not both\n');
    });
  });
});
