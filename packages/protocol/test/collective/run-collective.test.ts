import { describe, expect, it } from 'vitest';
import { GiB, MiB } from '@trainplan/units';
import { collectiveRequestJsonSchema, runCollective, validateCollectiveResponse } from '../../src/index.ts';

describe('runCollective', () => {
  it('answers the nccl-tests sweep 8 B … 16 GiB by ×2 (32 rows) with busbw = algbw × 2(n−1)/n', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 4 });
    if (!r.ok) throw new Error(r.message);
    expect(r.rows).toHaveLength(32);
    expect(r.rows[0]?.bytes).toBe(8);
    expect(r.rows[31]?.bytes).toBe(GiB(16));
    for (const row of r.rows) expect(row.busbwGBps).toBeCloseTo(row.algbwGBps * (2 * 31) / 32, 9);
  });

  it('a system id given as the GPU, or a GPU id as the system, is refused with the field it belongs in', () => {
    const asGpu = runCollective({ op: 'all-reduce', gpu: 'dgx-h100' });
    expect(!asGpu.ok && asGpu.issues).toEqual([{ path: 'gpu', message: expect.stringMatching(/^unknown GPU "dgx-h100"; known: .*h100-sxm.*; "dgx-h100" is a system: give it as system$/) }]);
    const asSystem = runCollective({ op: 'all-reduce', system: 'h100-sxm' });
    expect(!asSystem.ok && asSystem.issues).toEqual([{ path: 'system', message: expect.stringMatching(/; "h100-sxm" is a GPU: give it as gpu$/) }]);
    // An id that is neither gets no such hint.
    const neither = runCollective({ op: 'all-reduce', gpu: 'a100-81gb' });
    expect(!neither.ok && neither.issues[0]?.message).not.toMatch(/give it as/);
    expect(runCollective({ op: 'all-reduce', system: 'dgx-h100', size: GiB(1) }).ok).toBe(true);
  });

  it('collnet: true lets all-reduce weigh NCCL\'s SHARP algorithms: on 4 DGX H100 at 8 GiB, NVLS across nodes', () => {
    // NCCL's tuner picks NVLS (nvls.cc: min(40 · .85 · 7/8 · 2, 48) × 8 heads = 384 GB/s bus, above the rest); run, its
    // one-node NVLink stages bind (the heads' NICs carry 8 × 48 GB/s of algbw, more than they do): the one-node NVLS time.
    const on = runCollective({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 4, size: GiB(8), collnet: true });
    const oneNode = runCollective({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 1, size: GiB(8), algorithm: 'nvls' });
    if (!on.ok || !oneNode.ok) throw new Error('expected answers');
    expect(on.collnet).toBe(true);
    expect(on.rows[0]?.algorithm).toBe('nvls');
    expect(on.rows[0]?.seconds).toBeCloseTo(oneNode.rows[0]!.seconds, 12);
    expect(validateCollectiveResponse(on).ok).toBe(true);
    // Off (the default, as NCCL_COLLNET_ENABLE=0): no CollNet algorithm, and the answer says nothing of it.
    const off = runCollective({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 4, size: GiB(8) });
    if (!off.ok) throw new Error(off.message);
    expect(off.rows[0]?.algorithm).toBe('ring');
    expect(off.collnet).toBeUndefined();
  });

  it('collnet: true on a network without in-network reduction is refused, naming the network and those with it', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'h100-sxm', network: 'roce-400g-8x', nodes: 2, collnet: true });
    expect(!r.ok && r.issues).toEqual([{
      path: 'collnet', message: 'CollNet needs in-network reduction (InfiniBand SHARP), which roce-400g-8x has not; networks with it: hdr-ib-4x, hdr-ib-8x, ndr200-ib-4x, ndr-ib-4x, ndr-ib-8x, nvl72',
    }]);
  });

  it('says what it costed when a network has more NICs per node than the system has GPUs (8 NDR NICs on a 4-GPU GB200 tray)', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'gb200', network: 'ndr-ib-8x', nodes: 2, size: GiB(1) });
    if (!r.ok) throw new Error(r.message);
    expect(r.notes).toContain('ndr-ib-8x puts 8 NICs on a node, more than the 4 GPUs of a gb200-nvl72 node: costed with all 8 (2 per GPU, each GPU reaching them at most at its own PCIe link); '
      + 'gb200-nvl72\'s own network, nvl72, has 4 per node');
    // A tray's own 4 NICs (nvl72), and a DGX's 8 on 8 GPUs, need no note.
    for (const body of [{ gpu: 'gb200' }, { gpu: 'h100-sxm' }]) {
      const own = runCollective({ op: 'all-reduce', ...body, nodes: 2, size: GiB(1) });
      expect(own.ok && own.notes).toEqual([]);
    }
  });

  it('an emulated GB200 topology counts NVLink domains, and the GPUs of the job among them', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'gb200', nodes: 2, size: GiB(1), emulate: true });
    if (!r.ok) throw new Error(r.message);
    expect(r.topology?.[0]).toMatch(/^1 NVLink domain × 72 GPUs = 72 GPUs, 8 of them in this job; 72 NICs per NVLink domain; /);
  });

  it('a hierarchical all-reduce with CollNet on says the emulator has no in-switch reduction; without CollNet it says nothing of it', () => {
    const ask = (collnet: boolean) => runCollective({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 8, size: MiB(256), emulate: true, algorithm: 'hierarchical', collnet });
    const on = ask(true);
    const off = ask(false);
    if (!on.ok || !off.ok) throw new Error('not answered');
    expect(on.notes?.some((n) => /no in-switch reduction/.test(n))).toBe(true);
    expect(off.notes?.some((n) => /no in-switch reduction/.test(n)) ?? false).toBe(false);
  });

  it('with emulate, adds the emulated time, bottleneck link and busiest links per size', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'a100-80gb', nodes: 2, size: GiB(1), emulate: true, algorithm: 'ring' });
    if (!r.ok) throw new Error(r.message);
    const e = r.rows[0]?.emulated;
    expect(e?.bottleneckLink.kind).toMatch(/nic/);
    expect(Math.abs(e?.differenceFromClosedForm ?? 1)).toBeLessThan(0.02);
    expect(r.topology?.[0]).toBe('2 nodes × 8 GPUs = 16 GPUs; 8 NICs per node; 8 leaf switches, rail-optimised, leaf capacity 20 nodes, oversubscription 1:1; 144 directed links');
    // 20: HDR's 40-port Quantum QM8700 leaf at 1:1, 20 ports down and 20 up (the DGX A100 SuperPOD's 20-node unit).
  });

  it('refuses sibling groups that need more GPUs than an NVL72 domain holds (4 groups of 36 in 72)', () => {
    const over = runCollective({ op: 'all-reduce', system: 'gb200-nvl72', nodes: 36, gpusPerNode: 1, concurrentGroups: 4, size: GiB(1) });
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.issues).toEqual([{ path: 'concurrentGroups', message: expect.stringContaining('need 144 GPUs') }]);
    expect(runCollective({ op: 'all-reduce', system: 'gb200-nvl72', nodes: 18, gpusPerNode: 1, concurrentGroups: 4, size: GiB(1) }).ok).toBe(true);
  });

  it('GB200 GPUs that leave the last NVL72 domain part full (as `nodes` may answer) are costed as the largest even split, and said so', () => {
    // 2,048 trays × 4 = 8,192 GPUs: 113 racks of 72 and one of 56; costed as 128 domains of 64.
    const partial = runCollective({ op: 'all-reduce', gpu: 'gb200', nodes: 2048, size: GiB(1) });
    if (!partial.ok) throw new Error(partial.message);
    expect(partial.notes).toContainEqual(expect.stringMatching(/^8,192 GPUs do not fill whole 72-GPU NVLink domains \(113 full, one holding 56\): costed as 128 domains of 64/));
    // 2,034 trays fill 113 racks exactly: nothing to say.
    const whole = runCollective({ op: 'all-reduce', gpu: 'gb200', nodes: 2034, size: GiB(1) });
    if (!whole.ok) throw new Error(whole.message);
    expect(whole.notes.some((n) => n.includes('do not fill whole'))).toBe(false);
    expect(partial.rows[0]!.seconds).toBeGreaterThan(0);
  });

  it('says that oversubscription and eventBudget without emulate are unused, rather than dropping them silently', () => {
    const plain = runCollective({ op: 'all-reduce', gpu: 'a100-80gb', nodes: 4, size: GiB(1) });
    const r = runCollective({ op: 'all-reduce', gpu: 'a100-80gb', nodes: 4, size: GiB(1), oversubscription: 4, eventBudget: 1000 });
    if (!r.ok || !plain.ok) throw new Error('refused');
    expect(r.notes).toContainEqual(expect.stringMatching(/^oversubscription and eventBudget apply only to the emulator/));
    expect(plain.notes).toEqual([]);
    expect(r.rows[0]?.seconds).toBe(plain.rows[0]?.seconds);
  });

  it('runs sibling groups at once: the 8 one-GPU-per-node rings of a TP-8 job share a DGX-1\'s 4 NICs two to one, and a DGX A100\'s 8 not at all', () => {
    const at = (gpu: string, concurrentGroups: number) => {
      const r = runCollective({ op: 'all-reduce', gpu, nodes: 4, gpusPerNode: 1, concurrentGroups, size: GiB(1), emulate: true });
      if (!r.ok) throw new Error(r.message);
      return r;
    };
    const [dgx1, dgx1Shared] = [at('v100-32gb', 1), at('v100-32gb', 8)];
    expect(dgx1Shared.concurrentGroups).toBe(8);
    // Two rings per NIC: each gets half its rate, in the closed form and in the emulation alike.
    expect(dgx1Shared.rows[0]!.seconds / dgx1.rows[0]!.seconds).toBeCloseTo(2, 1);
    expect(dgx1Shared.rows[0]!.emulated!.seconds / dgx1.rows[0]!.emulated!.seconds).toBeCloseTo(2, 1);
    const [a100, a100Shared] = [at('a100-80gb', 1), at('a100-80gb', 8)];
    expect(a100Shared.rows[0]!.emulated!.seconds / a100.rows[0]!.emulated!.seconds).toBeCloseTo(1, 2);
  });

  it('refuses more sibling groups than the node has GPUs for, naming concurrentGroups', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'v100-32gb', nodes: 4, gpusPerNode: 2, concurrentGroups: 8 });
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).toContain('"path":"concurrentGroups"');
  });

  it('with emulate, states the topology as data: 2 DGX A100 nodes, 8 HDR rails of one leaf each', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'a100-80gb', nodes: 2, size: MiB(64), emulate: true });
    if (!r.ok) throw new Error(r.message);
    const g = r.topologyGraph!;
    expect(g).toMatchObject({ nodes: 2, gpusPerNode: 8, nicsPerNode: 8, leaves: 8, railOptimised: true, oversubscription: 1 });
    // Every link is counted once in a group, and each node's 8 NICs reach their leaf at HDR's 200 Gb/s (25 GB/s).
    expect(g.links.reduce((n, l) => n + l.count, 0)).toBe(g.linkCount);
    const nicToLeaf = g.links.filter((l) => l.kind === 'nic-leaf');
    expect(nicToLeaf.reduce((n, l) => n + l.count, 0)).toBe(2 * 8);
    for (const l of nicToLeaf) expect(l.bandwidthBytesPerSecond).toBe(25e9);
  });

  it.each([
    [{ op: 'all-squash', gpu: 'h100-sxm' }, 'invalid', 'op'],
    [{ op: 'all-reduce', gpu: 'h100-sxm', size: 0 }, 'invalid', 'size'],
    [{ op: 'all-reduce', gpu: 'h100-sxm', size: -5 }, 'invalid', 'size'],
    [{ op: 'all-reduce', gpu: 'h100-sxm', size: 1.5 }, 'invalid', 'size'],
    [{ op: 'all-reduce', gpu: 'h100-sxm', sizes: [8, 12.25] }, 'invalid', 'sizes[1]'],
    [{ op: 'all-reduce', gpu: 'h100-sxm', size: 2 ** 60 }, 'invalid', 'size'],
    [{ op: 'all-reduce', gpu: 'h100-sxm', gpusPerNode: 16 }, 'invalid', 'gpusPerNode'],
    [{ op: 'all-reduce' }, 'invalid', 'gpu'],
    [{ op: 'all-reduce', gpu: 'tpu-v9' }, 'invalid', 'gpu'],
    [{ op: 'all-reduce', gpu: 'a100-80gb', algorithm: 'nvls' }, 'unavailable', 'algorithm'],
    [{ op: 'all-reduce', gpu: 'a100-80gb', nodes: 128, size: MiB(1), emulate: true, eventBudget: 1000 }, 'event-budget', 'eventBudget'],
    // Past the node-sizes limit (2048 nodes × 1 size > 256), refused before any emulation, for every caller alike.
    [{ op: 'all-reduce', gpu: 'a100-80gb', nodes: 2048, size: MiB(1), emulate: true }, 'event-budget', ''],
  ])('%j → %s naming %s (never throws)', (body, reason, path) => {
    const r = runCollective(body);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe(reason);
      expect(r.issues.map((i) => i.path)).toContain(path);
    }
  });

  it('the event-budget error names the limit and what the request needs at least, marked as a lower bound', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'a100-80gb', nodes: 64, size: MiB(1), emulate: true, eventBudget: 1000 });
    expect(r).toMatchObject({ ok: false, reason: 'event-budget', limit: { name: 'eventBudget', value: 1000, requestedIsLowerBound: true } });
    // The size as the CLI's rows print it, the counts grouped.
    if (r.ok) return;
    expect(r.issues[0]!.message).toMatch(/^emulating 1\.00 MiB needs at least [\d,]+ budget units \(events, flows in flight, flow–link visits\), counted before running \(the rest is known only by running it\), over the event budget of 1,000$/);
    expect(validateCollectiveResponse(r).ok).toBe(true);
  });

  // QA 2026-11-29: "needs about 576" at a budget of 10, "about 18,928" at 600, "about 20,001" at 20,000, for a run
  // that goes through at 35,000: each a lower bound said as an estimate.
  it('a 1 GiB all-reduce on 4 A100 nodes: the bound it states is the same at budgets 10 and 600, and once it ran and was stopped, it says so', () => {
    const at = (eventBudget: number) => runCollective({ op: 'all-reduce', gpu: 'a100-80gb', nodes: 4, size: GiB(1), emulate: true, eventBudget });
    const [ten, sixHundred, twentyThousand] = [at(10), at(600), at(20_000)];
    if (ten.ok || sixHundred.ok || twentyThousand.ok) throw new Error('over the budget');
    // Known before running, whatever the budget: the full-mode ring's events and flows in flight.
    expect(ten.limit?.requested).toBe(sixHundred.limit?.requested);
    expect(ten.issues[0]!.message).toContain('needs at least ');
    expect(twentyThousand.limit).toMatchObject({ value: 20_000, requestedIsLowerBound: true });
    // Stopped, it says where (QA: "it needs more" alone, where the emulator knew the figure): the figure it states is the limit's.
    const stopped = /^emulating 1\.00 GiB ran past the event budget of 20,000 budget units \(events, flows in flight, flow–link visits\) and was stopped unfinished at ([\d,]+): it needs more than that$/
      .exec(twentyThousand.issues[0]!.message);
    expect(stopped).not.toBeNull();
    expect(Number(stopped![1]!.replace(/,/g, ''))).toBe(twentyThousand.limit?.requested);
    expect(twentyThousand.limit!.requested).toBeGreaterThan(20_000);
    // And it does run with more: the bound was no overstatement.
    expect(at(35_000).ok).toBe(true);
  });

  // QA: "needs at least 10,580,153.063 budget units": the sizes before it spend fractions of a unit (flow–link visits).
  it('states what a sweep needs in whole units, rounded up, in the message and the limit alike', () => {
    const r = runCollective({ op: 'all-to-all', gpu: 'h100-sxm', nodes: 2, emulate: true, eventBudget: 30_000 });
    if (r.ok) throw new Error('over the budget');
    const requested = r.limit!.requested!;
    expect(Number.isInteger(requested)).toBe(true);
    expect(requested).toBeGreaterThan(30_000);
    expect(r.issues[0]!.message).toContain(`(with the sizes before it) needs at least ${requested.toLocaleString('en-US')} budget units`);
  });

  it('blames the sizes before one only when there are some: a sweep\'s later size says so', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'a100-80gb', nodes: 8, sizes: [MiB(1), GiB(1)], emulate: true, eventBudget: 100_000 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues[0]!.message).toMatch(/^emulating 1\.00 GiB \(with the sizes before it\) (needs at least [\d,]+ budget units|ran past the event budget of 100,000)/);
  });

  it('the node-sizes cap is a server\'s default: a caller on its own CPU (the CLI) lifts it, and the event budget still bounds the work', () => {
    const body = { op: 'all-reduce', gpu: 'a100-80gb', nodes: 300, size: GiB(1), emulate: true };
    expect(runCollective(body)).toMatchObject({ ok: false, limit: { name: 'emulatedNodeSizes', value: 256, requested: 300 } });
    expect(runCollective(body, { maxEmulatedNodeSizes: Number.POSITIVE_INFINITY }).ok).toBe(true);
    expect(runCollective({ ...body, eventBudget: 1000 }, { maxEmulatedNodeSizes: Number.POSITIVE_INFINITY }))
      .toMatchObject({ ok: false, reason: 'event-budget', limit: { name: 'eventBudget', value: 1000, requestedIsLowerBound: true } });
  });

  it('the node-sizes limit counts in words and, for one size, asks for fewer nodes (there are no sizes to drop)', () => {
    const one = runCollective({ op: 'all-reduce', gpu: 'a100-80gb', nodes: 300, size: GiB(1), emulate: true });
    const two = runCollective({ op: 'all-reduce', gpu: 'a100-80gb', nodes: 200, sizes: [MiB(1), GiB(1)], emulate: true });
    if (one.ok || two.ok) throw new Error('over the node-sizes limit');
    expect(one.issues[0]!.message).toMatch(/^emulating 1 size on 300 nodes is 300 node-sizes, over the limit of 256 per request: emulate on fewer nodes \(/);
    expect(two.issues[0]!.message).toMatch(/^emulating 2 sizes on 200 nodes is 400 node-sizes, over the limit of 256 per request: emulate fewer sizes or nodes \(/);
  });

  // QA 2026-11-29: the CLI said "(did you mean all-reduce?)" for --op allreduce, POST /v1/collective's 400 did not.
  it.each([
    [{ op: 'allreduce' }, 'op', ' (did you mean all-reduce?)'],
    [{ op: 'All_Gather' }, 'op', ' (did you mean all-gather?)'],
    [{ op: 'all-reduse' }, 'op', ' (did you mean all-reduce?)'],
    [{ op: 'all-reduce', algorithm: 'rng' }, 'algorithm', ' (did you mean ring?)'],
    [{ op: 'all-shuffle' }, 'op', ''],
    [{ op: 42 }, 'op', ''],
  ])('%j: the refusal at %s names the value meant when it is a slip of one ("%s")', (fields, path, meant) => {
    const r = runCollective({ gpu: 'h100-sxm', ...fields });
    if (r.ok) throw new Error('refused');
    const issue = r.issues.find((i) => i.path === path)!;
    expect(issue.message.endsWith(meant)).toBe(true);
    expect(issue.message.match(/did you mean/g)?.length ?? 0).toBe(meant === '' ? 0 : 1);
  });

  it('publishes a JSON Schema that requires op', () => {
    expect(collectiveRequestJsonSchema.required).toContain('op');
  });
});

