import type { EstimateOk } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { statedMfuNote } from '../src/answer/stated-mfu.ts';
import { parse } from '../src/parse.ts';

/** A plan on 8 nodes of 8 GPUs at 40% predicted MFU: 2 s a step, and 10 days for its tokens when `days` is given. */
function plan(days?: number): EstimateOk {
  return {
    mfu: 0.4, stepTimeSeconds: 2, resolved: { nodes: 8, gpusPerNode: 8, gpus: 64 },
    ...(days !== undefined && { timeToTrain: { days } }),
  } as unknown as EstimateOk;
}

describe('statedMfuNote: the same plan at the stated MFU (time scales as predicted / stated)', () => {
  // Worked by hand: 10 days at 40% is 10 × 0.4 / 0.5 = 8 days at 50%, and 10 × 0.4 / 0.25 = 16 days at 25%.
  it.each([
    [0.5, 30, 'You stated 50% MFU; the planner predicts 40.0% for this layout. At 50% MFU the same 8 nodes would take 8 days, within the 30-day deadline.'],
    // Past the deadline, the nodes that meet it at the stated MFU: 64 GPUs × 16 days / 14 days = 73.1 GPUs, in whole nodes of 8: 10.
    [0.25, 14, 'You stated 25% MFU; the planner predicts 40.0% for this layout. At 25% MFU the same 8 nodes would take 16 days, past the 14-day deadline. '
      + 'At 25% MFU the 14-day deadline needs 10 nodes (80 GPUs), if that MFU holds on them.'],
  ])('10 days at 40%% predicted, %d stated, a %d-day deadline', (mfu, deadlineDays, note) => {
    expect(statedMfuNote({ mfu, deadlineSeconds: deadlineDays * 86_400 }, plan(10))).toBe(note);
  });

  it('a plan with no token budget: 2 s a step at 40% is 1.6 s at 50%', () => {
    expect(statedMfuNote({ mfu: 0.5 }, plan())).toBe('You stated 50% MFU; the planner predicts 40.0% for this layout. At 50% MFU the same 8 nodes would take 1.60 s per step.');
  });

  it('the predicted MFU as stated: said to be the same, no other time', () => {
    expect(statedMfuNote({ mfu: 0.4 }, plan(10))).toBe('You stated 40% MFU; the planner predicts 40.0% for this layout, the same.');
  });
});

describe('parse: an MFU the question states', () => {
  it.each([
    ['how many nodes for 175B at 50% MFU', 0.5],
    ['how long to train 70B on 64 nodes assuming 45% mfu', 0.45],
    ['how long to train 70B on 64 nodes with an mfu of 0.4', 0.4],
    ['how long to train 70B on 64 nodes, mfu=0.35', 0.35],
    ['how long to train 70B on 64 nodes at 40 percent model flops utilization', 0.4],
    ['how long to train 70B on 64 nodes at mfu 100%', 1],
  ])('"%s" states an MFU of %d', (question, mfu) => {
    const q = parse(question);
    expect(q.stated.mfu).toBeCloseTo(mfu, 12);
    expect(q.problems).toEqual([]);
  });

  it.each([
    ['how many nodes for 175B at 150% MFU', 'an MFU of 150% is out of range: MFU is a share of the GPU\'s peak, above 0% and at most 100%'],
    ['how many nodes for 175B at 0% MFU', 'an MFU of 0% is out of range: MFU is a share of the GPU\'s peak, above 0% and at most 100%'],
    ['how many nodes for 175B with mfu of 40', 'an MFU of 40 is out of range: give a fraction above 0 and at most 1 (0.4) or a percentage (40%)'],
    ['how many nodes for 175B with mfu of -0.2', 'an MFU of -0.2 is out of range: give a fraction above 0 and at most 1 (0.4) or a percentage (40%)'],
  ])('"%s" is refused, naming the MFU', (question, problem) => {
    expect(parse(question).problems).toEqual([problem]);
  });

  it.each([
    ['mfu of llama3-8b on 8 h100 with tp 8', { gpus: 8 }],
    ['what mfu does gpt3-175b get on 64 nodes', { nodes: 64 }],
  ])('"%s" asks for an MFU and states none: its counts stay counts', (question, counts) => {
    const q = parse(question);
    expect(q.stated.mfu).toBeUndefined();
    expect(q.stated).toMatchObject(counts);
  });
});

