import { describe, expect, it } from 'vitest';
import { describeCandidate, explainAlternatives, searchedSpace, searchPlans, simplerAlternative, VALIDATED_STEP_ERROR, type SearchBase } from '../src/index.ts';
import { gpt3Base, llama70bBase } from './fixtures.ts';

/** The best plan of the default space, and the best of it at CP 1 alone (a search of its own, no cutoff). */
function bests(base: SearchBase) {
  const best = searchPlans(base, { top: 1 }).top[0]!;
  const plain = searchPlans(base, { top: 1, constraints: { contextSizes: [1] } }).top[0]!;
  return { best, plain, gap: plain.estimate.stepTimeSeconds / best.estimate.stepTimeSeconds - 1 };
}

describe('simplerAlternative: the best plan without context parallelism, where it is within the planner\'s validated error', () => {
  // GPT-3 175B on 1,024 A100 at 2,048 tokens: the best plan splits each sequence over CP 2.
  const gpt3 = bests(gpt3Base);

  it('GPT-3 175B on 1,024 A100: the best runs CP 2, and the best CP 1 plan, within 5%, is named with its gap', () => {
    expect(gpt3.best.candidate.context).toBe(2);
    expect(gpt3.gap).toBeLessThanOrEqual(VALIDATED_STEP_ERROR);
    const s = simplerAlternative(gpt3Base, gpt3.best, searchedSpace(gpt3Base))!;
    expect(s.candidate.context).toBe(1);
    // The same plan and step as the CP 1 search's best: the cutoff prunes only plans beyond the error.
    expect(describeCandidate(s.candidate)).toBe(describeCandidate(gpt3.plain.candidate));
    expect(s.estimate.stepTimeSeconds).toBe(gpt3.plain.estimate.stepTimeSeconds);
    expect(s.slowdown).toBeCloseTo(gpt3.gap, 12);
    // On 2,048 tokens the line says what CP does to them and what the guide reserves it for.
    expect(s.why).toContain('1,024-token chunks');
    expect(s.why).toContain('8K+ tokens');
    expect(s.why).toContain(`${Math.round(gpt3.plain.estimate.tokensPerSecond).toLocaleString('en-US')} tokens/s`);
  });

  it('named up to the error and not past it: the same CP 1 plan against a best 4.9% and 5.1% faster', () => {
    const at = (gap: number) => ({ ...gpt3.best, estimate: { ...gpt3.best.estimate, stepTimeSeconds: gpt3.plain.estimate.stepTimeSeconds / (1 + gap) } });
    expect(simplerAlternative(gpt3Base, at(0.049), searchedSpace(gpt3Base))?.slowdown).toBeCloseTo(0.049, 9);
    expect(simplerAlternative(gpt3Base, at(0.051), searchedSpace(gpt3Base))).toBeUndefined();
  });

  it('Llama 2 70B at 4,096 tokens on 64 H100: the best CP 1 plan is more than 5% slower, so nothing is named', () => {
    const llama = bests(llama70bBase);
    expect(llama.best.candidate.context).toBeGreaterThan(1);
    expect(llama.gap).toBeGreaterThan(VALIDATED_STEP_ERROR);
    expect(simplerAlternative(llama70bBase, llama.best, searchedSpace(llama70bBase))).toBeUndefined();
  });

  it('nothing where the best runs CP 1, or where the request left CP 1 out of the space', () => {
    expect(simplerAlternative(gpt3Base, gpt3.plain, searchedSpace(gpt3Base))).toBeUndefined();
    const cp2 = { constraints: { contextSizes: [2] } };
    const best = searchPlans(gpt3Base, { top: 1, ...cp2 }).top[0]!;
    expect(simplerAlternative(gpt3Base, best, searchedSpace(gpt3Base, cp2))).toBeUndefined();
  });
});

describe('explainAlternatives lists the near-tie first', () => {
  const best = searchPlans(gpt3Base, { top: 1 }).top[0]!;
  const space = searchedSpace(gpt3Base);

  it('first, marked nearTie, ahead of a neighbour that loses by less', () => {
    const [first, ...rest] = explainAlternatives(gpt3Base, best, { space });
    const plain = simplerAlternative(gpt3Base, best, space)!;
    expect(first).toMatchObject({ change: 'without context parallelism', nearTie: true, slowdown: plain.slowdown, why: plain.why });
    expect(describeCandidate(first!.candidate)).toBe(describeCandidate(plain.candidate));
    // Ranked by slowdown alone it would not lead: some neighbour loses by less.
    expect(Math.min(...rest.flatMap((a) => (a.slowdown === undefined ? [] : [a.slowdown])))).toBeLessThan(plain.slowdown);
  });

  it('not after a search the candidate budget cut short, nor without the space searched', () => {
    expect(explainAlternatives(gpt3Base, best, { space, budgetExhausted: true }).some((a) => a.nearTie)).toBe(false);
    expect(explainAlternatives(gpt3Base, best).some((a) => a.nearTie)).toBe(false);
  });
});
