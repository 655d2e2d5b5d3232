import { days } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const options = { publicUrl: null } as const;

/** The GPU-hours asked of a serving question, said not answered, by the phrase as typed. */
/**
 * GPU-hours asked of hosting, with no word of training and no training figure but the span served, are a service's: a
 * serving question. QA: "how many GPU-hours to host llama3-70b" was planned as a 15T-token training run (5.47M GPU-hours),
 * and "… for a month" as one held to a 30-day deadline.
 */
describe('GPU-hours to host a model: a serving question', () => {
  it.each([
    ['how many GPU-hours to host llama3-70b', undefined],
    ['how many GPU-hours to host llama3-70b for a month', days(30)],
    ['how many gpu hours would it take to host llama3-70b on 8 h100 for a week', days(7)],
  ])('"%s"', (question, spanSeconds) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.stated.tokens).toBeUndefined();
    // The span is the time served, as the serving answer's span is ("for 3 months": serving-cost.ts).
    expect(q.stated.deadlineSeconds).toBe(spanSeconds);
    expect(q.defaults.map((d) => d.text)).toContainEqual(expect.stringMatching(/^read as serving \(inference\), from "(?:to )?host" with no training word/));
  });

  it('neighbours: training said, or a token budget, keep GPU-hours training\'s', () => {
    expect(parse('how many GPU-hours to train llama3-70b we host ourselves').intent).toBe('cheapest');
    expect(parse('how many GPU-hours to host llama3-70b on 2T tokens').intent).toBe('cheapest');
    // A chat model named is no hosting asked: the GPU-hours are still its training's.
    expect(parse('how many GPU-hours for a llama3-70b chat model').intent).toBe('cheapest');
  });
});

/**
 * GPU-hours asked of serving: the GPUs the service holds × the hours it is up (a month as 30 days: 720 hours), or an hour's
 * and a day's where no span is given, as a figure beside the replica whose GPUs it counts.
 */
describe('GPU-hours asked of serving: the GPUs held × the hours', () => {
  const figure = (question: string) => ask(question, options).figures.find((f) => f.label === 'GPU-hours')?.value;
  const gpusOf = (value: string | undefined) => Number(/(\d[\d,]*) GPUs?\b/.exec(value ?? '')?.[1]?.replace(/,/g, ''));

  it('over a span: one replica\'s GPUs × its hours', () => {
    const a = ask('how many GPU-hours to host llama3-70b for a month', options);
    const replicaGpus = gpusOf(a.figures.find((f) => f.label === 'Replica')?.value);
    expect(replicaGpus).toBeGreaterThan(0);
    const value = figure('how many GPU-hours to host llama3-70b for a month')!;
    // 30 days × 24 hours = 720 hours.
    expect(value).toBe(`${(replicaGpus * 720).toLocaleString('en-US')} for 30 days: one replica's ${replicaGpus} GPUs × 720 hours, busy or not`);
  });

  it('with a load: the GPUs the load takes × the span (a week, 168 hours)', () => {
    const a = ask('how many gpu hours to serve llama3-70b at 100 requests/s for a week', options);
    const loadGpus = (a.data as { best?: { load?: { gpus: number } } }).best?.load?.gpus;
    expect(loadGpus).toBeGreaterThan(0);
    expect(a.figures.find((f) => f.label === 'GPU-hours')?.value).toMatch(new RegExp(`^${(loadGpus! * 168).toLocaleString('en-US')} for 7 days: the ${loadGpus} GPUs the load takes × 168 hours`));
  });

  it('on GPUs named: all of them', () => {
    expect(figure('gpu hours to host llama3-8b on 8 h100 for 10 days')).toBe('1,920 for 10 days: the 8 GPUs named × 240 hours, busy or not');
  });

  it('with no span: an hour\'s and a day\'s, and how to get a total', () => {
    const value = figure('how many GPU-hours to host llama3-70b')!;
    const gpus = gpusOf(value);
    expect(value).toBe(`${gpus} an hour, ${(gpus * 24).toLocaleString('en-US')} a day: one replica's ${gpus} GPUs, busy or not (give a span, e.g. "for a month", for its total)`);
  });

  it('neighbours: a budget in GPU-hours is weighed by the serving answer, no figure; a serving question asking none has none', () => {
    expect(figure('serve llama3-70b for a month with 100k GPU-hours')).toBeUndefined();
    expect(figure('serve llama3-70b on 8 h100')).toBeUndefined();
    expect(figure('serve llama3-70b on 8 h100 at $2/GPU-hour')).toBeUndefined();
  });
});
