import { describe, expect, it } from 'vitest';
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
