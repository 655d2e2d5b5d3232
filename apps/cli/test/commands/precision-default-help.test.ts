import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[]) {
  const io = fakeIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const V100_SERVING = ['inference', '--model', 'llama3-8b', '--gpu', 'v100-32gb', '--prompt', '512', '--output', '128', '--json'];

/**
 * An omitted precision follows the GPU (README: bf16, or fp16 on a V100, which has no BF16 tensor cores); QA: inference
 * --help said "bf16 (default)", as did search's, which a V100 user would take for a precision the GPU cannot run.
 */
describe('--precision\'s default, as the help says it: bf16, or fp16 on a GPU without BF16', () => {
  it.each(['inference', 'search'])('%s --help says the default follows the GPU, not bf16 alone', async (command) => {
    const help = (await cli([command, '--help'])).out.replace(/\s+/g, ' ');
    expect(help).toContain('default: bf16, or fp16 on a GPU without BF16 tensor cores (V100)');
    expect(help).not.toContain('bf16 (default)');
  });

  it('inference on a V100 without --precision serves as --precision fp16 does, where --precision bf16 is refused', async () => {
    const omitted = await cli(V100_SERVING);
    expect(omitted.code).toBe(0);
    expect(JSON.parse(omitted.out)).toEqual(JSON.parse((await cli([...V100_SERVING, '--precision', 'fp16'])).out));
    const bf16 = await cli([...V100_SERVING.slice(0, -1), '--precision', 'bf16']);
    expect(bf16.code).toBe(2);
    expect(bf16.err).toMatch(/^trainplan: --precision: NVIDIA V100 [^\n]* has no BF16 tensor cores/);
  });

  it('search on a V100 without --precision plans fp16', async () => {
    const { code, out } = await cli(['search', '--model', 'llama3-8b', '--gpu', 'v100-32gb', '--nodes', '1', '--global-batch', '32', '--top', '1', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out).best.scenario.training.precision).toBe('fp16');
  });
});
