import { parameterCount, type ModelShape } from '@trainplan/model';
import type { NodesResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { CHINCHILLA, countOf, HOUR, near, ROUNDING, SIX } from './support/compute-optimal.ts';
import { ask } from '../src/answer/answer.ts';
import type { Answer } from '../src/answer/answer-types.ts';
import { flopBudgetOf } from '../src/lexicon/flop-budget.ts';
import { normalize, parse } from '../src/parse.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

const OPTIONS = { publicUrl: null };


/**
 * A compute given in FLOPs sizes the model directly: N = √(C / 120), D = 20·N (Hoffmann et al. 2022, Table 3 lists 5.76e23
 * FLOPs for 67B on 1.5T tokens). QA: "what can I train with 5.76e23 FLOPs on H100" returned the H100's datasheet.
 */
describe('"what can I train with 5.76e23 FLOPs on H100": the size from the compute, then its cheapest plan', () => {
  const C = 5.76e23;
  const question = 'what can I train with 5.76e23 FLOPs on H100';
  let asked: Answer | undefined;
  const answered = (): Answer => (asked ??= ask(question, OPTIONS));

  it('the closed form from the compute given, and the decoder nearest it planned on those tokens', () => {
    const a = answered();
    expect(a.kind).toBe('answer');
    const data = a.data as NodesOk;
    expect(data.ok).toBe(true);
    const n = Math.sqrt(C / (SIX * CHINCHILLA));
    const d = CHINCHILLA * n;
    // The plan trains the D tokens of the closed form, whole.
    expect(data.tokens).toBe(Math.round(d));
    // The model planned is the decoder nearest N: within half a layer of it.
    // The custom decoder planned, its whole shape sent (a preset would be sent by its id).
    expect(typeof a.scenario?.model).toBe('object');
    const shape = a.scenario!.model as ModelShape;
    const layer = parameterCount(shape) - parameterCount({ ...shape, layers: shape.layers - 1 });
    const planned = data.configuration.estimate.parameters;
    expect(Math.abs(planned - n)).toBeLessThanOrEqual(layer / 2);
    // The headline names that model and those tokens, for the compute given; the cheapest plan on the H100 after it.
    const m = /^About an? ([\d.]+[kMBT]) Llama 3-style model on ([\d.]+[kMBT]) tokens for ([\d.]+e\d+) FLOPs \(20 tokens per parameter, Chinchilla\); cheapest on H100 SXM5 80GB: /.exec(a.headline);
    expect(m, a.headline).not.toBeNull();
    expect(near(countOf(m![1]!), planned, ROUNDING)).toBe(true);
    expect(near(countOf(m![2]!), data.tokens, ROUNDING)).toBe(true);
    expect(Number(m![3])).toBe(C);
    expect(data.configuration.estimate.resolved.gpu).toBe('h100-sxm');
    // The notes say the closed form, N and D of C to three figures.
    expect(a.notes[0]).toContain(`N = √(C / (6 × 20)) = ${(n / 1e9).toPrecision(3)}B, D = 20·N = ${(d / 1e12).toPrecision(3)}T`);
    // Never the GPU's datasheet.
    expect(a.figures.some((f) => /^Peak /.test(f.label))).toBe(false);
  });

  it('the cheapest plan: the fewest GPU-hours of the time–cost curve it searched', () => {
    const data = answered().data as NodesOk & { frontier: { gpuHours: number }[] };
    expect(data.frontier.length).toBeGreaterThan(1);
    expect(data.gpuHours).toBe(Math.min(...data.frontier.map((f) => f.gpuHours)));
  });

  it('the plan\'s model FLOPs are said above 6ND by their share, MFU counting attention', () => {
    const a = answered();
    const data = a.data as NodesOk;
    const e = data.configuration.estimate;
    const modelFlops = data.gpuHours * HOUR * (e.peakTflopsPerGpu ?? 0) * 1e12 * e.mfu;
    const sixNd = SIX * e.parameters * data.tokens;
    expect(modelFlops).toBeGreaterThan(sixNd);
    const note = a.notes.find((t) => t.startsWith('The plan\'s model FLOPs are ')) ?? '';
    expect(note).toContain(`about ${Math.round((modelFlops / sixNd - 1) * 100)}% more than 6ND: MFU also counts attention over the sequence`);
  });
});

describe('a compute in FLOPs elsewhere', () => {
  it('"… with 1e24 flops on 256 H100": the cluster named is planned, its time to train the tokens', () => {
    const a = ask('what can I train with 1e24 flops on 256 H100', OPTIONS);
    const data = a.data as NodesOk;
    expect(data.ok).toBe(true);
    expect(data.gpus).toBe(256);
    expect(data.tokens).toBe(Math.round(CHINCHILLA * Math.sqrt(1e24 / (SIX * CHINCHILLA))));
    expect(a.headline).toMatch(/ for 1\.00e24 FLOPs \(20 tokens per parameter, Chinchilla\); on H100 SXM5 80GB: [\d.]+ days to train /);
  });

  it('beside a model named: said not read, never dropped unsaid nor a count', () => {
    const q = parse('how long to train llama3-70b with 6e23 FLOPs on 64 H100');
    expect(q.stated).toMatchObject({ model: 'llama3-70b', gpus: 64 });
    expect(q.notRead).toContainEqual(expect.objectContaining({ phrase: '"6.00e23 FLOPs"', why: expect.stringMatching(/^a compute in FLOPs sizes the compute-optimal model/) }));
  });

  it('neighbours: a rate is no compute; money in FLOPs is refused for its price, as before', () => {
    for (const rate of ['peak flops of h100', 'h100 989 tflops', '1e15 flops per second on h100', '2e15 flop/s']) expect(flopBudgetOf(normalize(rate)), rate).toBeUndefined();
    expect(ask('peak flops of h100', OPTIONS).headline).toMatch(/^H100 SXM5 80GB: peak /);
    const money = ask('what can I train with $1M in FLOPs', OPTIONS);
    expect(money.kind).toBe('refusal');
    expect(money.headline).toMatch(/^I could not size the compute-optimal model a budget trains: a budget of \$1M needs a price per GPU-hour/);
  });
});
