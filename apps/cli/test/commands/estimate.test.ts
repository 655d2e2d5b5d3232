import { runEstimate, type EstimateJson } from '@trainplan/protocol';
import { billion } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { BREAKDOWN_ROWS, MEMORY_ROWS } from '../../src/format/estimate-report.ts';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';
import {
  contractScenario, indivisibleScenario, outOfMemoryScenario, withParallelism,
} from '../support/scenarios.ts';

async function estimate(args: string[], input: { stdin?: string; files?: Record<string, string> }) {
  const io = fakeIo(input);
  const code = await main(['estimate', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

const scenarioText = JSON.stringify(contractScenario);
const fromFile = (args: string[] = [], text = scenarioText) => estimate(['--input', 'gpt3.json', ...args], { files: { 'gpt3.json': text } });
const fromStdin = (args: string[] = [], text = scenarioText) => estimate(['--input', '-', ...args], { stdin: text });

describe('trainplan estimate: reading the scenario', () => {
  it.each([
    ['a file', fromFile],
    ['stdin (--input -)', fromStdin],
  ])('reads the contract example from %s, prints a report and exits 0', async (_, read) => {
    const { code, out, err } = await read();
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toMatch(/^gpt3-175b .* · a100-80gb × 1,024 \(128 nodes × 8, hdr-ib-8x\) · TP 8 · PP 8 · DP 16 · CP 1 · v 1 · micro-batch 1 · global batch 1,536 .* · bf16 · recompute full$/);
  });

  it('-i is --input, and a file and stdin give the same report', async () => {
    const file = await fromFile();
    const stdin = await estimate(['-i', '-'], { stdin: scenarioText });
    expect(stdin.out).toBe(file.out);
  });

  it('accepts a file that starts with a UTF-8 byte-order mark', async () => {
    expect((await fromFile([], `\uFEFF${scenarioText}`)).code).toBe(0);
  });
});

describe('trainplan estimate --json', () => {
  it('prints exactly the contract JSON of runEstimate, 2-space indented, with a final newline', async () => {
    const { code, out, err } = await fromStdin(['--json']);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toBe(`${JSON.stringify(runEstimate(contractScenario), null, 2)}\n`);
    const answer = JSON.parse(out) as EstimateJson;
    expect(answer.ok).toBe(true);
    for (const key of ['stepTimeSeconds', 'tokensPerSecond', 'modelTflopsPerGpu', 'hardwareTflopsPerGpu', 'mfu', 'hfu']) {
      expect(typeof (answer as unknown as Record<string, unknown>)[key]).toBe('number');
    }
  });

  it('answers an array with an array of the same length, in order, and exits 1 if any answer is not ok', async () => {
    const scenarios = [contractScenario, withParallelism({ tensor: 0 }), outOfMemoryScenario, contractScenario];
    const { code, out } = await fromStdin(['--json'], JSON.stringify(scenarios));
    const answers = JSON.parse(out) as EstimateJson[];
    expect(Array.isArray(answers)).toBe(true);
    expect(answers).toHaveLength(scenarios.length);
    expect(answers.map((a) => (a.ok ? 'ok' : a.reason))).toEqual(['ok', 'invalid', 'out-of-memory', 'ok']);
    expect(code).toBe(1);
  });

  it('answers an array of feasible scenarios with exit 0', async () => {
    const { code, out } = await fromStdin(['--json'], JSON.stringify([contractScenario, contractScenario]));
    expect(code).toBe(0);
    expect(JSON.parse(out)).toHaveLength(2);
  });

  it('keeps stdout pure JSON when the scenario is infeasible, and lists the problem on stderr', async () => {
    const { code, out, err } = await fromStdin(['--json'], JSON.stringify(outOfMemoryScenario));
    expect(code).toBe(1);
    expect(JSON.parse(out)).toMatchObject({ ok: false, reason: 'out-of-memory' });
    expect(err).toMatch(/^trainplan: out-of-memory: needs .+\n$/);
  });
});

describe('trainplan estimate: the human report', () => {
  it.each([
    ['s', /\d s$/m],
    ['ms', /\d ms /],
    ['GiB', /\d GiB /],
    ['TFLOP/s', /\d TFLOP\/s$/m],
    ['%', /\d\.\d%/],
    ['tokens/s', /\d k tokens\/s$/m],
  ])('shows the unit %s after its numbers', async (_, pattern) => {
    expect((await fromFile()).out).toMatch(pattern);
  });

  it.each(BREAKDOWN_ROWS.map((r) => [r.label]))('breaks the step time down with a "%s" row: seconds, percent, bar', async (label) => {
    const { out } = await fromFile();
    expect(out).toMatch(new RegExp(`^  ${label} +\\d\\S* (s|ms|µs|ns) +\\d+\\.\\d% *[█▉▊▋▌▍▎▏]*`, 'm'));
  });

  it.each(MEMORY_ROWS.map((r) => [r.label]))('shows the memory per GPU with a "%s" row against the capacity', async (label) => {
    const { out } = await fromFile();
    const memory = out.slice(out.indexOf('Memory per GPU'));
    expect(memory).toMatch(new RegExp(`^  ${label} +\\d\\S* (B|KiB|MiB|GiB|TiB) +\\d+\\.\\d%`, 'm'));
  });

  it('notes the recompute share of compute under full recompute, and whether the memory fits', async () => {
    const { out } = await fromFile();
    expect(out).toMatch(/^ {2}compute .*incl\. recompute \S+ (s|ms) \(\d+\.\d% of compute\)$/m);
    expect(out).toMatch(/^ {2}fits: yes \(\S+ GiB free\)$/m);
  });

  it('shows the metrics table: step time, tokens/s, model and hardware TFLOP/s per GPU, MFU, HFU', async () => {
    const { out } = await fromFile();
    expect(out).toMatch(/^ {2}step time +\S+ s$/m);
    expect(out).toMatch(/^ {2}throughput +\S+ k tokens\/s$/m);
    expect(out).toMatch(/^ {2}model FLOP\/s per GPU +\S+ TFLOP\/s$/m);
    expect(out).toMatch(/^ {2}hardware FLOP\/s per GPU +\S+ TFLOP\/s$/m);
    expect(out).toMatch(/^ {2}MFU +\d+\.\d%$/m);
    expect(out).toMatch(/^ {2}HFU +\d+\.\d%$/m);
  });

  it('an FP8 scenario\'s MFU and HFU say they are of the FP8 peak, with the BF16 peak\'s share beside each', async () => {
    const fp8 = {
      model: 'llama3-8b', cluster: { gpu: 'h100-sxm', gpusPerNode: 8, nodes: 1 },
      training: { globalBatchSize: 32, microBatchSize: 1, precision: 'fp8' }, parallelism: { tensor: 8, pipeline: 1 },
    };
    const { code, out } = await fromFile([], JSON.stringify(fp8));
    expect(code).toBe(0);
    const e = runEstimate(fp8) as EstimateJson;
    if (!e.ok) throw new Error(e.message);
    // Of the BF16 peak: the TFLOP/s per GPU over the H100 SXM's dense BF16 peak, 989.4 TFLOP/s (NVIDIA's datasheet); the
    // planner's MFU and HFU are of its FP8 peak, 1,978.9 TFLOP/s.
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    expect(out).toMatch(new RegExp(`^ {2}MFU +${pct(e.mfu)} of the FP8 peak \\(${pct(e.modelTflopsPerGpu / 989.4)} of the BF16 peak\\)$`, 'm'));
    expect(out).toMatch(new RegExp(`^ {2}HFU +${pct(e.hfu)} of the FP8 peak \\(${pct(e.hardwareTflopsPerGpu / 989.4)} of the BF16 peak\\)$`, 'm'));
  });

  it('a 1,048,576-token context, where the full count of attention passes the peak, says why on the FLOP/s and HFU lines', async () => {
    // QA's hfu.json [0]: 12 layers of 768 over 8 H100s by context parallelism, recompute full. Attention over every
    // (query, key) pair is s/(6h) = 1,048,576 / 4,608 ≈ 228 times the rest of a layer's FLOPs: the full count is about twice
    // what the causal kernels run, and its HFU passes 100% (the JSON keeps Megatron's count).
    const long = {
      model: { name: 'h768-s1048576', layers: 12, hiddenSize: 768, attentionHeads: 12, vocabSize: 50304, seqLength: 1048576, positionEmbedding: 'rotary' },
      cluster: { gpu: 'h100-sxm', gpus: 8 }, training: { globalBatchSize: 1, microBatchSize: 1 }, parallelism: { context: 8, recompute: 'full' },
    };
    const e = runEstimate(long) as EstimateJson;
    if (!e.ok) throw new Error(e.message);
    expect(e.hfu).toBeGreaterThan(1);
    const { code, out } = await fromFile([], JSON.stringify(long));
    expect(code).toBe(0);
    const why = 'counting attention over every \\(query, key\\) pair, as Megatron does; the causal kernels compute about half of them';
    expect(out).toMatch(new RegExp(`^ {2}hardware FLOP/s per GPU +\\S+ PFLOP/s \\(over the 989 TFLOP/s peak: ${why}\\)$`, 'm'));
    expect(out).toMatch(new RegExp(`^ {2}HFU +1\\d\\d\\.\\d% \\(over 100%: ${why}\\)$`, 'm'));
  });

  it('adds the time to train, in days and GPU-hours, when training.tokens is given', async () => {
    const withTokens = { ...contractScenario, training: { ...contractScenario.training, tokens: billion(300) } };
    const { out } = await fromFile([], JSON.stringify(withTokens));
    expect(out).toMatch(/^Time to train 300B tokens: \S+ days, \S+( k| M)? GPU-hours$/m);
    expect((await fromFile()).out).not.toContain('Time to train');
  });

  it('an out-of-memory answer shows what fills the GPU: the memory table of POST /v1/memory, its total the refusal\'s need', async () => {
    const { code, out } = await fromFile([], JSON.stringify(outOfMemoryScenario));
    expect(code).toBe(1);
    const needed = /^✗ out-of-memory: needs (\S+ GiB) per GPU/m.exec(out)?.[1];
    expect(needed).toBeDefined();
    expect(out).toMatch(/^Memory per GPU \(capacity 80\.0 GiB\)$/m);
    for (const { label } of MEMORY_ROWS) expect(out).toMatch(new RegExp(`^ {2}${label} +\\S+ (GiB|MiB)`, 'm'));
    expect(out).toMatch(new RegExp(`^ {2}total +${needed!.replace('.', '\\.')} `, 'm'));
    expect(out).toMatch(/^ {2}fits: no \(\S+ GiB over\)$/m);
  });

  // QA: "Lower it with any of" listed switches that left the plan over (sequence parallelism 5.31 GiB over here). Llama 2
  // 70B at TP 8 · PP 2 on 8 A100 nodes, no recompute, nothing sharded: each switch the report says fits must fit when
  // the user sets it, and each it says leaves the plan over must not fit.
  const llama70b = {
    model: 'llama2-70b', cluster: { gpu: 'a100-80gb', gpusPerNode: 8, nodes: 8 },
    training: { globalBatchSize: 512, microBatchSize: 1, precision: 'bf16' },
    parallelism: { tensor: 8, pipeline: 2, recompute: 'none', sequenceParallel: false, distributedOptimizer: false },
  };
  it('says what each memory switch left off would leave the plan needing, as the estimate of that plan answers', async () => {
    const { out } = await fromFile([], JSON.stringify(llama70b));
    const listed = [...out.matchAll(/^ {2}- parallelism\.(\w+) (\S+) \([^)]*\): (\S+ GiB) \(\S+%\), (fits|still \S+ \S+ over)$/gm)];
    expect(listed.map((l) => l[1])).toEqual(['recompute', 'sequenceParallel', 'distributedOptimizer']);
    for (const [, field, value, total, verdict] of listed) {
      const changed = { ...llama70b, parallelism: { ...llama70b.parallelism, [field!]: JSON.parse(value!) } };
      const e = runEstimate(changed) as EstimateJson;
      const memory = e.ok ? e.memory : e.memory!;
      expect(memory.fits).toBe(verdict === 'fits');
      // The total the switch's line gives is the changed plan's own report's total.
      expect(/^ {2}total +(\S+ GiB) /m.exec((await fromFile([], JSON.stringify(changed))).out)?.[1]).toBe(total);
    }
    // Sequence parallelism alone divides only part of the activations by TP: it does not close 24.6 GiB here.
    expect(out).toMatch(/^ {2}- parallelism\.sequenceParallel true \(activations ÷ TP\): \S+ GiB \(\S+%\), still \S+ GiB over$/m);
  });
  it('where the only switch left does not close the gap, says by how much it misses and points at splitting the model', async () => {
    // A 4.6B shape (21 layers, h 4,096, s 8,192) on one A100 80GB: 18 B/param of states is 75 GiB; full recompute keeps
    // 2sbh per layer and one layer's working set, still more than the 5 GiB left.
    const single = {
      model: { layers: 21, hiddenSize: 4096, attentionHeads: 32, vocabSize: 51200, seqLength: 8192, name: 'custom-4.6b' },
      cluster: { gpu: 'a100-80gb', gpus: 1 }, training: { globalBatchSize: 8, microBatchSize: 1, precision: 'bf16' },
      parallelism: { tensor: 1, pipeline: 1, recompute: 'none' },
    };
    const { out } = await fromFile([], JSON.stringify(single));
    expect(out).toMatch(/^ {2}- parallelism\.recompute "full" \(activations\): \S+ GiB \(\S+%\), still \S+ \S+ over$/m);
    expect(out).not.toMatch(/, fits$/m);
    expect(out).toMatch(/it needs more GPUs per copy of the model/);
  });
  describe('QA: Megatron 7.5B on 64 A100s, zeroStage 0 given (18 B a parameter: 125 GiB of states)', () => {
    const megatron = {
      model: 'megatron-7.5b', cluster: { gpu: 'a100-80gb', gpus: 64 }, training: { globalBatchSize: 512 },
      parallelism: { tensor: 1, pipeline: 1, zeroStage: 0 },
    };
    it('offers ZeRO-1 where the distributed optimizer would be refused beside the zeroStage given, and it fits as said', async () => {
      const { out } = await fromFile([], JSON.stringify(megatron));
      // Was "parallelism.distributedOptimizer true …: does not run: … give either parallelism.zeroStage or … not both".
      expect(out).not.toContain('does not run');
      expect(out).toMatch(/^ {2}- parallelism\.zeroStage 1 \(optimizer states ÷ DP·CP\): \S+ GiB \(\S+%\), fits$/m);
      const zero1 = runEstimate({ ...megatron, parallelism: { ...megatron.parallelism, zeroStage: 1 } }) as EstimateJson;
      expect(zero1.ok && zero1.memory.fits).toBe(true);
    });
    it('says 16-bit gradients leave it needing more, not less: the optimizer step then casts all of them to fp32', async () => {
      const { out } = await fromFile([], JSON.stringify(megatron));
      const total = (text: string): number => parseFloat(/^ {2}total +(\S+) GiB/m.exec(text)![1]!);
      const sixteen = { ...megatron, training: { ...megatron.training, gradientAccumulation: 'fused-16-bit' } };
      // By hand: held gradients fall 4 → 2 B a parameter (−14.9 GB) but the step's fp32 copy is 4 B a parameter (29.9 GB)
      // in place of ~10.7 GB of activations: the peak grows.
      expect(total((await fromFile([], JSON.stringify(sixteen))).out)).toBeGreaterThan(total(out));
      expect(out).toMatch(/^ {2}- training\.gradientAccumulation "fused-16-bit" \(gradients ÷ 2\): \S+ GiB \(\S+%\), no less than without it: the optimizer step then builds an fp32 copy of the 16-bit gradients$/m);
    });
  });
  it('names the pipeline stage the memory figures are of, and says what "other" holds', async () => {
    const { out } = await fromFile();
    // GPT-3 175B at PP 8: the stage with the most in flight or the logits; whichever, it is named with its place.
    expect(out).toMatch(/^Memory per GPU on pipeline stage \d (\(the first of 8\)|\(the last of 8\)|\(a middle stage of 8\)), the most loaded \(capacity 80\.0 GiB\)$/m);
    expect(out).toMatch(/^ {2}other: 1\.50 GiB runtime reserve .* allocator fragmentation \(10\.0% of the activations\)/m);
  });

  it('an array gives each out-of-memory scenario its own table, and none to one that fits', async () => {
    const { out } = await fromFile([], JSON.stringify([contractScenario, outOfMemoryScenario]));
    const [first, second] = out.split(/^── Scenario 2 of 2/m);
    expect(second).toMatch(/^ {2}fits: no /m);
    expect(first).toMatch(/^ {2}fits: yes /m);
    expect(out.match(/^Memory per GPU/gm)).toHaveLength(2);
  });

  it('reports each scenario of an array under a "Scenario i of n" heading', async () => {
    const { out } = await fromFile([], JSON.stringify([contractScenario, outOfMemoryScenario]));
    expect(out.match(/^── Scenario \d of 2 \(input \[\d\]\) ──$/gm)).toEqual(['── Scenario 1 of 2 (input [0]) ──', '── Scenario 2 of 2 (input [1]) ──']);
  });

  it.each([
    ['out-of-memory', outOfMemoryScenario, /^✗ out-of-memory: needs .+ GiB per GPU/m],
    ['indivisible', indivisibleScenario, /^✗ indivisible\n {2}training\.globalBatchSize: /m],
    ['invalid', withParallelism({ tensor: 0 }), /^✗ invalid\n {2}parallelism\.tensor: expected an integer ≥ 1, got 0$/m],
  ])('prints an %s answer as ✗ with its reason, exits 1 and names it on stderr', async (reason, scenario, shown) => {
    const { code, out, err } = await fromFile([], JSON.stringify(scenario));
    expect(code).toBe(1);
    expect(out).toMatch(shown);
    expect(err.startsWith('trainplan: ')).toBe(true);
    expect(err).toContain(reason === 'out-of-memory' ? 'out-of-memory: ' : reason === 'indivisible' ? 'training.globalBatchSize: ' : 'parallelism.tensor: ');
  });
});
