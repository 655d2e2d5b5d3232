import { describe, expect, it } from 'vitest';
import { costTimeFrontier, fastestWithinBudget, fewestNodes, MAX_NODES, trainOnNodes, type SearchBase } from '../src/index.ts';
import { smallBase } from './fixtures.ts';

/**
 * The 1.3B GPT at 65,536 sequences a step: one sequence per GPU on MAX_NODES (8,192 nodes of 8), so the time to train
 * keeps falling with the cluster up to the search's largest size and past it.
 */
const base: SearchBase = { ...smallBase, globalBatchSize: 65_536 };
const TOKENS = 1e12;
/** Naming the request's field, `nodes`, which the CLI says as its flag: no surface's flag syntax (QA: "ask --nodes N" in the API's and the bot's words). */
const EDGE = `the search's largest size is ${MAX_NODES.toLocaleString('en-US')} nodes; larger clusters may be faster: give nodes (the days on that many nodes) to plan one`;

describe('the search\'s largest size is said where the answer is at it', () => {
  it('a larger cluster than MAX_NODES is faster here (the premise: the search never tries it)', () => {
    const atMax = trainOnNodes(base, MAX_NODES, TOKENS)!;
    const beyond = trainOnNodes(base, 2 * MAX_NODES, TOKENS, { globalBatchFor: () => 2 * 65_536 });
    expect(beyond!.seconds).toBeLessThan(atMax.seconds);
  });

  it('fastestWithinBudget: an answer within 5% of MAX_NODES says so in its note', () => {
    const a = fastestWithinBudget(base, TOKENS, { gpuHourBudget: 1e9 });
    if (!a.ok) throw new Error(a.message);
    expect(a.nodes).toBeGreaterThanOrEqual(0.95 * MAX_NODES);
    expect(a.note).toContain(EDGE);
  });

  it('costTimeFrontier: a fastest within 5% of MAX_NODES says so in its note', () => {
    const f = costTimeFrontier(base, TOKENS);
    if (!f.ok) throw new Error(f.message);
    expect(f.fastest.nodes).toBeGreaterThanOrEqual(0.95 * MAX_NODES);
    expect(f.note).toBe(EDGE);
  });

  it('fewestNodes: a deadline no size meets, whose fastest is within 5% of MAX_NODES, says so in its message', () => {
    const atMax = trainOnNodes(base, MAX_NODES, TOKENS)!;
    // Half the time MAX_NODES takes: a larger cluster may meet it, none searched does.
    const a = fewestNodes(base, TOKENS, { deadlineSeconds: atMax.seconds / 2 });
    if (a.ok) throw new Error(`expected no answer, got ${a.nodes} nodes`);
    expect(a.reason).toBe('deadline-unreachable');
    expect(a.closest!.nodes).toBeGreaterThanOrEqual(0.95 * MAX_NODES);
    expect(a.message).toContain(`; ${EDGE}`);
  });

  it('an answer far below MAX_NODES says nothing of it (35 sequences: the fastest runs 35 replicas or fewer)', () => {
    const small = { ...smallBase, globalBatchSize: 35 };
    const a = fastestWithinBudget(small, 1e9, { gpuHourBudget: 1e6 });
    if (!a.ok) throw new Error(a.message);
    expect(a.nodes).toBeLessThan(0.95 * MAX_NODES);
    expect(a.note).not.toContain('largest size');
    const f = costTimeFrontier(small, 1e9);
    expect(f.ok && f.note).toBeUndefined();
  });
});