describe('answer: a stated MFU is acknowledged, never planned from', () => {
  const stated = ask('how many nodes for 175B at 50% MFU');
  const plain = ask('how many nodes for 175B');

  it('plans exactly what the question without it plans (the physics stands)', () => {
    expect(stated.ok).toBe(true);
    expect(stated.scenario).toEqual(plain.scenario);
    expect(stated.mfu).toBe(plain.mfu);
  });

  it('says the stated and the predicted MFU, and the days the same nodes take at the stated one', () => {
    const note = stated.notes.find((n) => n.startsWith('You stated'));
    const predicted = `${(stated.mfu! * 100).toFixed(1)}%`;
    const nodes = stated.scenario!.cluster.nodes;
    expect(note).toMatch(new RegExp(`^You stated 50% MFU; the planner predicts ${predicted.replace('.', '\\.')} for this layout\\. At 50% MFU the same ${nodes} nodes would take [\\d.]+ days, within the 30-day deadline\\.$`));
  });

  it('says when the stated MFU would miss the deadline, and the nodes that meet it at that MFU', () => {
    const a = ask('how many nodes for 175B at 30% MFU');
    expect(a.notes.at(-1)).toMatch(/^You stated 30% MFU; .* would take [\d.]+ days, past the 30-day deadline\. At 30% MFU the 30-day deadline needs [\d,]+ nodes \([\d,]+ GPUs\), if that MFU holds on them\.$/);
  });

  it('QA: "… 2T tokens in 30 days at 40% MFU" on H100: the nodes the deadline needs at 40%, worked from the FLOPs', () => {
    const a = ask('how many H100 nodes to train llama3-70b on 2T tokens in 30 days at 40% MFU', { publicUrl: null });
    // By hand: Llama 3 70B's 4.81e11 model FLOPs a token (training-flops.test.ts) × 2T tokens = 9.63e23 FLOPs; at 40% of the
    // H100's 989 TFLOP/s dense BF16 peak over 30 days (2.592e6 s): 9.63e23 / (0.4 × 989e12 × 2.592e6) = 939 GPUs, 117.4
    // nodes of 8: 118 nodes (944 GPUs).
    const gpus = (4.81e11 * 2e12) / (0.4 * 989e12 * 30 * 86_400);
    expect(Math.ceil(gpus / 8)).toBe(118);
    const note = a.notes.find((n) => n.startsWith('You stated 40% MFU'));
    expect(note).toMatch(/past the 30-day deadline\. At 40% MFU the 30-day deadline needs 118 nodes \(944 GPUs\), if that MFU holds on them\.$/);
  });

  it('a fixed layout without a token budget gives the step time at the stated MFU', () => {
    const a = ask('step time of gpt3-175b on 64 nodes with tp 8 pp 8 at mfu of 0.4');
    expect(a.ok).toBe(true);
    const note = a.notes.find((n) => n.startsWith('You stated'));
    expect(note).toMatch(/^You stated 40% MFU; the planner predicts [\d.]+% for this layout\. At 40% MFU the same 64 nodes would take [\d.]+ s per step\.$/);
    const seconds = Number(/take ([\d.]+) s/.exec(note!)![1]);
    // Three significant figures of the step time at the stated MFU: within 0.5% of it.
    const atStated = a.stepTimeSeconds! * a.mfu! / 0.4;
    expect(Math.abs(seconds / atStated - 1)).toBeLessThan(0.005);
  });

  it('an answer with no plan still says the stated MFU was not used', () => {
    const a = ask('how long to train gpt3-175b on 1 node at 40% mfu');
    expect(a.ok).toBe(false);
    expect(a.notes).toContain('You stated 40% MFU; plans here take the MFU the planner predicts for each layout, not a stated one.');
  });
});
