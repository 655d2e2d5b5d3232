import { describe, expect, it } from 'vitest';
import { runEstimate, type ScenarioInput, type EstimateJson } from '@trainplan/protocol';
import { formatBytes } from '@trainplan/units';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/**
 * The pipeline schedule a question names is planned (lexicon/pipeline-schedule.ts). QA: "… with gpipe schedule" answered
 * "fits (38.8 GiB)" under 1F1B, where the API with schedule "gpipe" on the bot's own scenario needs 201 GiB.
 */
const BASE = 'how long to train llama3-70b on 2T tokens on 64 H100 nodes with tp 8 pp 4';
const SEARCHED = 'how long to train llama3-8b on 1T tokens on 4 H100 nodes';

describe('a stated layout takes the schedule named', () => {
  it.each([
    ['with gpipe schedule', 'gpipe'], ['using GPipe', 'gpipe'], ['schedule=gpipe', 'gpipe'], ['all-forward-all-backward', 'gpipe'],
    ['with 1f1b', '1f1b'], ['1F1B schedule', '1f1b'], ['with the interleaved schedule vp 2', 'interleaved'], ['interleaved 1f1b, vp 2', 'interleaved'],
  ])('"%s" is schedule %s, no count read from its digits', (phrase, schedule) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.stated.schedule).toBe(schedule);
    expect(q.stated).toMatchObject({ tensor: 8, pipeline: 4, nodes: 64 });
    expect(q.notRead ?? []).toEqual([]);
  });

  it('GPipe: out of memory as the API says it for the same scenario with schedule "gpipe", never "fits" under 1F1B', () => {
    const a = ask(`${BASE} with gpipe schedule`, { publicUrl: null });
    expect(a.scenario?.parallelism?.schedule).toBe('gpipe');
    const own = ask(BASE, { publicUrl: null }).scenario as ScenarioInput;
    const api = runEstimate({ ...own, parallelism: { ...own.parallelism, schedule: 'gpipe' } }) as EstimateJson;
    expect(api.ok).toBe(false);
    expect(a.ok).toBe(false);
    expect(a.headline).toContain(`does not fit: needs ${formatBytes(api.ok ? 0 : api.neededBytes ?? 0)} per GPU`);
  });

  it('interleaved with its chunks: the plan runs them, as "vp 2" alone does; "interleaved 2" stays the chunks\' count', () => {
    const a = ask(`${BASE} with the interleaved schedule vp 2`, { publicUrl: null });
    expect(a.scenario?.parallelism).toMatchObject({ schedule: 'interleaved', virtualStages: 2 });
    expect(a.stepTimeSeconds).toBe(ask(`${BASE} vp 2`, { publicUrl: null }).stepTimeSeconds);
    expect(parse(`${BASE} interleaved 2`).stated).toMatchObject({ virtualStages: 2 });
  });

  it('interleaved with no chunks said: said not read (its count is the asker\'s to give), planned 1F1B', () => {
    const q = parse(`${BASE} with interleaved schedule`);
    expect(q.stated.schedule).toBeUndefined();
    expect(q.notRead).toEqual([{ phrase: '"with interleaved schedule"', why: 'the interleaved schedule needs its model chunks per stage: say them, e.g. "vp 2"; planned 1F1B' }]);
  });

  it('1F1B beside 2 chunks a stage contradicts them: the chunks are planned, the schedule said', () => {
    const q = parse(`${BASE} vp 2 with 1f1b`);
    expect(q.stated).toMatchObject({ virtualStages: 2 });
    expect(q.stated.schedule).toBeUndefined();
    expect(q.notRead?.[0]).toMatchObject({ phrase: '"with 1f1b"', why: expect.stringMatching(/^contradicts the 2 model chunks per stage asked/) });
  });

});

describe('a search holds the schedule named, or says why it cannot', () => {
  /** The parallelism of the plan the search answered. */
  const layout = (question: string): NonNullable<ScenarioInput['parallelism']> => {
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(true);
    return a.scenario?.parallelism ?? {};
  };
  it('interleaved: 2 chunks a stage or more, where the search alone picks one; 1F1B: one', () => {
    expect(layout(SEARCHED)).toMatchObject({ schedule: '1f1b', virtualStages: 1 });
    const interleaved = layout(`${SEARCHED} with the interleaved schedule`);
    expect(interleaved.schedule).toBe('interleaved');
    expect(interleaved.virtualStages).toBeGreaterThan(1);
  });
  it('1F1B: one chunk a stage, where the search alone interleaves', () => {
    const onNodes = 'how long to train llama3-70b on 2T tokens on 64 H100 nodes';
    expect(layout(onNodes).virtualStages).toBeGreaterThan(1);
    expect(layout(`${onNodes} with 1f1b schedule`)).toMatchObject({ schedule: '1f1b', virtualStages: 1 });
  });
  it('GPipe is said not searched, with how to plan it', () => {
    const q = parse(`${SEARCHED} with gpipe`);
    expect(q.stated.schedule).toBeUndefined();
    expect(q.notRead).toEqual([{ phrase: '"with gpipe"', why: expect.stringMatching(/^the search tries 1F1B and the interleaved schedule, never GPipe.*"tp 8 pp 4 with gpipe"/) }]);
  });
});
