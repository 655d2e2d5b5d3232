import { describe, expect, it } from 'vitest';
import { runCollective, runEstimate, type CollectiveOkJson, type ScenarioInput, type EstimateJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/**
 * "Emulated" runs the discrete-event emulator (answer/collective-emulated.ts), as the CLI's collective --emulate does.
 * QA: "all-reduce 1 GB on 64 H100 emulated" answered the closed form with no note.
 */
describe('a collective asked emulated is emulated', () => {
  it.each(['all-reduce 1 GB on 64 H100 emulated', 'emulate an all-reduce of 1 GB on 64 H100', 'all-reduce 1 GB on 64 H100 with the emulator'])('"%s"', (question) => {
    const q = parse(question);
    expect(q.intent).toBe('collective');
    expect(q.stated).toMatchObject({ emulate: true, op: 'all-reduce', bytes: 1e9, gpus: 64 });
    const a = ask(question, { publicUrl: null });
    const api = runCollective({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 8, gpusPerNode: 8, algorithm: 'auto', size: 1e9, emulate: true }) as CollectiveOkJson;
    const emulated = (a.data as CollectiveOkJson).rows[0]?.emulated;
    expect(emulated?.seconds).toBe(api.rows[0]?.emulated?.seconds);
    expect(a.headline).toMatch(/: [\d.]+ ms emulated, bus bandwidth [\d,]+ GB\/s \(closed form [\d.]+ ms, [\d,]+ GB\/s\)$/);
    expect(a.figures.map((f) => f.label)).toEqual(expect.arrayContaining(['Emulated time', 'Emulated bus bandwidth', 'Bottleneck link']));
  });

  it('past the server\'s emulation cap (256 node-sizes), the closed form is answered and said so, with where it can be emulated; not asked, not emulated', () => {
    const a = ask('emulate an all-reduce of 1 GB on 4096 H100', { publicUrl: null });
    expect(a.ok).toBe(true);
    expect((a.data as CollectiveOkJson).rows[0]?.emulated).toBeUndefined();
    expect(a.notes[0]).toMatch(/^Not emulated, the closed form answered: emulating 1 size on 512 nodes .* over the limit of 256 .*"trainplan collective --emulate"/);
    // Not asked: the closed form alone.
    expect((ask('all-reduce 1 GB on 64 H100', { publicUrl: null }).data as CollectiveOkJson).rows[0]?.emulated).toBeUndefined();
  });

});

describe('a training plan asked emulated', () => {
  const BASE = 'how long to train llama3-8b on 1T tokens on 2 H100 nodes';
  it('a stated layout costs its collectives with the emulator: the API\'s emulated estimate of the same scenario', () => {
    const a = ask(`${BASE} with tp 8 emulated`, { publicUrl: null });
    expect(a.scenario?.cluster.communicationModel).toBe('emulated');
    const own = ask(`${BASE} with tp 8`, { publicUrl: null }).scenario as ScenarioInput;
    const api = runEstimate({ ...own, cluster: { ...own.cluster, communicationModel: 'emulated' } }) as EstimateJson;
    expect(api.ok && a.stepTimeSeconds).toBe(api.ok && api.stepTimeSeconds);
    expect(a.configuration).toContain(' · collectives emulated · ');
  });
  it('a search is said to cost them in closed form, with how to emulate', () => {
    const q = parse(`${BASE} emulated`);
    expect(q.stated.emulate).toBeUndefined();
    expect(q.notRead).toEqual([{ phrase: '"emulated"', why: expect.stringMatching(/^the search costs collectives by NCCL's closed form: state a layout/) }]);
  });
});