describe('a message size past the bound', () => {
  it('is refused with the bound in bytes and in TiB, as 1,099,511,627,776 alone is unreadable', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 2, sizes: [1e15] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues).toEqual([{ path: 'sizes[0]', message: 'expected an integer ≤ 1,099,511,627,776 bytes (1.00 TiB), got 1,000,000,000,000,000' }]);
  });
});

describe('NVLS where the fabric has no NVLink SHARP', () => {
  it('says why in hardware terms, not as an internal field', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'a100-80gb', algorithm: 'nvls' });
    if (r.ok) throw new Error('A100 has no NVLS');
    expect(r.reason).toBe('unavailable');
    expect(r.message).toContain('NVLS needs NVLink SHARP in the NVSwitch (Hopper or later)');
    expect(r.message).not.toMatch(/fabric\.|is false/);
  });
});

describe('the emulated topology graph', () => {
  it('states link figures as their specs do, without float residue (a 0.2475 µs hop, not 2.4749999999999996e-7 s)', () => {
    const r = runCollective({ op: 'all-gather', gpu: 'a100-80gb', nodes: 2, size: MiB(16), emulate: true });
    if (!r.ok) throw new Error(r.message);
    const figures = r.topologyGraph!.links.flatMap((l) => [l.bandwidthBytesPerSecond, l.latencySeconds]);
    expect(figures.filter((x) => Number(x.toPrecision(12)) !== x)).toEqual([]);
    expect(r.topologyGraph!.links.find((l) => l.kind === 'nic-leaf')!.latencySeconds).toBe(2.475e-7);
  });
});

