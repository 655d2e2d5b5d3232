import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const MILLION = 1_000_000;

describe('parse: a price per GPU-hour', () => {
  it.each([
    ['cheapest way to train 70B on 2T tokens at $2/GPU-hour', 2, '$'],
    ['how long to train gpt3-175b on 128 nodes at $2.50 per GPU hour', 2.5, '$'],
    ['how long to train gpt3-175b on 128 nodes at 2.5 USD per gpu-hour', 2.5, '$'],
    ['how long to train gpt3-175b on 128 nodes at 3 dollars an hour per GPU', 3, '$'],
    ['how long to train gpt3-175b on 128 nodes at €1.8/GPU-h', 1.8, '€'],
    ['how long to train gpt3-175b on 128 nodes at £2 per gpu per hour', 2, '£'],
    ['how long to train gpt3-175b on 128 nodes at 50 cents per GPU-hour', 0.5, '$'],
    ['how long to train gpt3-175b on 128 nodes at 2 per GPU-hour', 2, undefined],
  ])('"%s" states %s per GPU-hour (currency %s)', (question, price, currency) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.pricePerGpuHour).toBe(price);
    expect(q.stated.currency).toBe(currency);
  });

  it('an H100-hour is a GPU-hour of the GPU it names', () => {
    expect(parse('how long to train 70b on 64 nodes at $2/H100-hour').stated).toMatchObject({ gpu: 'h100-sxm', nodes: 64, pricePerGpuHour: 2 });
  });

  it('a node-hour is priced over the node\'s GPUs, and said so', () => {
    const q = parse('how long to train 70b on 64 DGX H100 at $98 per node-hour');
    expect(q.stated.pricePerGpuHour).toBe(98 / 8);
    expect(q.defaults.map((d) => d.text)).toContain('$98 per node-hour read as $12.25 per GPU-hour (over the node\'s 8 GPUs)');
  });

  it('"$2 an hour" with no unit is read as per GPU-hour, said so; "2 an hour" with no currency is no price', () => {
    const q = parse('how long to train 70b on 64 nodes at $2 an hour');
    expect(q.stated.pricePerGpuHour).toBe(2);
    expect(q.defaults.map((d) => d.text)).toContain('$2 an hour read as per GPU-hour (say "per node-hour" for a node\'s price)');
    expect(parse('how long to train 70b on 64 nodes at 2 an hour').stated.pricePerGpuHour).toBeUndefined();
  });

  it('an hour of no unit priced above any GPU-hour ("128 H100 nodes at $98/hr") is a node\'s, said so; $20 or less stays a GPU\'s', () => {
    const q = parse('cost to train llama3-70b on 2T tokens on 128 H100 nodes at $98/hr');
    expect(q.stated.pricePerGpuHour).toBe(98 / 8);
    expect(q.defaults.map((d) => d.text)).toContainEqual(expect.stringMatching(/^\$98 an hour read as a node's \(more than any GPU-hour lists at.*\): \$12\.25 per GPU-hour over its 8 GPUs/));
    expect(parse('cost to train llama3-70b on 2T tokens on 128 H100 nodes at $20/hr').stated.pricePerGpuHour).toBe(20);
    // Said per GPU-hour, a GPU's however dear.
    expect(parse('cost to train llama3-70b on 2T tokens on 128 H100 nodes at $98 per GPU-hour').stated.pricePerGpuHour).toBe(98);
  });

  it.each([
    // A budget, in money or GPU-hours, is no price, nor are token counts or sizes beside a price.
    ['how many nodes for 70b on a budget of 1.7M GPU-hours', { model: 'llama3-70b', gpuHours: 1.7 * MILLION }],
    ['how many nodes for 70b on 1.7M GPU-hours at $2/GPU-hour', { model: 'llama3-70b', gpuHours: 1.7 * MILLION, pricePerGpuHour: 2, currency: '$' }],
    ['cheapest way to train 8b on 2T tokens at $2/GPU-hour', { model: 'llama3-8b', tokens: 2e12, pricePerGpuHour: 2, currency: '$' }],
    ['how long to train 70b on 64 h100 at $2 per gpu-hour', { model: 'llama3-70b', gpu: 'h100-sxm', gpus: 64, pricePerGpuHour: 2, currency: '$' }],
  ])('"%s" reads %j', (question, stated) => {
    expect(parse(question).stated).toEqual(stated);
  });

  it.each([
    ['how many nodes for 70b with a $2M budget at $2/GPU-hour', { model: 'llama3-70b', costBudget: 2 * MILLION, pricePerGpuHour: 2, currency: '$' }],
    ['how many nodes for 70b on 2T tokens with a budget of $1.5 million at $2/gpu-hour', { model: 'llama3-70b', tokens: 2e12, costBudget: 1.5 * MILLION, pricePerGpuHour: 2, currency: '$' }],
    ['how many nodes for 70b with 500k euros at €2 per GPU-hour', { model: 'llama3-70b', costBudget: 500_000, pricePerGpuHour: 2, currency: '€' }],
  ])('a budget in money: "%s" reads %j, a nodes question with no deadline assumed', (question, stated) => {
    const q = parse(question);
    expect(q.stated).toEqual(stated);
    expect(q.intent).toBe('nodes');
    expect(q.parameters.deadlineSeconds).toBeUndefined();
  });

  it.each([
    ['how many nodes for 70b with a $2M budget', 'a budget of $2M needs a price per GPU-hour to plan against ("at $2/GPU-hour"), or give it in GPU-hours ("1.7M GPU-hours")'],
    ['how many nodes for 70b with 2 million dollars at €2/GPU-hour', 'the budget is in $ and the price in €: give both in one currency'],
    ['how long to train 70b on 64 nodes at $0/GPU-hour', 'a price of $0 per GPU-hour is out of range: give a price above 0 ("at $2/GPU-hour")'],
    ['how long to train 70b on 64 nodes at $5000 per GPU-hour', 'a price of $5000 per GPU-hour is out of range: at most 1,000 per GPU-hour (cloud prices are a few dollars)'],
    ['how long to train 70b on 64 nodes at $0 per node-hour', 'a price of $0 per node-hour is out of range: give a price above 0 ("at $2/GPU-hour")'],
    // A minus sign is the price's, refused as the CLI and the API refuse it (QA: "-$2" was read as $2), said once.
    ['how much does it cost to train llama3-8b on 1T tokens on 64 H100 at -$2/GPU-hour', 'a price of -$2 per GPU-hour is out of range: give a price above 0 ("at $2/GPU-hour")'],
    ['how long to train 70b on 64 nodes at $-2/GPU-hour', 'a price of -$2 per GPU-hour is out of range: give a price above 0 ("at $2/GPU-hour")'],
    ['how long to train 70b on 64 nodes at -2 usd per gpu hour', 'a price of -$2 per GPU-hour is out of range: give a price above 0 ("at $2/GPU-hour")'],
    ['how long to train 70b on 64 nodes at -€1.5 per GPU-hour', 'a price of -€1.50 per GPU-hour is out of range: give a price above 0 ("at $2/GPU-hour")'],
    ['how long to train llama3-8b on 64 h100 nodes at -$98 per node-hour', 'a price of -$98 per node-hour is out of range: give a price above 0 ("at $2/GPU-hour")'],
  ])('"%s" is refused with a problem saying what to give', (question, problem) => {
    expect(parse(question).problems).toEqual([problem]);
  });

  it('a hyphen between two prices is no minus: "$2-$3/GPU-hour" prices the second, the first said not read, as before', () => {
    const q = parse('how long to train 70b on 64 nodes at $2-$3/GPU-hour');
    expect(q.problems).toEqual([]);
    expect(q.stated.pricePerGpuHour).toBe(3);
    expect(q.notRead?.map((n) => n.phrase)).toEqual(['"$2"']);
  });

  it('a negative price is refused by the answer, never costed', () => {
    const a = ask('how much does it cost to train llama3-8b on 1T tokens on 64 H100 at -$2/GPU-hour');
    expect(a.kind).toBe('refusal');
    expect(a.headline).toContain('a price of -$2 per GPU-hour is out of range');
  });
});

