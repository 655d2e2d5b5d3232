import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[], files: Record<string, string> = {}) {
  const io = fakeIo({ files });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

/**
 * `--global-batch 4M` meant as "4M tokens" is 4,000,000 sequences: every command that takes --global-batch says so, in the
 * words `trainplan nodes` says it with (QA: `search --model llama2-7b --gpu h100-sxm --nodes 8 --global-batch 4M` exited
 * 0 with "step 6.21 h" and no warning, where nodes warned; scale takes the same flag).
 * By hand: Llama 2 trained on 4,096-token sequences (Touvron et al. 2023, Table 1); 4e6 × 4,096 = 16,384,000,000 tokens a
 * step, over the 100M the warning allows; read as tokens, 4e6 / 4,096 = 976.6, 977 sequences.
 */
const LLAMA2_8 = ['--model', 'llama2-7b', '--gpu', 'h100-sxm', '--nodes', '8'];
const NO_TOKENS_WARNING = 'a global batch of 4,000,000 sequences is 16.4B tokens a step, where published runs step 3.2M to 16M tokens '
  + '(GPT-3 175B to Llama 3 405B); --global-batch counts sequences: 4M tokens is 977 sequences of 4,096';

describe('a --global-batch that reads as tokens typed as sequences is warned of by search and scale, as by nodes', () => {
  it('search --global-batch 4M (the QA command): the warning under the line that names the batch, still exit 0', async () => {
    const { code, out, err } = await cli(['search', ...LLAMA2_8, '--global-batch', '4M']);
    expect(code).toBe(0);
    expect(err).toBe('');
    const lines = out.split('\n');
    expect(lines[0]).toContain('· global batch 4,000,000 · seq 4,096 ·');
    expect(lines[1]).toBe(`  ⚠ ${NO_TOKENS_WARNING}`);
  });

  it('search --json: the JSON is the API\'s answer, unchanged; the warning goes to stderr', async () => {
    const { code, out, err } = await cli(['search', ...LLAMA2_8, '--global-batch', '4M', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out).warnings.join('\n')).not.toContain('counts sequences');
    expect(err).toBe(`trainplan: warning: ${NO_TOKENS_WARNING}\n`);
  });

  it('search with --tokens 2T: the steps the tokens take are said too, as nodes says them', async () => {
    // 2e12 / 1.6384e10 = 122.07: 123 whole optimizer steps.
    const { err } = await cli(['search', ...LLAMA2_8, '--global-batch', '4M', '--tokens', '2T', '--json']);
    expect(err).toBe('trainplan: warning: a global batch of 4,000,000 sequences is 16.4B tokens a step, 123 optimizer steps for 2T tokens, '
      + 'where published runs step 3.2M to 16M tokens (GPT-3 175B to Llama 3 405B); --global-batch counts sequences: 4M tokens is 977 sequences of 4,096\n');
  });

  it('search --export: stdout is the arguments alone, the warning on stderr', async () => {
    const { code, out, err } = await cli(['search', ...LLAMA2_8, '--global-batch', '4M', '--export', 'megatron']);
    expect(code).toBe(0);
    expect(out).not.toContain('⚠');
    expect(out).toContain('--global-batch-size 4000000');
    expect(err).toBe(`trainplan: warning: ${NO_TOKENS_WARNING}\n`);
  });

  it('search --input: said in the request\'s fields, as the request was given', async () => {
    const request = { model: 'llama2-7b', cluster: { gpu: 'h100-sxm', nodes: 8 }, training: { globalBatchSize: 4e6 } };
    const { code, out } = await cli(['search', '--input', 'r.json'], { 'r.json': JSON.stringify(request) });
    expect(code).toBe(0);
    expect(out.split('\n')[1]).toBe(`  ⚠ ${NO_TOKENS_WARNING.replace('--global-batch', 'training.globalBatchSize')}`);
  });

  it.each([
    ['a batch meant as sequences (256 × 4,096 = 1.05M tokens a step)', ['--global-batch', '256']],
    ['no --global-batch (the default assumed, about 4M tokens)', []],
  ])('search with %s: no warning', async (_what, batch) => {
    const { code, out, err } = await cli(['search', ...LLAMA2_8, ...batch]);
    expect(code).toBe(0);
    expect(out).not.toContain('counts sequences');
    expect(err).not.toContain('counts sequences');
  });

  it('scale --global-batch 4M: the warning under the table, with the planner\'s caveats; exit 0', async () => {
    const { code, out, err } = await cli(['scale', '--model', 'llama2-7b', '--gpu', 'h100-sxm', '--nodes', '8,16', '--global-batch', '4M']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toContain(`\n\n  ⚠ ${NO_TOKENS_WARNING}\n`);
  });

  it('scale --json: the API\'s answer on stdout, the warning on stderr', async () => {
    const { code, out, err } = await cli(['scale', '--model', 'llama2-7b', '--gpu', 'h100-sxm', '--nodes', '8', '--global-batch', '4M', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).not.toHaveProperty('warnings');
    expect(err).toBe(`trainplan: warning: ${NO_TOKENS_WARNING}\n`);
  });

  it('scale at a batch meant as sequences (512 × 4,096 = 2.1M tokens a step): no warning', async () => {
    const { out } = await cli(['scale', '--model', 'llama2-7b', '--gpu', 'h100-sxm', '--nodes', '8,16', '--global-batch', '512']);
    expect(out).not.toContain('counts sequences');
  });
});