describe('the emulated links\' bytes', () => {
  // QA: 3.4999999999999862 for a 1 B all-reduce. A ring/LL all-reduce of 1 B on 8 A100s puts 2 · 7/8 B through each GPU's
  // NVLink port, doubled by LL's flag words (half of each 8-byte line is payload): 3.5 B, a fluid share, not a whole byte.
  it('are the emulator\'s shares without float residue: 1 B all-reduced over 8 A100s is 3.5 B on each NVLink port', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'a100-80gb', size: 1, emulate: true });
    if (!r.ok) throw new Error(r.message);
    expect(r.rows[0]!.protocol).toBe('LL');
    const ports = r.rows[0]!.emulated!.links.filter((l) => l.kind === 'nvlink-up' || l.kind === 'nvlink-down');
    expect(ports.length).toBeGreaterThan(0);
    for (const link of ports) expect(link.bytes).toBe(2 * (7 / 8) * 1 * 2);
  });
});

describe('a collective on one GPU', () => {
  it('takes 0 s and says why: a single rank has no peer to exchange with', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 1, gpusPerNode: 1, size: GiB(1) });
    if (!r.ok) throw new Error(r.message);
    expect(r.rows.map((row) => row.seconds)).toEqual([0]);
    expect(r.notes[0]).toMatch(/^one GPU: a collective over a single rank moves no data/);
    const two = runCollective({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 1, gpusPerNode: 2, size: GiB(1) });
    if (!two.ok) throw new Error(two.message);
    expect(two.notes.filter((n) => n.startsWith('one GPU'))).toEqual([]);
  });
});

describe('a size past one GPU\'s memory', () => {
  it('is costed and said to be no buffer a GPU could hold; the default sweep (to 16 GiB) on an 80 GB GPU says nothing', () => {
    const huge = runCollective({ op: 'all-reduce', gpu: 'h100-sxm', size: 1024 * GiB(1) });
    if (!huge.ok) throw new Error(huge.message);
    expect(huge.rows[0]!.seconds).toBeGreaterThan(0);
    expect(huge.notes).toContainEqual(expect.stringMatching(/^a size of 1\.00 TiB is more than one NVIDIA H100 SXM5 80GB's 79\.6 GiB of memory/));
    const sweep = runCollective({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 2 });
    if (!sweep.ok) throw new Error(sweep.message);
    expect(sweep.notes.some((n) => n.includes('of memory'))).toBe(false);
    const twoOver = runCollective({ op: 'all-gather', gpu: 'a100-40gb', sizes: [GiB(16), GiB(64), GiB(128)] });
    if (!twoOver.ok) throw new Error(twoOver.message);
    expect(twoOver.notes).toContainEqual(expect.stringMatching(/^2 sizes, from 64\.0 GiB, are more than one .* 40GB's/));
  });
});
