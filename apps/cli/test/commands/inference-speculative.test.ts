import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[]) {
  const io = fakeIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const LLAMA = ['inference', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--prompt', '2048', '--output', '512'];
const DRAFT = ['--draft-model', 'llama3.2-1b'];

/** The speculation the best plan of an inference --json answer ran with. */
const speculationOf = (out: string): { draftTokens: number; acceptanceRate: number } => JSON.parse(out).best.speculation;

/**
 * QA: the widget and `trainplan ask` take γ = 4 draft tokens accepted with α = 0.7 where a draft is named; `trainplan
 * inference --draft-model llama3.2-1b` was refused for a missing --draft-tokens and --acceptance.
 */
describe('trainplan inference --draft-model: γ and α left out take the defaults trainplan ask takes', () => {
  it('--draft-model alone plans what `ask` plans for the same question with no γ or α given', async () => {
    const asked = await cli(['ask', 'serve llama3-70b on h100 with speculative decoding, 2048 prompt tokens and 512 output tokens', '--json']);
    const { parameters } = JSON.parse(asked.out).parsed as { parameters: { draftModel: string; draftTokens: number; acceptanceRate: number } };
    expect(parameters.draftModel).toBe('llama3.2-1b');
    const { code, out } = await cli([...LLAMA, ...DRAFT, '--json']);
    expect(code).toBe(0);
    expect(speculationOf(out)).toMatchObject({ draftTokens: parameters.draftTokens, acceptanceRate: parameters.acceptanceRate });
  });

  it('the defaults are 4 and 0.7: the same answer as given aloud', async () => {
    const assumed = await cli([...LLAMA, ...DRAFT, '--json']);
    const given = await cli([...LLAMA, ...DRAFT, '--draft-tokens', '4', '--acceptance', '0.7', '--json']);
    expect(JSON.parse(assumed.out)).toEqual(JSON.parse(given.out));
  });

  it('the report opens with the assumed line, as search\'s assumed batch; --json says it on stderr', async () => {
    const { code, out, err } = await cli([...LLAMA, ...DRAFT]);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out.split('\n')[0]).toBe('assumed (no --draft-tokens, --acceptance): 4 draft tokens a step (γ), each draft token accepted with probability 0.7 '
      + '(α; it depends on the workload and the draft, 0.5 to 0.9 in Leviathan et al. 2023: measure yours), as trainplan ask and the widget assume');
    expect(out.split('\n')[1]).toMatch(/^serving 2,048 prompt tokens/);
    const json = await cli([...LLAMA, ...DRAFT, '--json']);
    expect(json.err).toBe(`trainplan: ${out.split('\n')[0]}\n`);
  });

  it('a flag given is not said as assumed; with both given there is no assumed line', async () => {
    const alpha = await cli([...LLAMA, ...DRAFT, '--acceptance', '0.8']);
    expect(alpha.out.split('\n')[0]).toBe('assumed (no --draft-tokens): 4 draft tokens a step (γ), as trainplan ask and the widget assume');
    expect(speculationOf((await cli([...LLAMA, ...DRAFT, '--acceptance', '0.8', '--json'])).out)).toMatchObject({ draftTokens: 4, acceptanceRate: 0.8 });
    const gamma = await cli([...LLAMA, ...DRAFT, '--draft-tokens', '5']);
    expect(gamma.out.split('\n')[0]).toMatch(/^assumed \(no --acceptance\): each draft token accepted with probability 0\.7 /);
    const both = await cli([...LLAMA, ...DRAFT, '--draft-tokens', '5', '--acceptance', '0.8', '--json']);
    expect(both.err).toBe('');
    expect(speculationOf(both.out)).toMatchObject({ draftTokens: 5, acceptanceRate: 0.8 });
  });

  it('the draft is never assumed: --acceptance alone is refused for the missing --draft-model only', async () => {
    const { code, out, err } = await cli([...LLAMA, '--acceptance', '0.8']);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toBe('trainplan: missing --draft-model: give the draft model\'s preset id, e.g. --draft-model llama3.2-1b\n');
  });

  it('--help says the defaults, and its example names the draft alone', async () => {
    const help = (await cli(['inference', '--help'])).out;
    expect(help.replace(/\s+/g, ' ')).toContain('proposes N tokens a step (default 4), each accepted with chance A (default 0.7;');
    expect(help).toContain('[--draft-model ID [--draft-tokens N] [--acceptance A]]');
    expect(help).toMatch(/--prompt 2048 --output 512 \\\n {6}--draft-model llama3\.2-1b\n/);
  });
});