describe('parse: a price with its currency after the number', () => {
  it.each([
    ['cost to train llama3 70b on 2T tokens at 2.5 $/gpu-hour on h100', 2.5, '$'],
    ['how many nodes for 175B in 30 days on 300B tokens at 2 $ per gpu hour', 2, '$'],
    ['how long to train gpt3-175b on 128 nodes at 2 € per gpu-hour', 2, '€'],
    ['how long to train gpt3-175b on 128 nodes at 1.5£/GPU-h', 1.5, '£'],
  ])('"%s" states %s per GPU-hour (currency %s)', (question, price, currency) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.pricePerGpuHour).toBe(price);
    expect(q.stated.currency).toBe(currency);
  });

  it('"2.5$/h", an hour of no named unit, is read as per GPU-hour and said so, as "$2.50 an hour" is', () => {
    const q = parse('how long to train gpt3-175b on 128 nodes at 2.5$/h');
    expect(q.stated.pricePerGpuHour).toBe(2.5);
    expect(q.defaults.map((d) => d.text)).toContain('$2.50 an hour read as per GPU-hour (say "per node-hour" for a node\'s price)');
  });

  it('"is $1M enough" asks about a budget', () => {
    expect(parse('is $1M enough to train llama3 70b at $2/gpu-hour').stated).toMatchObject({ costBudget: 1_000_000, pricePerGpuHour: 2, currency: '$' });
  });
  it.each([
    ['I have $10M and H100s at $2/hour, how many nodes for llama3-70b on 15T tokens'],
    ['we\'ve got $10M, how many nodes for llama3-70b on 15T tokens at $2/gpu-hour'],
    ['how many nodes for llama3-70b on 15T tokens with H100s at $2/gpu-hour and $10M to spend'],
  ])('"%s": the money the asker has is the budget, beside the price', (question) => {
    const q = parse(question);
    expect(q.stated).toMatchObject({ costBudget: 10_000_000, pricePerGpuHour: 2, currency: '$' });
    expect(q.notRead ?? []).toEqual([]);
  });
  it('a budget with its currency after the amount ("a 2M € budget") is a budget', () => {
    expect(parse('how many nodes for 70b with a 2M € budget at 2 €/gpu-hour').stated).toMatchObject({ costBudget: 2_000_000, pricePerGpuHour: 2, currency: '€' });
  });
});

