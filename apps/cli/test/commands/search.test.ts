import { runEstimate, validateSearchResponse } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[], input: { stdin?: string; files?: Record<string, string> } = {}, tty = false) {
  const io = { ...fakeIo(input), stderrIsTTY: tty };
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const GPT3 = ['--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--nodes', '128', '--global-batch', '1536'];

describe('trainplan search', () => {
  it('--fp8-params keeps FP8 weights in every plan it writes, and without --precision fp8 is refused in flags', async () => {
    const ok = await cli(['search', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--nodes', '8', '--global-batch', '128', '--precision', 'fp8', '--fp8-params',
      '--tensor', '4', '--pipeline', '4', '--recompute', 'none', '--json']);
    expect(ok.code).toBe(0);
    const answer = JSON.parse(ok.out) as { best: { scenario: { training: { fp8Params?: boolean }; parallelism: { distributedOptimizer?: boolean } } } };
    expect(answer.best.scenario.training.fp8Params).toBe(true);
    // Megatron's --fp8-param-gather runs only with the distributed optimizer.
    expect(answer.best.scenario.parallelism.distributedOptimizer).toBe(true);
    const refused = await cli(['search', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--nodes', '8', '--global-batch', '128', '--fp8-params']);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/--fp8-params keeps the weights in FP8: use --precision fp8 with it/);
  });

  it('--tensor 16 with --tensor-within-node on 8-GPU nodes says the two contradict, in flags, not "no candidate plan": a usage error, exit 2', async () => {
    const { code, out, err } = await cli(['search', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--gpus', '32', '--global-batch', '128', '--tensor', '16', '--tensor-within-node']);
    // No cluster runs TP 16 inside 8-GPU nodes: the request is at fault, as `nodes --days 30 --nodes 128` is (exit 2, one line, no report).
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toBe('trainplan: the constraints contradict each other: --tensor asks for TP 16, but --tensor-within-node keeps tensor parallelism within a node\'s 8 GPUs (16 > 8)\n');
  });

  it('--tensor 8 with --max-tensor 4 is a usage error (exit 2): the contradiction on one stderr line, nothing on stdout', async () => {
    const args = ['search', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--nodes', '128', '--tensor', '8', '--max-tensor', '4'];
    const { code, out, err } = await cli(args);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    // Not "no configuration of 1,024 GPUs runs": no size would run it; the assumed-batch line is left out as for any refused request.
    expect(err).toBe('trainplan: the constraints contradict each other: --tensor asks for TP 8, but --max-tensor caps it at 4 (8 > 4)\n');
    // --json still prints the answer, unchanged in shape (ok: false with its reason and message in the request's field names).
    const json = await cli([...args, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toMatchObject({
      ok: false, reason: 'no-feasible-configuration', message: expect.stringContaining('tensorSizes asks for TP 8, but maxTensor caps it at 4'),
      contradiction: 'the constraints contradict each other: tensorSizes asks for TP 8, but maxTensor caps it at 4 (8 > 4)',
    });
    expect(json.err).toBe(err);
  });

  it('a search that finds no plan ends stderr with its reason code and the answer\'s message, as estimate and scale do', async () => {
    // TP 3 on 1,024 GPUs = 2^10: 3 divides no power of two, so no TP × PP × CP divides the GPUs.
    const { code, out, err } = await cli(['search', ...GPT3, '--tensor', '3']);
    expect(code).toBe(1);
    const message = /^no plan: (.*)$/m.exec(out)![1]!;
    expect(message).toMatch(/divisibility rules: tensor × pipeline × context does not divide the GPUs/);
    expect(err).toBe(`trainplan: no-feasible-configuration: ${message}\n`);
  });

  it('--json carries candidatesEvaluated, best (a contract scenario with its estimate) and top', async () => {
    const { code, out, err } = await cli(['search', ...GPT3, '--top', '3', '--json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const answer = JSON.parse(out);
    expect(answer.candidatesEvaluated).toBeGreaterThan(1_000_000);
    expect(answer.top).toHaveLength(3);
    expect(runEstimate(answer.best.scenario)).toEqual(answer.best.estimate);
  });

  it('prints a human report: the best plan, the top table, why alternatives lose, and what was pruned', async () => {
    const { code, out } = await cli(['search', ...GPT3, '--top', '3', '--tokens', '300B']);
    expect(code).toBe(0);
    expect(out).toMatch(/^gpt3-175b · a100-80gb × 1,024 \(128 nodes × 8, hdr-ib-8x\) · global batch 1,536 · seq 2,048 · bf16\n/);
    expect(out).toMatch(/\nbest: TP \d+ · PP \d+/);
    expect(out).toContain('top plans:');
    expect(out).toContain('why the nearest alternatives lose:');
    expect(out).toMatch(/days/);
    expect(out).toContain('gpus-indivisible');
    // The best plan's days and GPU-hours say the uptime they assume: a search counts no restarts or failures.
    expect(out).toMatch(/\n  step [^\n]* · [\d.]+ days · [\d,]+ GPU-hours\n  at 100% uptime: no restarts or failures counted \(trainplan nodes --uptime 0\.9 for Meta's Llama 3 figure\)\n/);
  });

  it('without --tokens the report names no days, and so no uptime', async () => {
    const { code, out } = await cli(['search', ...GPT3, '--top', '1']);
    expect(code).toBe(0);
    expect(out).not.toContain('uptime');
  });

  it('--export megatron prints the best plan as Megatron-LM arguments', async () => {
    const { code, out } = await cli(['search', ...GPT3, '--top', '1', '--export', 'megatron']);
    expect(code).toBe(0);
    // The tokenizer is the user's: a comment says which vocabulary it must have, then the one shell command.
    expect(out).toMatch(/\n# the tokenizer sets the vocabulary \(51,200 rows for this model, with the padding below\)[^\n]*\n(#[^\n]*\n|export [^\n]*\n)*--num-layers 96 \\\n/);
    expect(out).toContain('--global-batch-size 1536');
  });

  it('--export megatron on 128 nodes: the size said first, and GPT-3\'s 51,200 rows built from GPT-2\'s 50,257 tokens at the TP chosen', async () => {
    const { code, out } = await cli(['search', ...GPT3, '--top', '1', '--export', 'megatron']);
    expect(code).toBe(0);
    expect(out.split('\n')[1]).toMatch(/^# planned for 128 nodes × 8 GPUs \(world size 1,024: TP \d+ · PP \d+ · CP \d+ · DP \d+\); the launcher sets it \(torchrun --nnodes 128 --nproc-per-node 8\)$/);
    const tp = Number(/--tensor-model-parallel-size (\d+)/.exec(out)![1]);
    const divisor = Number(/--make-vocab-size-divisible-by (\d+)/.exec(out)?.[1] ?? 128);
    // Megatron's _vocab_size_with_padding: the tokenizer's 50,257 up to a multiple of divisor × TP must be the 51,200 planned.
    expect(Math.ceil(50257 / (divisor * tp)) * divisor * tp, `TP ${tp}, divisor ${divisor}`).toBe(51200);
    // At TP 2 (the best plan today) that is 512: 128 × 2 = 256 would build ⌈50,257 / 256⌉ × 256 = 50,432 rows.
    if (tp === 2) expect(divisor).toBe(512);
  });

  it('--export nemo for BLOOM (ALiBi: NeMo 1.x\'s legacy model): a PP that does not divide its 70 layers is said first to be unstartable', async () => {
    // QA's command. The legacy ParallelTransformer asserts num_layers % pipeline_model_parallel_size == 0 and reads no split keys.
    // Held at PP 12 (Jean Zay's 384 GPUs: 70 layers as 5 + 6 × 10 + 5), so the warning's case is the one tested.
    const { code, out } = await cli(['search', '--model', 'bloom-176b', '--gpu', 'jean-zay-a100', '--nodes', '48', '--global-batch', '2048', '--pipeline', '12', '--export', 'nemo']);
    expect(code).toBe(0);
    expect(out).toMatch(/^ {2}pipeline_model_parallel_size: 12$/m);
    expect(out.split('\n')[0]).toMatch(/^# WARNING: NeMo cannot start this plan: .*70 % 12 = 10/);
    expect(out).toContain('  mcore_gpt: false');
  });

  it('a failed --export puts the report on stderr, then the reason code and the message on one line, as without --export', async () => {
    const { code, out, err } = await cli(['search', '--model', 'gpt3-175b', '--gpu', 'a100-40gb', '--gpus', '8', '--global-batch', '8', '--export', 'megatron']);
    expect({ code, out }).toEqual({ code: 1, out: '' });
    // The report's first line is "no plan: <the answer's message>"; the last line, what a script greps, carries the same message.
    const message = /^no plan: (.*)$/m.exec(err)![1]!;
    expect(message).toMatch(/^no configuration of 8 GPUs runs: out of memory/);
    expect(err.endsWith(`\ntrainplan: no-feasible-configuration: ${message}\n`)).toBe(true);
    // --json has no report: its stderr line is the same.
    const json = await cli(['search', '--model', 'gpt3-175b', '--gpu', 'a100-40gb', '--gpus', '8', '--global-batch', '8', '--json']);
    expect(json.err).toMatch(/^trainplan: no-feasible-configuration: no configuration of 8 GPUs runs: out of memory/);
  });

  it('--export nemo of a split NeMo 1.x refuses names what passes it, not a hand-set split (80 // 6 = 13, v 2)', async () => {
    const { code, out } = await cli(['search', '--model', 'llama3-70b', '--gpu', 'dgx-h100', '--gpus', '96', '--global-batch', '192', '--pipeline', '6',
      '--virtual-stages', '2', '--pipeline-split', 'layers', '--export', 'nemo']);
    expect(code).toBe(0);
    expect(out).not.toContain('set this split by hand');
    expect(out).toMatch(/80 \/\/ 6 = 13 fails for 2 .*: search again for NeMo 1\.x holding TP 2 · CP 4 .* with --pipeline 4 --virtual-stages 2, 4, 5, 10 or 20 .* or take this plan as Megatron-LM arguments \(--export megatron\)/);
    // The first remedy named does pass: the same search at PP 4 exports with no such warning.
    const pp4 = await cli(['search', '--model', 'llama3-70b', '--gpu', 'dgx-h100', '--gpus', '96', '--global-batch', '192', '--pipeline', '4',
      '--virtual-stages', '2', '--pipeline-split', 'layers', '--export', 'nemo']);
    expect(pp4.code).toBe(0);
    expect(pp4.out).toContain('  pipeline_model_parallel_size: 4\n');
    expect(pp4.out).not.toContain('NeMo 1.x asserts');
  });

  it('without --global-batch, the batch nodes and the chat bot assume: the model\'s published one, said first (on stderr beside --json)', async () => {
    const { code, out } = await cli(['search', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--nodes', '128', '--top', '1']);
    expect(code).toBe(0);
    expect(out).toMatch(/^assumed \(no --global-batch\): global batch 1,536 sequences \(3\.15M tokens: GPT-3 175B's published batch\)\n/);
    const json = await cli(['search', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--nodes', '128', '--top', '1', '--json']);
    expect(JSON.parse(json.out).best.scenario.training.globalBatchSize).toBe(1536);
    expect(json.err).toMatch(/^trainplan: assumed \(no --global-batch\)/);
    const nodes = await cli(['nodes', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--tokens', '300B', '--nodes', '128', '--json']);
    expect(JSON.parse(nodes.out).configuration.scenario.training.globalBatchSize).toBe(1536);
  });

  it('--overlap holds the named communication hidden in every plan and its export; a wrong item is a usage error', async () => {
    const plain = await cli(['search', ...GPT3, '--top', '1', '--virtual-stages', '2', '--export', 'megatron']);
    expect(plain.out).toContain('--no-overlap-p2p-communication');
    expect(plain.out).not.toContain('--overlap-grad-reduce');
    const hidden = await cli(['search', ...GPT3, '--top', '1', '--virtual-stages', '2', '--overlap', 'p2p,grad-reduce', '--json']);
    const best = JSON.parse(hidden.out).best;
    expect(best.scenario.parallelism).toMatchObject({ overlapPipelineComm: true, overlapGradReduce: true });
    expect(best.scenario.parallelism.overlapTensorParallelComm ?? false).toBe(false);
    const all = await cli(['search', ...GPT3, '--top', '1', '--virtual-stages', '2', '--overlap', 'all', '--export', 'megatron']);
    for (const flag of ['--overlap-grad-reduce', '--tp-comm-overlap']) expect(all.out).toContain(flag);
    expect(all.out).not.toContain('--no-overlap-p2p-communication');
    const bad = await cli(['search', ...GPT3, '--overlap', 'p2p,everything']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--overlap takes grad-reduce, tp-comm, p2p, all or none, got 'everything'/);
    // The plan's label says what its time assumes; "none" is the default said aloud.
    expect(JSON.parse(hidden.out).best.label).toMatch(/ · overlap grad-reduce, p2p$/);
    const none = await cli(['search', ...GPT3, '--top', '1', '--virtual-stages', '2', '--overlap', 'none', '--json']);
    expect(JSON.parse(none.out).best.label).not.toContain('overlap');
    expect(JSON.parse(none.out).best.scenario.parallelism).toMatchObject({ overlapPipelineComm: false, overlapGradReduce: false, overlapTensorParallelComm: false });
    expect((await cli(['search', ...GPT3, '--overlap', 'none,p2p'])).code).toBe(2);
  });

  it('--grad-accumulation reaches the plans and their export; a wrong value names the field', async () => {
    const { code, out } = await cli(['search', ...GPT3, '--top', '1', '--grad-accumulation', 'fp32', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out).best.scenario.training.gradientAccumulation).toBe('fp32');
    const exported = await cli(['search', ...GPT3, '--top', '1', '--grad-accumulation', '16-bit', '--export', 'megatron']);
    expect(exported.out).toContain('--no-gradient-accumulation-fusion');
    // NeMo holds 16-bit gradients with distributed_fused_adam's grad_sync_dtype: bf16; fused_adam cannot, and says so.
    const nemo = (await cli(['search', ...GPT3, '--top', '1', '--grad-accumulation', '16-bit', '--export', 'nemo'])).out;
    if (nemo.includes('    name: distributed_fused_adam')) expect(nemo).toContain('    grad_sync_dtype: bf16');
    else expect(nemo).toMatch(/^ {2}# gradients: fused_adam .* where this plan counts 2/m);
    const bad = await cli(['search', ...GPT3, '--grad-accumulation', 'fp8']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^trainplan: --grad-accumulation: /m);
  });

  it('--grad-accumulation fused-16-bit keeps the fusion and reduces in bf16 in the Megatron export; --help names it', async () => {
    const exported = await cli(['search', ...GPT3, '--top', '1', '--grad-accumulation', 'fused-16-bit', '--export', 'megatron']);
    expect(exported.code).toBe(0);
    expect(exported.out).toContain('--grad-reduce-in-bf16');
    expect(exported.out).not.toContain('--no-gradient-accumulation-fusion');
    expect((await cli(['search', '--help'])).out).toContain('fused-16-bit: the same into a 16-bit');
  });

  it.each(['megatron', 'nemo'])('--export %s with no plan leaves stdout empty (no prose for `> run.sh`), the report and the reason on stderr, exit 1', async (format) => {
    // GPT-3 175B on one node of 40 GB A100s: no split holds its weights.
    const { code, out, err } = await cli(['search', '--model', 'gpt3-175b', '--gpu', 'a100-40gb', '--nodes', '1', '--global-batch', '64', '--export', format]);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toMatch(/^no plan: no configuration of 8 GPUs runs: out of memory/);
    expect(err).toContain('\nclosest feasible alternative: nothing runs on 1 node (8 GPUs); the nearest size that runs is larger: ');
    // The last line is the reason code and the answer's message (the report's first line after "no plan: "), as every command's.
    expect(err.endsWith(`\ntrainplan: no-feasible-configuration: ${/^no plan: (.*)$/m.exec(err)![1]!}\n`)).toBe(true);
  });

  it('--export builds Nemotron-4 as NVIDIA configures it (squared ReLU, LayerNorm1p, half-width RoPE) in both formats', async () => {
    const nemotron = ['search', '--model', 'nemotron4-15b', '--gpu', 'dgx-h100', '--gpus', '64', '--global-batch', '128'];
    const megatron = await cli([...nemotron, '--export', 'megatron']);
    for (const flag of ['--squared-relu', '--apply-layernorm-1p', '--rotary-percent 0.5']) expect(megatron.out).toContain(flag);
    const nemo = (await cli([...nemotron, '--export', 'nemo'])).out.split('\n');
    for (const line of ['  activation: squared-relu', '  normalization: layernorm1p', '  rotary_percentage: 0.5']) expect(nemo).toContain(line);
  });

  it('--export nemo prints a NeMo YAML fragment', async () => {
    const { out } = await cli(['search', ...GPT3, '--top', '1', '--export', 'nemo']);
    expect(out).toMatch(/^(#[^\n]*\n)+trainer:\n {2}num_nodes: 128\n/);
  });

  it('draws a bounded progress bar on a terminal, and none into a pipe', async () => {
    const tty = await cli(['search', ...GPT3, '--top', '1', '--json'], {}, true);
    const redraws = tty.err.split('\r').length - 1;
    expect(redraws).toBeGreaterThan(1);
    expect(redraws).toBeLessThanOrEqual(45);
    expect((await cli(['search', ...GPT3, '--top', '1', '--json'])).err).toBe('');
  });

  it('a model that fits nowhere exits 1 with the closest feasible alternative', async () => {
    const { code, out, err } = await cli(['search', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--nodes', '1', '--global-batch', '64']);
    expect(code).toBe(1);
    expect(out).toContain('closest feasible alternative');
    // stderr: the reason code, then the answer's own message (the report's first line after "no plan: ").
    expect(err).toBe(`trainplan: no-feasible-configuration: ${/^no plan: (.*)$/m.exec(out)![1]!}\n`);
    expect(err).toMatch(/: no configuration of 8 GPUs runs: out of memory/);
  });

  describe('a --candidate-budget that runs out before any plan that fits is estimated', () => {
    // Llama 3 8B on one DGX A100 80GB, batch 32: the three candidates with the best lower bounds do not fit; later ones do.
    // Megatron's three recompute modes: with partial recompute, the estimate after a plan that misses recomputes a few of its layers, and fits.
    const LLAMA = ['search', '--model', 'llama3-8b', '--gpu', 'a100-80gb', '--nodes', '1', '--global-batch', '32', '--recompute', 'none,selective,full'];

    it('the same search without --candidate-budget finds a plan (the premise)', async () => {
      const { code, out } = await cli([...LLAMA, '--top', '1', '--json']);
      expect(code).toBe(0);
      expect(JSON.parse(out).fullEstimates).toBeGreaterThan(3);
    });

    it.each([1, 2, 3])('--candidate-budget %i exits 1 as budget-exhausted, naming --candidate-budget and the estimates made, with the closest seen so far', async (budget) => {
      const estimates = budget === 1 ? '1 full estimate' : `${budget} full estimates`;
      const { code, out, err } = await cli([...LLAMA, '--candidate-budget', String(budget)]);
      expect(code).toBe(1);
      expect(out).toMatch(new RegExp(`^no plan: not every configuration of 8 GPUs was estimated: the candidate budget ran out after ${estimates}, `
        + `before any plan that fits was estimated; the closest seen so far \\(TP \\d+ [^)]*\\) needs [\\d.]+ GiB per GPU, .*; raise --candidate-budget above ${budget} to search further\n`));
      // stderr: the reason code and the same message, on one line.
      expect(err).toBe(`trainplan: budget-exhausted: ${/^no plan: (.*)$/m.exec(out)![1]!}\n`);
      expect(out).toMatch(/\nclosest miss: TP \d+ /);
      // Nothing was shown not to run here, so no other cluster size is offered as "the nearest that runs".
      expect(out).not.toContain('closest feasible alternative');
      expect(out).not.toContain('out of memory: the plan that comes closest');
    });

    it('--json answers reason budget-exhausted (as the response schema allows) with the estimates made and the closest candidate', async () => {
      const { code, out, err } = await cli([...LLAMA, '--candidate-budget', '1', '--json']);
      expect(code).toBe(1);
      const a = JSON.parse(out);
      expect(validateSearchResponse(a)).toEqual({ ok: true, value: a });
      expect(a).toMatchObject({ ok: false, reason: 'budget-exhausted', fullEstimates: 1, budgetExhausted: true });
      expect(a.nearestMiss.neededBytes).toBeGreaterThan(a.nearestMiss.availableBytes);
      expect(a.closest).toBeUndefined();
      // The JSON names the request's own field; stderr, for a request built from flags, the flag.
      expect(a.message).toMatch(/raise candidateBudget above 1 to search further$/);
      expect(err).toMatch(/raise --candidate-budget above 1 to search further\n$/);
    });

    it('an --input request is told its field, candidateBudget', async () => {
      const request = { model: 'llama3-8b', cluster: { gpu: 'h100-sxm', nodes: 1 }, training: { globalBatchSize: 32 }, candidateBudget: 1 };
      const { code, out, err } = await cli(['search', '--input', 'r.json'], { files: { 'r.json': JSON.stringify(request) } });
      expect(code).toBe(1);
      expect(out).toMatch(/^no plan: .*raise candidateBudget above 1 to search further\n/);
      expect(err).toMatch(/^trainplan: budget-exhausted: .*raise candidateBudget above 1 to search further\n$/);
    });

    it('--help says what the export\'s header holds: the release, the environment, Megatron-FSDP for ZeRO-2/3', async () => {
      const help = (await cli(['search', '--help'])).out.replace(/\s+/g, ' ');
      expect(help).toContain('the Megatron-Core release the names need');
      expect(help).toContain('export or unset CUDA_DEVICE_MAX_CONNECTIONS');
      expect(help).toContain('ZeRO-2 and ZeRO-3 to Megatron-FSDP (--data-parallel-sharding-strategy optim_grads, optim_grads_params)');
    });

    it('--help documents it under exit status 1', async () => {
      const { code, out } = await cli(['search', '--help']);
      expect(code).toBe(0);
      expect(out).toMatch(/\nExit status: 0 a plan was found; 1 no plan: nothing fits .*\nor --candidate-budget ran out before a plan that fits was estimated [^;]*; 2 usage error/);
    });
  });

  it.each([
    [['search', '--gpu', 'a100-80gb', '--nodes', '8', '--global-batch', '64'], /missing --model/],
    [['search', ...GPT3, '--export', 'pdf'], /--export must be megatron or nemo/],
    // The message names the other fields by their flags too, not by the request's JSON paths.
    [['search', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--global-batch', '64'], /^trainplan: give either --nodes or --gpus, got neither$/m],
    // Said by the flag given, naming only the flags missing (QA: "--price: --objective cost needs --tokens and --price").
    [['search', ...GPT3, '--objective', 'cost'], /^trainplan: --objective cost needs --price and --tokens: the cost is the GPU-hours to train the tokens \(--tokens T\) at the price of one GPU-hour \(--price P\) \(usage: /m],
    [['search', ...GPT3, '--objective', 'cost', '--tokens', '300B'], /^trainplan: --objective cost needs --price: /m],
    [['search', ...GPT3, '--objective', 'cost', '--price', '2'], /^trainplan: --objective cost needs --tokens: /m],
    // A rule between fields whose path no flag sets (training) is said in flags alone.
    [['search', ...GPT3, '--objective', 'time-to-train'], /^trainplan: --objective time-to-train needs --tokens$/m],
    [['search', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--nodes', '8', '--global-batch', '0'], /^trainplan: --global-batch: expected an integer ≥ 1, got 0$/m],
    [['search', ...GPT3, '--top', 'many'], /^trainplan: --top: /m],
    [['scale', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--global-batch', '64', '--nodes', '16,x'], /^trainplan: --nodes: .*got "x"/m],
    [['inference', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--prompt', '0', '--output', '8'], /^trainplan: --prompt: /m],
    [['search', ...GPT3, '--objective', 'fastest'], /objective: expected/],
    // Without a token budget there is no cost to price: --price would be dropped without a word.
    [['search', ...GPT3, '--price', '2'], /^trainplan: --price needs --tokens: the cost is the GPU-hours to train them at that price \(usage: /m],
  ])('usage errors exit 2 naming the problem, by the flag that sets the field (%#)', async (args, message) => {
    const { code, err } = await cli(args);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  it('--tensor, --pipeline, --recompute and --micro-batch are exactly the values searched', async () => {
    const { code, out } = await cli(['search', ...GPT3, '--tensor', '8', '--pipeline', '8,16', '--recompute', 'full', '--micro-batch', '1,2', '--json']);
    expect(code).toBe(0);
    const a = JSON.parse(out);
    expect(a.top.length).toBeGreaterThan(0);
    for (const p of a.top) {
      expect(p.scenario.parallelism).toMatchObject({ tensor: 8, recompute: 'full' });
      expect([8, 16]).toContain(p.scenario.parallelism.pipeline);
      expect([1, 2]).toContain(p.scenario.training.microBatchSize);
    }
  });

  it.each([
    [['--tensor', '8,x'], /^trainplan: --tensor: expected an integer from 1 to 64,000, got "x" \(write 1536, /m],
    [['--recompute', 'full,fully'], /^trainplan: --recompute: expected one of none, selective, full, full-partial, got "fully" \(did you mean full\?\)$/m],
    [['--virtual-stages', '0'], /^trainplan: --virtual-stages: expected an integer ≥ 1, got 0$/m],
  ])('a bad item of a list flag is named by its flag (%j)', async (flags, message) => {
    const { code, err } = await cli(['search', ...GPT3, ...flags]);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  it.each([
    [['--tensor', '4,,8'], '--tensor: item 2 of "4,,8" is empty'],
    [['--pipeline', '8,'], '--pipeline: item 2 of "8," is empty'],
    [['--micro-batch', ',1'], '--micro-batch: item 1 of ",1" is empty'],
    [['--recompute', 'full,,selective'], '--recompute: item 2 of "full,,selective" is empty'],
  ])('an empty item of a list flag is named by its position, not as got "" (%j)', async (flags, message) => {
    const { code, err } = await cli(['search', ...GPT3, ...flags]);
    expect(code).toBe(2);
    expect(err.startsWith(`trainplan: ${message} (usage: trainplan search `)).toBe(true);
    expect(err.split('\n')).toHaveLength(2);
  });

  it.each([
    [['--model='], '--model: empty value: give a model preset id'],
    [['--model', 'gpt3-175b', '--gpu='], '--gpu: empty value: give a GPU or system preset id'],
    [[...GPT3.slice(0, 4), '--nodes='], '--nodes: empty value: give a count'],
  ])('an empty value (%j) is refused against its own flag, before anything missing', async (flags, message) => {
    const { code, err } = await cli(['search', ...flags]);
    expect(code).toBe(2);
    expect(err.startsWith(`trainplan: ${message} (usage: trainplan search `)).toBe(true);
    expect(err.split('\n')).toHaveLength(2);
  });

  describe('numbers as people write them', () => {
    const LLAMA = ['--model', 'llama3-8b', '--gpu', 'h100-sxm', '--nodes', '1', '--tokens', '1B', '--top', '1', '--json'];
    const answer = async (args: string[]) => {
      const { code, out, err } = await cli(args);
      expect({ code, err }).toEqual({ code: 0, err: '' });
      return JSON.parse(out);
    };

    it('--global-batch 1,536 (thousands grouped by commas) is 1536; 1,5 is refused as given', async () => {
      const a = await answer(['search', ...LLAMA, '--global-batch', '1,536']);
      expect(a.best.scenario.training.globalBatchSize).toBe(1536);
      const bad = await cli(['search', ...LLAMA, '--global-batch', '1,5']);
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/^trainplan: --global-batch: expected an integer from 1 to 1,000,000,000, got "1,5" \(write 1536, 1,536, /m);
    });

    it.each(['$2.50', '€2.5', '2.5'])('--price %s is 2.5 a GPU-hour: a currency sign is dropped (the cost is in the same currency)', async (price) => {
      const a = await answer(['search', ...LLAMA, '--global-batch', '64', '--objective', 'cost', '--price', price]);
      const b = await answer(['search', ...LLAMA, '--global-batch', '64', '--objective', 'cost', '--price', '2.5']);
      expect(a.best.cost).toBeGreaterThan(0);
      expect(a.best.cost).toBe(b.best.cost);
    });

    it('inference --prompt 2,048 is 2048 tokens', async () => {
      const a = await answer(['inference', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--prompt', '2,048', '--output', '512', '--json']);
      expect(a.promptTokens).toBe(2048);
    });
  });

  it('a search the --memory-fraction rules out names the flag, not the field memoryFraction, in the report and on stderr', async () => {
    const { code, out, err } = await cli(['search', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--nodes', '16', '--global-batch', '1536', '--memory-fraction', '0.3']);
    expect(code).toBe(1);
    expect(out).toMatch(/\nclosest miss: .* above the 24\.0 GiB the search leaves usable \(--memory-fraction 0\.3 of the NVIDIA A100 SXM4 80GB's 80\.0 GiB\)\n/);
    // The no-plan line says the shortfall in the closest miss's own words (QA: two wordings of one shortfall).
    expect(out).toMatch(/^no plan: .* above the 24\.0 GiB the search leaves usable \(--memory-fraction 0\.3 of the NVIDIA A100 SXM4 80GB's 80\.0 GiB\)\n/);
    expect(err).toMatch(/^trainplan: no-feasible-configuration: .* above the 24\.0 GiB the search leaves usable \(--memory-fraction 0\.3 of the NVIDIA A100 SXM4 80GB's 80\.0 GiB\)\n$/);
    expect(out + err).not.toContain('memoryFraction');
  });

  it('a search nothing fits in says the closest plan\'s shortfall in one wording on its no-plan and closest-miss lines', async () => {
    // QA: "needs 268 GiB per GPU, the GPU has 80.0 GiB" over "needs 268 GiB per GPU on pipeline stage 0, the NVIDIA A100 SXM4 80GB has 80.0 GiB".
    const { code, out } = await cli(['search', '--model', 'megatron-1t', '--gpu', 'a100-80gb', '--nodes', '8', '--global-batch', '4096']);
    expect(code).toBe(1);
    const noPlan = /^no plan: .*the plan that comes closest \((.*?)\) (needs .*)$/m.exec(out);
    const miss = /^closest miss: (.*?): (needs .*)$/m.exec(out);
    expect(noPlan, out).not.toBeNull();
    expect(miss, out).not.toBeNull();
    expect([noPlan![1], noPlan![2]]).toEqual([miss![1], miss![2]]);
    expect(miss![2]).toMatch(/^needs [\d.]+ GiB per GPU on pipeline stage \d+, the NVIDIA A100 SXM4 80GB has 80\.0 GiB$/);
  });

  it('an --input request is told its fields by their JSON paths', async () => {
    const request = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 64 } };
    const { code, err } = await cli(['search', '--input', 'r.json'], { files: { 'r.json': JSON.stringify(request) } });
    expect(code).toBe(2);
    expect(err).toBe('trainplan: cluster.nodes: give either cluster.nodes or cluster.gpus, got neither\n');
  });

  it('reads the whole request from --input', async () => {
    const request = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, top: 1 };
    const { code, out } = await cli(['search', '--input', 'r.json', '--json'], { files: { 'r.json': JSON.stringify(request) } });
    expect(code).toBe(0);
    expect(JSON.parse(out).top).toHaveLength(1);
  });

  it('a bad field of an --input request is named by its JSON path, since no flag was used', async () => {
    const request = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: {} };
    const { code, err } = await cli(['search', '--input', 'r.json'], { files: { 'r.json': JSON.stringify(request) } });
    expect(code).toBe(2);
    expect(err).toMatch(/^trainplan: training\.globalBatchSize: missing required field/m);
  });
});

describe('trainplan nodes', () => {
  const base = ['nodes', '--model', 'gpt3-175b', '--gpu', 'dgx-a100-80gb', '--global-batch', '1536', '--tokens', '300B'];

  it('--json carries nodes, days, gpuHours and the configuration used', async () => {
    const { code, out } = await cli([...base, '--days', '30', '--json']);
    expect(code).toBe(0);
    const a = JSON.parse(out);
    expect(a.days).toBeLessThanOrEqual(30);
    expect(a.gpuHours).toBeGreaterThan(0);
    expect(a.configuration.scenario.cluster.nodes).toBe(a.nodes);
  });

  it('the inverse: days on N nodes, as a human line', async () => {
    const { code, out } = await cli([...base, '--nodes', '128']);
    expect(code).toBe(0);
    expect(out).toMatch(/^on: 128 nodes \(1,024 × a100-80gb\)\ntime to train 300B tokens: \d+\.\d days/);
  });

  it('without --global-batch, as the issue writes the command: the model\'s published batch, else about 4M tokens a step, said on the first line', async () => {
    const noBatch = base.filter((x, i) => x !== '--global-batch' && base[i - 1] !== '--global-batch');
    const { code, out } = await cli([...noBatch, '--nodes', '128']);
    expect(code).toBe(0);
    // GPT-3 175B's published batch: 3.2M tokens (Brown et al. 2020, Table 2.1), 1,536 sequences of 2,048.
    expect(out).toMatch(/^assumed \(no --global-batch\): global batch 1,536 sequences \(3\.15M tokens: GPT-3 175B's published batch\)/);
    const json = await cli([...noBatch, '--nodes', '128', '--json']);
    expect(JSON.parse(json.out).configuration.scenario.training.globalBatchSize).toBe(1536);
    expect(json.err).toMatch(/^trainplan: assumed \(no --global-batch\)/);
    // A longer sequence takes fewer of them: Llama 3's 8192 tokens → 512.
    const llama = await cli(['nodes', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--tokens', '15T', '--nodes', '64', '--json']);
    expect(JSON.parse(llama.out).configuration.scenario.training.globalBatchSize).toBe(512);
    expect(llama.err).toBe('trainplan: assumed (no --global-batch): global batch 512 sequences (about 4M tokens, as Llama 2 trained)\n');
  });

  it('on a cluster large enough that the assumed batch grows past 4M tokens, the line says how many tokens it is', async () => {
    const { err, out } = await cli(['nodes', '--model', 'llama3.1-405b', '--gpu', 'h100-sxm', '--tokens', '15T', '--nodes', '2048', '--json']);
    const batch = JSON.parse(out).configuration.scenario.training.globalBatchSize as number;
    // Llama 3.1's 8192-token sequences: the batch in tokens, not "about 4M".
    expect(batch * 8192).toBeGreaterThan(6 * 2 ** 20);
    expect(err).toMatch(new RegExp(`^trainplan: assumed \\(no --global-batch\\): global batch ${batch.toLocaleString('en-US')} sequences \\(16\\.8M tokens: `));
  });

  it('budgets take counts with a suffix (--gpu-hours 6.4M)', async () => {
    const { code, out } = await cli([...base, '--gpu-hours', '1.5M', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out).gpuHours).toBeLessThanOrEqual(1.5e6);
  });

  it('an unreachable deadline exits 1 and names the closest feasible alternative', async () => {
    const { code, out } = await cli([...base, '--days', '0.01']);
    expect(code).toBe(1);
    expect(out).toContain('closest feasible alternative');
  });
});

describe('trainplan scale and inference', () => {
  it('scale prints step time, tokens/s per GPU and efficiency per node count', async () => {
    const { code, out } = await cli(['scale', '--model', 'mt-nlg-530b', '--gpu', 'azure-ndm-a100-v4', '--global-batch', '1920', '--nodes', '105,140,175', '--tensor', '8', '--pipeline', '35', '--recompute', 'full']);
    expect(code).toBe(0);
    expect(out).toMatch(/^strong scaling:\n/);
    expect(out).toMatch(/\n\s+105\s+840\s+1,920\s+.*100\.0%/);
  });

  it.each([
    ['scale', /\nExit status: 0 every size has a plan; 1 some size has none \(its row says why, and stderr has one\nline per such size\); 2 usage error or invalid request\.\n/],
    ['inference', /\nExit status: 0 a plan meets the latency bounds .*\n1 no plan does \(the report names the closest; stderr says why, and what to change: [^)]*\); 2 usage error or invalid request\.\n/],
  ])('%s --help has the exit status section the other commands have', async (command, section) => {
    const { code, out } = await cli([command, '--help']);
    expect(code).toBe(0);
    expect(out).toMatch(section);
  });

  it('inference prints the best plan under the bound and the frontier', async () => {
    const { code, out } = await cli(['inference', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--prompt', '2048', '--output', '512', '--max-token-ms', '50']);
    expect(code).toBe(0);
    expect(out).toMatch(/best under the bounds \(≤ 50\.0 ms per token\): TP \d+ · PP \d+ · batch \d+/);
    expect(out).toContain('throughput-versus-latency frontier:');
  });
});
