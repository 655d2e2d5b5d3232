import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[]) {
  const io = { ...fakeIo(), stderrIsTTY: false };
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const GPT3 = ['search', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--nodes', '128'];
/** A search small enough to run in the test: Llama 3 8B on one node. */
const LLAMA = ['search', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--gpus', '8', '--global-batch', '64'];
const REFUSED = /^trainplan: --budget [^:]+: on search, --budget counts full estimates, not money; give --candidate-budget N for that count, and for a budget in money use trainplan nodes --budget M --price P \(usage: trainplan search [^\n]*\)\n$/;

/**
 * On nodes `--budget M --price P` is money; on search --budget counted full estimates (QA: `search … --tokens 300B --price 2
 * --budget 1M` read a million estimates and printed "cost 1,009,756", over the $1M meant, without a word). Search's count is
 * --candidate-budget, the API's candidateBudget; --budget stays only where it cannot be read as money.
 */
describe('trainplan search --candidate-budget, and --budget where it could be money', () => {
  it('QA\'s command is a usage error naming --candidate-budget and trainplan nodes, with nothing on stdout', async () => {
    const { code, out, err } = await cli([...GPT3, '--tokens', '300B', '--price', '2', '--budget', '1M']);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toMatch(REFUSED);
    expect(err).toMatch(/^trainplan: --budget with --price: /);
  });

  it.each([
    [['--objective', 'cost', '--tokens', '300B', '--price', '2', '--budget', '1000'], '--budget with --price'],
    [['--objective', 'cost', '--budget', '1000'], '--budget with --objective cost'],
    [['--budget', '$1M'], '--budget given as money (\'$1M\')'],
    [['--budget', '€5k'], '--budget given as money (\'€5k\')'],
  ])('%j is refused as money, by what makes it so', async (flags, said) => {
    const { code, out, err } = await cli([...GPT3, ...flags]);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toMatch(REFUSED);
    expect(err.startsWith(`trainplan: ${said}: `)).toBe(true);
  });

  it('--candidate-budget counts estimates beside a price: the answer is the request\'s candidateBudget', async () => {
    const { code, out } = await cli([...LLAMA, '--tokens', '1T', '--price', '2', '--candidate-budget', '1', '--json']);
    // One estimate finds no plan that fits here: exit 1, budget-exhausted, after exactly the count given.
    expect(code).toBe(1);
    expect(JSON.parse(out)).toMatchObject({ ok: false, reason: 'budget-exhausted', fullEstimates: 1, budgetExhausted: true });
  });

  it('--budget without a price still counts estimates, as --candidate-budget does, and is said by that name', async () => {
    const old = await cli([...LLAMA, '--budget', '1']);
    const renamed = await cli([...LLAMA, '--candidate-budget', '1']);
    expect(old).toEqual(renamed);
    expect(old.code).toBe(1);
    expect(old.out).toContain('raise --candidate-budget above 1 to search further');
  });

  it('both names at once are refused: neither silently wins', async () => {
    const { code, err } = await cli([...LLAMA, '--budget', '5', '--candidate-budget', '5']);
    expect(code).toBe(2);
    expect(err).toMatch(/^trainplan: give --candidate-budget or --budget \(its old name on search\), not both \(usage: /);
  });

  it('a bad count is named as --candidate-budget, with the forms a count takes (not the money forms of nodes\' --budget)', async () => {
    const { code, err } = await cli([...LLAMA, '--budget', 'many']);
    expect(code).toBe(2);
    expect(err).toBe('trainplan: --candidate-budget: expected an integer from 1 to 100,000,000, got "many" (write 1536, 1,536, 2e12, or with k, M, B or T: 300B; see trainplan --help)\n');
  });

  it('--help names --candidate-budget, says --budget is its old name and where a money budget goes', async () => {
    const help = (await cli(['search', '--help'])).out.replace(/\s+/g, ' ');
    expect(help).toContain('--candidate-budget N at most N full estimates (default 100,000).');
    expect(help).toContain('--budget N its old name, a count too; refused beside --price or --objective cost, where it would read as money: '
      + 'a budget in money is trainplan nodes --budget M --price P');
    expect(help).toContain('or --candidate-budget ran out before a plan that fits was estimated');
  });

  it('--budget beside --input is still refused as a flag the request carries', async () => {
    const { code, err } = await cli(['search', '--input', 'r.json', '--budget', '5']);
    expect(code).toBe(2);
    expect(err).toMatch(/^trainplan: --input carries the whole request: drop --budget /);
  });
});