describe('a price-like phrase that cannot be read is said back, never dropped', () => {
  it.each([
    ['how long to train gpt3-175b on 128 nodes at 2 per hour', '2 per hour'],
    ['how long to train gpt3-175b on 128 nodes, $1M or so', '$1M'],
    ['how long to train gpt3-175b on 128 nodes at 3 dollars a gpu-month', '3 dollars'],
  ])('"%s" is refused naming "%s" and how to write a price', (question, phrase) => {
    const q = parse(question);
    expect(q.problems).toEqual([`"${phrase}" looks like a price or an amount of money, but I could not read it: write a price as "at $2/GPU-hour" (or "$98 per node-hour"), a budget as "a $2M budget"`]);
    expect(ask(question).kind).toBe('refusal');
  });

  it.each([
    'how long to train gpt3-175b on 128 nodes',
    'serve llama3-8b at 1000 requests per hour',
    'how many tokens per hour can 1024 h100 train for llama 3 70b',
  ])('"%s", with no money in it, has no such problem', (question) => {
    expect(parse(question).problems).toEqual([]);
  });
});

describe('a money budget with no price beside a deadline: the deadline answered, the budget said not weighed', () => {
  // QA: "… in 30 days, budget 3M dollars" refused the whole question ("a budget of $3M needs a price per GPU-hour").
  const question = 'how many h100 nodes to train llama3-70b on 2T tokens in 30 days, budget 3M dollars';
  const why = 'not weighed: a budget in money needs a price per GPU-hour to become GPU-hours; add one ("at $2/GPU-hour"), or give the budget in GPU-hours ("1.7M GPU-hours")';

  it('parse: no problem, no budget planned, the deadline read, the budget said not read as typed', () => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.costBudget).toBeUndefined();
    expect(q.stated.deadlineSeconds).toBe(30 * 86_400);
    expect(q.notRead).toEqual([{ phrase: '"budget 3M dollars"', why }]);
  });

  it('the answer is the deadline\'s plan, within 30 days, with the budget\'s note and no verdict on it', () => {
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(/^Llama 3 70B on H100 SXM5 80GB: [\d,]+ nodes \([\d,]+ GPUs\) train 2\.00T tokens in [\d.]+ days \(deadline 30 days\)$/);
    expect(a.notes).toContain(`Not read: "budget 3M dollars" (${why}).`);
  });

  it('beside a GPU-hour budget too; alone it is the question\'s only goal, and still refused for want of a price', () => {
    expect(parse('how many nodes for llama3-8b on 1T tokens with 50k GPU-hours and a $2M budget').notRead?.map((n) => n.phrase)).toEqual(['"a $2M budget"']);
    expect(parse('how many nodes for 70b with a $2M budget').problems).toEqual(['a budget of $2M needs a price per GPU-hour to plan against ("at $2/GPU-hour"), or give it in GPU-hours ("1.7M GPU-hours")']);
  });
});
