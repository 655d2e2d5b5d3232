import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const priceReading = (q: ReturnType<typeof parse>): string | undefined => q.defaults.find((d) => d.field === 'pricePerGpuHour')?.text;
/** The question's "Not read" entries, phrase and why as one line each. */
const notRead = (q: ReturnType<typeof parse>): string[] => (q.notRead ?? []).map((n) => `${n.phrase} ${n.why}`);

describe('two prices: the one that names its unit is planned, the other said not read (QA: "$20 an hour" planned, "$2/GPU-hour" dropped)', () => {
  it.each([
    'serve Llama 3 70B at 20 requests/s on H100 for $20 an hour at $2/GPU-hour',
    'serve Llama 3 70B at 20 requests/s on H100 at $2/GPU-hour for $20 an hour',
  ])('"%s": two dollars a GPU-hour planned, twenty an hour said not read', (question) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.pricePerGpuHour).toBe(2);
    expect(q.stated.currency).toBe('$');
    // Never a total budget of $20 ("for $20").
    expect(q.stated.costBudget).toBeUndefined();
    const [line, ...rest] = notRead(q);
    expect(rest).toEqual([]);
    expect(line).toMatch(/^"\$20 an hour" one price a question/);
    expect(line).toContain('$2 per GPU-hour is planned');
    expect(line).toMatch(/hourly spend for the whole cluster/);
  });

  it('of two prices per GPU-hour, the first is planned and the second said not read', () => {
    const q = parse('how long to train llama3-70b on 2T tokens on 64 H100 at $2/GPU-hour or $3/GPU-hour');
    expect(q.stated.pricePerGpuHour).toBe(2);
    // Said as typed, in the "Not read" list (not the normalised lower case).
    expect(notRead(q)).toEqual(['"$3/GPU-hour" one price a question, and $2 per GPU-hour is planned']);
    expect(priceReading(q)).toBeUndefined();
  });

  it('one price alone is read as before, with nothing said not read', () => {
    const q = parse('serve Llama 3 70B at 20 requests/s on H100 at $2/GPU-hour');
    expect(q.stated.pricePerGpuHour).toBe(2);
    expect(priceReading(q)).toBeUndefined();
    expect(notRead(q)).toEqual([]);
  });
});

describe('a price not read is said with the GPU\'s name as "GPU", never the parser\'s marker', () => {
  it('"$3/H100-hour" beside "$2/GPU-hour" is said "$3/GPU-hour"', () => {
    const q = parse('how long to train llama3-70b on 2T tokens on 64 H100 at $2/GPU-hour or $3/H100-hour');
    expect(q.stated.pricePerGpuHour).toBe(2);
    expect(notRead(q)).toHaveLength(1);
    expect(notRead(q)[0]).toMatch(/^"\$3\/GPU-hour" one price a question/);
  });
});

describe('money beside a price read that is neither a price nor a budget is said not read, never dropped', () => {
  it('"with 5M GPU hours and $1M at $2/GPU-hour": the GPU-hour budget and the price planned, "$1M" said not read', () => {
    const q = parse('how many H100 nodes to train llama3-70b on 15T tokens with 5M GPU hours and $1M at $2/GPU-hour');
    expect([q.stated.gpuHours, q.stated.pricePerGpuHour, q.stated.costBudget]).toEqual([5e6, 2, undefined]);
    expect(notRead(q)).toEqual([expect.stringMatching(/^"\$1M" money neither a price nor a budget/)]);
    expect(q.problems).toEqual([]);
  });
});

describe('GPUs compared, a price each: each GPU at its own (QA: both at $1.5, "$2.5/hr" said not read)', () => {
  const question = 'which is cheaper for 13B: A100 at $1.5/hr or H100 at $2.5/hr';

  it('parse: the first GPU at the first price, the second at the second, nothing said not read', () => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject({ gpu: 'a100-80gb', pricePerGpuHour: 1.5, currency: '$', comparedGpus: [{ gpu: 'h100-sxm', pricePerGpuHour: 2.5 }] });
    expect(notRead(q)).toEqual([]);
    expect(q.defaults.map((d) => d.text)).toContain('each GPU at the price written beside it: A100 SXM4 80GB at $1.50/GPU-hour, H100 SXM5 80GB at $2.50/GPU-hour');
  });

  it('the GPUs in the order written take the prices in the order written ("H100 at $2.5/hr or A100 at $1.5/hr")', () => {
    expect(parse('which is cheaper for 13B: H100 at $2.5/hr or A100 at $1.5/hr').stated).toMatchObject({ gpu: 'h100-sxm', pricePerGpuHour: 2.5, comparedGpus: [{ gpu: 'a100-80gb', pricePerGpuHour: 1.5 }] });
  });

  it('more prices than GPUs, or two currencies: one price planned and the rest said not read, as before', () => {
    expect(notRead(parse('A100 vs H100 for 13B at $1.5/hr, $2.5/hr or $3/hr'))).toHaveLength(2);
    const currencies = parse('which is cheaper for 13B: A100 at $1.5/hr or H100 at €2.5/hr');
    expect(currencies.stated.comparedGpus).toEqual([{ gpu: 'h100-sxm' }]);
    expect(notRead(currencies)).toHaveLength(1);
  });

  it('the answer prices each GPU\'s GPU-hours at its own price, and says which costs less', () => {
    const a = ask(question, { publicUrl: null });
    const spend = (label: string): { hours: number; cost: number } => {
      const [, hours, hoursScale, cost, costScale] = /, ([\d.]+)([kM]) GPU-hours, \$([\d.]+)([kM])$/.exec(a.figures.find((f) => f.label === label)?.value ?? '') ?? [];
      const scale = (x: string | undefined): number => (x === 'M' ? 1e6 : 1e3);
      return { hours: Number(hours) * scale(hoursScale), cost: Number(cost) * scale(costScale) };
    };
    const a100 = spend('A100 SXM4 80GB');
    const h100 = spend('H100 SXM5 80GB');
    // By hand: cost = GPU-hours × the GPU's own price (to the three figures each is shown to).
    expect(a100.cost / a100.hours).toBeCloseTo(1.5, 1);
    expect(h100.cost / h100.hours).toBeCloseTo(2.5, 1);
    const cheaper = h100.cost < a100.cost ? 'H100 SXM5 80GB' : 'A100 SXM4 80GB';
    expect(a.headline).toMatch(new RegExp(`; cheaper: ${cheaper}, \\d+% less$`));
    expect(a.notes.some((n) => n.startsWith(`${cheaper} is the cheaper at the prices given`))).toBe(true);
    expect(a.notes.join(' ')).not.toMatch(/one price given|Not read/);
  });
});
