import { runCollective } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { bottleneckText, percentText } from '../../src/commands/collective.ts';
import { fakeIo } from '../support/fake-io.ts';

async function collective(args: string[]) {
  const io = fakeIo();
  const code = await main(['collective', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe('trainplan collective', () => {
  it('prints an nccl-tests-like table over 8 B … 16 GiB and exits 0', async () => {
    const { code, out, err } = await collective(['--op', 'all-reduce', '--gpu', 'h100-sxm', '--nodes', '4']);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toMatch(/size\s+time\s+algbw GB\/s\s+busbw GB\/s\s+algorithm\s+protocol/);
    expect(out).toMatch(/\n {2,}8 B  /);
    expect(out).toMatch(/16\.0 GiB/);
  });

  it('the title groups ranks and nodes by thousands: "a100-80gb × 12,288 (1,536 nodes × 8, …)"', async () => {
    const { out } = await collective(['--op', 'all-reduce', '--gpu', 'a100-80gb', '--nodes', '1536', '--size', '1GiB']);
    expect(out.split('\n')[0]).toMatch(/^all-reduce · a100-80gb × 12,288 \(1,536 nodes × 8, /);
  });

  it.each([['1', '1 node × 8'], ['4', '4 nodes × 8']])('the title counts --nodes %s in words: "%s", not "node(s)"', async (nodes, shown) => {
    const { out } = await collective(['--op', 'all-reduce', '--gpu', 'h100-sxm', '--nodes', nodes, '--size', '1GiB']);
    expect(out.split('\n')[0]).toContain(`(${shown}, `);
  });

  it.each([
    ['1GB', '1.00 GB'], ['1TB', '1.00 TB'], ['1e12', '1.00 TB'], ['1GiB', '1.00 GiB'], ['64MiB', '64.0 MiB'], ['1.5GiB', '1.50 GiB'],
    ['300', '300 B'], ['8', '8 B'], ['64B', '64 B'], ['1KB', '1.00 KB'], ['1KiB', '1.00 KiB'],
    // QA 2026-11-29: 64kB and 64000 were shown as "62.5 KiB" (exact in binary) while 1000 was "1.00 KB".
    ['64kB', '64.0 KB'], ['64000', '64.0 KB'], ['1000', '1.00 KB'], ['64MB', '64.0 MB'], ['1073741824', '1.00 GiB'],
    // 512,000 B is both 512 KB and 500 KiB exactly: shown as typed.
    ['500KiB', '500 KiB'], ['512KB', '512 KB'],
  ])('--size %s is shown as %s, in the units it was given in (whole bytes under a kilobyte)', async (size, shown) => {
    const { out } = await collective(['--op', 'all-reduce', '--gpu', 'a100-80gb', '--size', size]);
    expect(out.split('\n')[3]?.trim().startsWith(shown)).toBe(true);
  });

  // QA 2026-11-29: the API's cap of 256 nodes × sizes emulated also refused the CLI (--nodes 16 --emulate, the README's
  // 16,384-GPU emulation). The CLI spends only its user's CPU, and --event-budget bounds the work.
  it('emulates past the API\'s node-size cap: the 32-size sweep on 16 nodes (512 node-sizes) and one size on 300 nodes', async () => {
    const sweep = await collective(['--op', 'all-reduce', '--gpu', 'a100-80gb', '--nodes', '16', '--emulate', '--json']);
    expect(sweep.err).toBe('');
    expect(sweep.code).toBe(0);
    const rows = (JSON.parse(sweep.out) as { rows: { emulated?: unknown }[] }).rows;
    expect(rows).toHaveLength(32);
    expect(rows.every((r) => r.emulated !== undefined)).toBe(true);
    const wide = await collective(['--op', 'all-reduce', '--gpu', 'a100-80gb', '--nodes', '300', '--size', '1GiB', '--emulate']);
    expect(wide.err).toBe('');
    expect(wide.code).toBe(0);
  }, 60_000);

  it('the event budget still bounds an emulation on many nodes: past it, exit 1 saying at least how much it needs', async () => {
    const { code, out, err } = await collective(['--op', 'all-reduce', '--gpu', 'a100-80gb', '--nodes', '300', '--size', '1GiB', '--emulate', '--event-budget', '1000']);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toMatch(/^trainplan: --event-budget: emulating 1\.00 GiB needs at least [\d,]+ budget units .*over the event budget of 1,000\n$/);
  });

  // QA compared the CLI's 64-node all-to-all at --event-budget 1e8 (ran ~87 s, then "needs more than that") with the API's
  // up-front refusal of a 256-node one ("needs at least 3,406,911,456"). Both count the same lower bound before running
  // (protocol's runCollective): 58,648,912 for 64 nodes, under 1e8, so that run starts; 3,406,911,456 for 256 nodes, over it.
  it('refuses before running what the API refuses before running, with the same count: 256-node all-to-all at --event-budget 1e8', async () => {
    const request = { op: 'all-to-all', gpu: 'h100-sxm', nodes: 256, size: 1e9, emulate: true } as const;
    const api = runCollective({ ...request, eventBudget: 2_000_000 });
    expect(api.ok).toBe(false);
    const needed = !api.ok ? api.limit!.requested : 0;
    expect(needed).toBeGreaterThan(1e8);
    const { code, out, err } = await collective(['--op', 'all-to-all', '--gpu', 'h100-sxm', '--nodes', '256', '--size', '1GB', '--emulate', '--event-budget', '1e8']);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe(`trainplan: --event-budget: emulating 1.00 GB needs at least ${needed.toLocaleString('en-US')} budget units (events, flows in flight, `
      + 'flow–link visits), counted before running (the rest is known only by running it), over the event budget of 100,000,000\n');
  });

  it('--help names the API\'s caps on emulation, which the CLI does not have', async () => {
    const { out } = await collective(['--help']);
    expect(out.replace(/\s+/g, ' ')).toContain('It is the CLI\'s only limit on emulation: POST /v1/collective also caps nodes × sizes emulated at 256');
  });

  it('--size --emulate --json gives one row with the emulated answer', async () => {
    const { code, out } = await collective(['--op', 'all-reduce', '--gpu', 'a100-80gb', '--nodes', '2', '--size', '1GiB', '--emulate', '--json']);
    expect(code).toBe(0);
    const answer = JSON.parse(out);
    expect(answer.rows).toHaveLength(1);
    expect(answer.rows[0].emulated.bottleneckLink.link).toMatch(/nic/);
  });

  it.each([
    [['--oversubscription', '4'], '--oversubscription applies'],
    [['--event-budget', '5'], '--event-budget applies'],
    [['--oversubscription', '4', '--event-budget', '5'], '--oversubscription and --event-budget apply'],
  ])('%j without --emulate: the note names the flags, not the request\'s fields', async (flags, subject) => {
    const { code, out } = await collective(['--op', 'all-reduce', '--gpu', 'h100-sxm', '--size', '1GB', ...flags]);
    expect(code).toBe(0);
    expect(out).toContain(`note: ${subject} only to the emulator (--emulate): the closed form above does not use`);
  });

  it('the help\'s --oversubscription example: the trunks shrink at 4:1, but a lone NCCL collective crosses each leaf boundary once per channel and barely notices', async () => {
    const { out: help } = await collective(['--help']);
    const example = help.split('\n').find((line) => line.includes('--oversubscription 4'))?.trim();
    expect(example).toBeDefined();
    const args = example!.split(/\s+/).slice(2);
    const run = async (ratio: string) => {
      const { code, out } = await collective([...args.map((a, i) => (args[i - 1] === '--oversubscription' ? ratio : a)), '--json']);
      expect(code).toBe(0);
      return JSON.parse(out) as { rows: { seconds: number; emulated: { seconds: number } }[]; topology: string[] };
    };
    const [blocking, nonBlocking] = [await run('4'), await run('1')];
    // The widest leaf-spine trunk, on the HDR network's 40-port Quantum QM8700 leaves: at 1:1 a leaf holds 20 nodes
    // (20 ports down, 20 up; one HDR NIC each per rail, 25 GB/s) and passes all 20 × 25 GB/s on; at 4:1 it holds 32
    // (40 · 4/5 down, 8 up) and passes a quarter of their 32 × 25 GB/s, its 8 uplinks' 8 × 25 … (these were 32 and
    // 51 nodes, 800 and 318.8 GB/s, while a 64-port leaf stood in for every fabric)
    const trunk = (a: { topology: string[] }) =>
      Math.max(...a.topology.flatMap((l) => [...l.matchAll(/leaf-spine ([\d.]+) GB\/s/g)].map((m) => Number(m[1]))));
    expect(trunk(nonBlocking)).toBeCloseTo(20 * 25, 6);
    expect(trunk(blocking)).toBeCloseTo((32 * 25) / 4, 6);
    // … yet the one all-reduce is within 2%: its few cross-leaf flows stay under a trunk's rate.
    expect(blocking.rows[0]!.seconds).toBe(nonBlocking.rows[0]!.seconds);
    expect(Math.abs(blocking.rows[0]!.emulated.seconds / nonBlocking.rows[0]!.emulated.seconds - 1)).toBeLessThanOrEqual(0.02);
  }, 30_000);

  it.each([
    [['--op', 'bogus', '--gpu', 'h100-sxm'], 2, /--op/],
    [['--op', 'all-reduce', '--gpu', 'h100-sxm', '--size', '-3'], 2, /--size/],
    [['--op', 'all-reduce', '--gpu', 'h100-sxm', '--nodes', 'many'], 2, /--nodes/],
    [['--op', 'all-reduce', '--gpu', 'a100-80gb', '--algorithm', 'nvls'], 1, /NVLS/],
  ])('%j exits %i with a one-line error', async (args, exit, message) => {
    const { code, err } = await collective(args);
    expect(code).toBe(exit);
    expect(err).toMatch(message);
  });

  it.each([
    [['--op', 'all-reduce'], 'trainplan: --gpu: give either --gpu or --system, got neither\n'],
    [['--op', 'all-reduce', '--gpu', 'a100-80gb', '--system', 'dgx-a100'], 'trainplan: --gpu: give either --gpu or --system, not both\n'],
  ])('%j names the flags, not the request fields gpu and system', async (args, err) => {
    expect(await collective(args)).toMatchObject({ code: 2, err });
  });

  // QA 2026-11-29: `--gpu dgx-h100` exited 2 ("… is a system: give it as system") where estimate, nodes and inference
  // take a system id in --gpu, as `trainplan presets --help` says every command does.
  it('--gpu takes a system id, as the other commands do: the same machine as --system gives', async () => {
    const asGpu = await collective(['--op', 'all-reduce', '--gpu', 'dgx-h100', '--nodes', '2', '--size', '1GiB', '--json']);
    const asSystem = await collective(['--op', 'all-reduce', '--system', 'dgx-h100', '--nodes', '2', '--size', '1GiB', '--json']);
    expect(asGpu.err).toBe('');
    expect(asGpu.code).toBe(0);
    expect(JSON.parse(asGpu.out)).toMatchObject({ gpu: 'h100-sxm', system: 'dgx-h100', network: 'ndr-ib-8x', ranks: 16 });
    expect(asGpu.out).toBe(asSystem.out);
  });

  it('--collnet turns CollNet on: the title says so, and NCCL\'s pick on 4 DGX H100 at 8 GiB is NVLS across nodes', async () => {
    const on = await collective(['--op', 'all-reduce', '--gpu', 'h100-sxm', '--nodes', '4', '--size', '8GiB', '--collnet']);
    expect(on.err).toBe('');
    expect(on.out.split('\n')[0]).toMatch(/ · algorithm auto · CollNet \(SHARP\) on$/);
    expect(on.out).toMatch(/8\.00 GiB .* nvls {2,}Simple/);
    const off = await collective(['--op', 'all-reduce', '--gpu', 'h100-sxm', '--nodes', '4', '--size', '8GiB']);
    expect(off.out).not.toMatch(/CollNet/);
    expect(off.out).toMatch(/8\.00 GiB .* ring {2,}Simple/);
  });

  it('--collnet on a network without SHARP exits 2 naming --collnet and the networks that have it', async () => {
    const { code, err } = await collective(['--op', 'all-reduce', '--gpu', 'h100-sxm', '--network', 'roce-400g-8x', '--nodes', '2', '--collnet']);
    expect(code).toBe(2);
    expect(err).toBe('trainplan: --collnet: CollNet needs in-network reduction (InfiniBand SHARP), which roce-400g-8x has not; networks with it: hdr-ib-4x, hdr-ib-8x, ndr200-ib-4x, ndr-ib-4x, ndr-ib-8x, nvl72\n');
  });

  it('8 NDR NICs on a 4-GPU GB200 tray: costed, and a note says so', async () => {
    const { out } = await collective(['--op', 'all-reduce', '--gpu', 'gb200', '--network', 'ndr-ib-8x', '--nodes', '2', '--size', '1GiB']);
    expect(out).toContain('note: ndr-ib-8x puts 8 NICs on a node, more than the 4 GPUs of a gb200-nvl72 node: costed with all 8 (2 per GPU, each GPU reaching them at most at its own PCIe link); gb200-nvl72\'s own network, nvl72, has 4 per node');
  });

  it('a GPU id given to --system is refused naming the flag to give it to, --gpu, not the request field', async () => {
    const { code, err } = await collective(['--op', 'all-reduce', '--system', 'h100-sxm']);
    expect(code).toBe(2);
    expect(err).toMatch(/^trainplan: --system: unknown system "h100-sxm"; known: .*dgx-h100.*; "h100-sxm" is a GPU: give it as --gpu\n$/);
  });

  it('reads counts as the other commands do: 1,024 nodes is a count, 0x10 is no number', async () => {
    const grouped = await collective(['--op', 'all-reduce', '--gpu', 'h100-sxm', '--nodes', '1,024', '--size', '1GiB', '--json']);
    expect(grouped.code).toBe(0);
    expect(JSON.parse(grouped.out)).toMatchObject({ nodes: 1024, ranks: 8192 });
    const hex = await collective(['--op', 'all-reduce', '--gpu', 'h100-sxm', '--nodes', '0x10', '--size', '1GiB']);
    expect(hex.code).toBe(2);
    expect(hex.err).toBe('trainplan: --nodes: expected an integer from 1 to 65,536, got "0x10"\n');
  });

  it('the help\'s --algorithm line names every algorithm the request takes, as the refusal of a wrong one lists them', async () => {
    const { err } = await collective(['--op', 'all-reduce', '--gpu', 'h100-sxm', '--algorithm', 'fastest']);
    const accepted = /expected one of (.*), got "fastest"/.exec(err)![1]!.split(', ');
    const { out: help } = await collective(['--help']);
    // The option's description, up to the next option: the synopsis says [--algorithm A], too many to list in 100 columns.
    const option = /\n {6}--algorithm A([\s\S]*?)\n {6}--/.exec(help)![1]!;
    const named = option.match(/[a-z]+(?:-[a-z]+)*/g)!.filter((w) => accepted.includes(w));
    expect([...new Set(named)].sort()).toEqual([...accepted].sort());
  });

  it('without --op it says what to give', async () => {
    const { code, err } = await collective(['--gpu', 'a100-80gb']);
    expect(code).toBe(2);
    expect(err).toMatch(/^trainplan: missing --op: give an op \(all-reduce, all-gather, reduce-scatter, broadcast, reduce, all-to-all, send-recv\) \(usage: /);
  });

  it.each([
    [['--op', 'allreduce'], '--op', 'allreduce', 'all-reduce'],
    [['--op', 'All_Gather'], '--op', 'All_Gather', 'all-gather'],
    [['--op', 'all-reduse'], '--op', 'all-reduse', 'all-reduce'],
    [['--op', 'all-reduce', '--algorithm', 'rng'], '--algorithm', 'rng', 'ring'],
  ])('%j: the refusal says the op or algorithm meant, as --model and --gpu say theirs', async (args, flag, typed, meant) => {
    const { code, err } = await collective([...args, '--gpu', 'h100-sxm', '--nodes', '2']);
    expect(code).toBe(2);
    expect(err).toMatch(new RegExp(`^trainplan: ${flag}: expected one of .*, got "${typed}" \\(did you mean ${meant}\\?\\)\n$`));
  });
});

describe('collective --size in bits', () => {
  it('"1Gb" (a capital prefix, a lower-case b: how link speeds write bits) is refused, saying the size is in bytes; "1GB", "1gb" and "1GiB" are sizes', async () => {
    const io = fakeIo();
    expect(await main(['collective', '--op', 'all-reduce', '--gpu', 'h100-sxm', '--size', '1Gb'], io)).toBe(2);
    expect(io.err()).toContain("got '1Gb' (Gb counts bits; a size is in bytes: GB)");
    for (const size of ['1GB', '1gb', '1GiB']) expect(await main(['collective', '--op', 'all-reduce', '--gpu', 'h100-sxm', '--size', size], fakeIo())).toBe(0);
  });
});

describe('the emulator\'s busiest link is named the bottleneck only when it is busy most of the time', () => {
  it('the help says what the bottleneck column means when no link is busy half the time', async () => {
    const { out: help } = await collective(['--help']);
    expect(help.replace(/\s+/g, ' ')).toMatch(/"none saturated" \(the busiest named\) when no link is busy half the time/);
  });

  it('a link busy 10% of the time: none saturated, the busiest named', () => {
    expect(bottleneckText({ link: 'node 0 nic 0 host-nic', utilisation: 0.1 })).toBe('none saturated (busiest node 0 nic 0 host-nic, 10%)');
  });
  it('a link busy 93% of the time is the bottleneck; idle links mean latency-bound', () => {
    expect(bottleneckText({ link: 'node 0 nic 0 host-nic', utilisation: 0.93 })).toBe('node 0 nic 0 host-nic (93%)');
    expect(bottleneckText({ link: 'x', utilisation: 0 })).toBe('none (latency-bound)');
  });

  it.each([[-0.0004, '0.0%'], [-0.00049, '0.0%'], [0.0004, '0.0%'], [-0.34, '-34.0%'], [0.022, '2.2%']])('the Δ column shows %d as %s, never "-0.0%"', (fraction, shown) => {
    expect(percentText(fraction)).toBe(shown);
  });

  it('--help says where the emulator departs from the closed form, not that it matches by construction', async () => {
    const { out } = await collective(['--help']);
    expect(out).not.toMatch(/by construction/);
    expect(out).toMatch(/wire latency/);
    expect(out).toMatch(/all-to-all/);
  });
});


// QA: with 3 GPUs of a DGX A100, 64 KiB finished before 32 KiB on ring/LL, where the help said a larger size is faster
// only where the choice changes. NCCL launches ⌊bytes / (512 threads × 8 B × nRanks)⌋ LL ring channels (src/enqueue.cc
// topoGetAlgoInfo): 2 at 32 KiB, 5 at 64 KiB for 3 ranks.
describe('a larger size can be faster with the same algorithm where NCCL trims channels', () => {
  const row = async (size: string) => {
    const { out } = await collective(['--op', 'all-reduce', '--system', 'dgx-a100-80gb', '--gpus-per-node', '3', '--size', size, '--json']);
    return (JSON.parse(out) as { rows: { seconds: number; algorithm: string; protocol: string }[] }).rows[0]!;
  };

  it('3 GPUs of a DGX A100: 64 KiB takes less time than 32 KiB, both on ring/LL', async () => {
    const [small, large] = [await row('32KiB'), await row('64KiB')];
    expect(`${small.algorithm}/${small.protocol}`).toBe('ring/LL');
    expect(`${large.algorithm}/${large.protocol}`).toBe('ring/LL');
    expect(large.seconds).toBeLessThan(small.seconds);
  });

  it('the help says so, with the launch rule and that example', async () => {
    const { out } = await collective(['--help']);
    const text = out.replace(/\s+/g, ' ');
    expect(text).toMatch(/The same algorithm can too where NCCL trims channels/);
    expect(text).toContain('⌊size / (512 threads × 8 B × ranks)⌋');
    expect(text).toContain('dgx-a100-80gb --gpus-per-node 3: 12.0 µs at 32 KiB, 11.4 µs at 64 KiB, both ring/LL');
  });
});
