import type { FlagSpec, FlagValues } from '../flags.ts';
import { count, CURRENCY_SIGN } from '../search-flags.ts';

/**
 * `trainplan search --candidate-budget N`: at most N full estimates (the request's `candidateBudget`, named as the API
 * names it). Its old name, `--budget`, is money on `trainplan nodes` (`--budget M --price P`), so the one flag meant two
 * things (QA: `search … --tokens 300B --price 2 --budget 1M` read a million estimates and printed "cost 1,009,756", over
 * the $1M meant, without a word). `--budget` still counts estimates on search where it cannot be read as money: not
 * beside --price or --objective cost, which price the plan, and not with a currency sign.
 */
export const CANDIDATE_BUDGET_FLAGS: Record<string, FlagSpec> = {
  'candidate-budget': { type: 'string', valueName: 'a count of full estimates' },
  budget: { type: 'string', valueName: 'a count of full estimates (--candidate-budget)' },
};

/**
 * Both names, in the order search's REQUEST_FLAGS lists them: the flag locator names a request path by the last flag
 * listed that sets it, so the answer's `candidateBudget` ("raise candidateBudget above 1") is said as --candidate-budget
 * even where --budget gave it: the name that cannot be mistaken for money.
 */
export const CANDIDATE_BUDGET_REQUEST_FLAGS = ['budget', 'candidate-budget'] as const;

/** The request's candidateBudget from either name (candidateBudgetProblem refuses both at once), or undefined. */
export const candidateBudget = (v: FlagValues): number | string | undefined =>
  count(v, 'candidate-budget') ?? count(v, 'budget');

/** Where --budget would be read as money on search: the flags that price the plan, or a currency sign on its value. */
function moneyHint(v: FlagValues): string | undefined {
  if (v.price !== undefined) return 'with --price';
  if (v.objective === 'cost') return 'with --objective cost';
  return typeof v.budget === 'string' && CURRENCY_SIGN.test(v.budget) ? `given as money ('${v.budget}')` : undefined;
}

/** Why search's --budget is refused (read as money, or given beside --candidate-budget), or undefined. */
export function candidateBudgetProblem(v: FlagValues): string | undefined {
  if (v.budget === undefined) return undefined;
  if (v['candidate-budget'] !== undefined) return 'give --candidate-budget or --budget (its old name on search), not both';
  const hint = moneyHint(v);
  return hint === undefined ? undefined
    : `--budget ${hint}: on search, --budget counts full estimates, not money; give --candidate-budget N for that count, `
      + 'and for a budget in money use trainplan nodes --budget M --price P';
}

/** search --help's lines for the two names, descriptions from `column` on (search's layout). */
export function candidateBudgetHelp(column: number): string {
  const line = (flag: string, text: string) => `      ${flag}`.padEnd(column) + text;
  return [
    line('--candidate-budget N', 'at most N full estimates (default 100,000). If it runs out, the'),
    line('', 'best is the best of those estimated, not proven, and the report says so;'),
    line('', 'if none of them fits, the answer is budget-exhausted: raise N'),
    line('--budget N', 'its old name, a count too; refused beside --price or --objective cost,'),
    line('', 'where it would read as money: a budget in money is trainplan nodes'),
    line('', '--budget M --price P'),
  ].join('\n');
}
