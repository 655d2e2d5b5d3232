import { describe, expect, it } from 'vitest';
import { runEstimate, type EstimateOk, type ScenarioInput, type EstimateJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/**
 * The overlaps a question turns on are planned, as the API plans them on the bot's own scenario (lexicon/comm-overlap.ts).
 * QA: "… with tp 8 pp 4 and tp comm overlap" answered 61.7 days at 11.2 s a step with nothing said, where the API with
 * overlapTensorParallelComm on that scenario gives 8.68 s and 47.9 days.
 */
const BASE = 'how long to train llama3-70b on 2T tokens on 64 H100 nodes with tp 8 pp 4';

/** The API's estimate of the bot's scenario for BASE with `parallelism` added: what the answer with the phrase must equal. */
function apiWith(parallelism: Record<string, unknown>): EstimateOk {
  const scenario = ask(BASE, { publicUrl: null }).scenario as ScenarioInput;
  const result = runEstimate({ ...scenario, parallelism: { ...scenario.parallelism, ...parallelism } }) as EstimateJson;
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe('tensor-parallel communication overlap is planned', () => {
  it.each([
    'and tp comm overlap', 'with tensor-parallel communication overlap', 'overlap tp comm', 'with TE comm overlap', '--tp-comm-overlap',
    'tp_comm_overlap', 'overlapping the tensor parallel collectives',
  ])('"%s" sets overlapTensorParallelComm beside TP 8 · PP 4, read as before', (phrase) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.stated).toMatchObject({ overlapTensorParallelComm: true, tensor: 8, pipeline: 4, nodes: 64 });
    expect(q.intent).toBe('time');
    expect(q.notRead ?? []).toEqual([]);
  });

  it("the answer's step and days are the API's with overlapTensorParallelComm on the same scenario, faster than without", () => {
    const without = ask(BASE, { publicUrl: null });
    const overlapped = ask(`${BASE} and tp comm overlap`, { publicUrl: null });
    const api = apiWith({ overlapTensorParallelComm: true });
    expect(overlapped.scenario?.parallelism?.overlapTensorParallelComm).toBe(true);
    expect(overlapped.stepTimeSeconds).toBe(api.stepTimeSeconds);
    expect((overlapped.data as EstimateOk).timeToTrain?.days).toBe(api.timeToTrain?.days);
    expect(overlapped.stepTimeSeconds).toBeLessThan(without.stepTimeSeconds ?? 0);
  });

  it('"without tp comm overlap" is the overlap off, said as such on the scenario', () => {
    const a = ask(`${BASE} without tp comm overlap`, { publicUrl: null });
    expect(a.scenario?.parallelism?.overlapTensorParallelComm).toBe(false);
    expect(a.stepTimeSeconds).toBe(ask(BASE, { publicUrl: null }).stepTimeSeconds);
  });
});

describe('the gradient reduction and pipeline sends overlapped, and scatter-gather, are planned', () => {
  it.each([
    ['overlap grad reduce', 'overlapGradReduce'],
    ['--overlap-grad-reduce', 'overlapGradReduce'],
    ['with overlapped gradient all-reduce', 'overlapGradReduce'],
    ['overlap param gather', 'overlapGradReduce'],
    ['overlap p2p comm', 'overlapPipelineComm'],
    ['with pipeline comm overlap', 'overlapPipelineComm'],
    ['with scatter-gather', 'scatterGather'],
    ['scatter/gather optimization', 'scatterGather'],
  ])('"%s" sets %s, and is no collective asked ("reduce", "gather")', (phrase, field) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.intent).toBe('time');
    expect(q.stated.op).toBeUndefined();
    expect(q.stated).toMatchObject({ [field]: true, tensor: 8, pipeline: 4 });
  });

  it("overlap grad reduce: the answer's step is the API's with overlapGradReduce, faster than without", () => {
    const a = ask(`${BASE} overlap grad reduce`, { publicUrl: null });
    expect(a.scenario?.parallelism?.overlapGradReduce).toBe(true);
    expect(a.stepTimeSeconds).toBe(apiWith({ overlapGradReduce: true }).stepTimeSeconds);
    expect(a.stepTimeSeconds).toBeLessThan(ask(BASE, { publicUrl: null }).stepTimeSeconds ?? 0);
  });

  it("overlapped pipeline sends on 1F1B: planned, and the planner's word that Megatron turns them off without interleaving is said", () => {
    const a = ask(`${BASE} overlap p2p comm`, { publicUrl: null });
    expect(a.scenario?.parallelism?.overlapPipelineComm).toBe(true);
    expect(a.notes).toEqual(apiWith({ overlapPipelineComm: true }).warnings.map((w) => expect.stringContaining(w.slice(0, 30))));
  });

  it('a search plans them too: the plan it answers carries the switches asked', () => {
    const a = ask('how long to train llama3-8b on 1T tokens on 4 H100 nodes with tp comm overlap and overlap grad reduce', { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.scenario?.parallelism).toMatchObject({ overlapTensorParallelComm: true, overlapGradReduce: true });
  });

  it('"with comm overlap", naming no communication, is said not read with the three to choose from', () => {
    const q = parse(`${BASE} with comm overlap`);
    expect(q.notRead).toEqual([expect.objectContaining({ phrase: '"with comm overlap"', why: expect.stringMatching(/^which communication is overlapped is not said: say "tp comm overlap"/) })]);
    expect(q.stated.overlapTensorParallelComm).toBeUndefined();
  });
});
