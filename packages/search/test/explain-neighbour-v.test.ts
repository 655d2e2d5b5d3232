import { pipelineSplit, splitsIntoChunks } from '@trainplan/model';
import { checkPlan, estimatePlan, type PlanEstimate } from '@trainplan/planner';
import { describe, expect, it } from 'vitest';
import { explainAlternatives, planFor, searchedSpace, searchPlans, type Alternative, type Candidate, type SearchBase } from '../src/index.ts';
import { gpt3Base } from './fixtures.ts';

/** The alternatives to `best` on `base`, the best plan's own estimate standing for the search's. */
function alternatives(base: SearchBase, best: Candidate): Alternative[] {
  const estimate = estimatePlan(planFor(base, best));
  if (!estimate.ok) throw new Error(`the best plan must run: ${estimate.message}`);
  return explainAlternatives(base, { candidate: best, estimate: estimate as PlanEstimate }, { limit: 20 });
}

const byChange = (alts: Alternative[], prefix: string): Alternative => {
  const a = alts.find((x) => x.change.startsWith(prefix));
  if (!a) throw new Error(`no alternative "${prefix}…" among: ${alts.map((x) => x.change).join('; ')}`);
  return a;
};

/** The candidate's fields that differ from `best`'s. */
const changed = (best: Candidate, c: Candidate): string[] =>
  (Object.keys({ ...best, ...c }) as (keyof Candidate)[]).filter((k) => best[k] !== c[k]).sort();

// GPT-3 175B on 128 DGX A100 at 1,536 (the QA's repro): its best plan, TP 2 · PP 16 · CP 2 · DP 16 · v 6 · mbs 1.
const best: Candidate = {
  tensor: 2, pipeline: 16, context: 2, data: 16, virtualStages: 6, microBatchSize: 1, sequenceParallel: true, recompute: 'none', sharding: 'distributed-optimizer',
};

describe('a neighbour keeps the most model chunks (v) its new layout takes, and says the v where it changed', () => {
  it('PP 32 (3 layers a stage) runs v 3, not v 1, and the change says "v 3"', () => {
    // The premise: 96 layers over 32 stages are 3 a stage, which 6, 5 and 4 chunks do not split and 3 does.
    const split = pipelineSplit(gpt3Base.model.layers, 32)!;
    expect([6, 5, 4, 3].map((v) => splitsIntoChunks(split, v))).toEqual([false, false, false, true]);
    const pp32 = byChange(alternatives(gpt3Base, best), 'PP 32');
    expect(pp32.change).toBe('PP 32, v 3');
    expect(pp32.candidate).toEqual({ ...best, pipeline: 32, data: 8, virtualStages: 3 });
    // What the fix is for: the v 1 plan the line used to describe is another, slower plan (its bubble v times longer).
    const v1 = estimatePlan(planFor(gpt3Base, { ...pp32.candidate, virtualStages: 1 }));
    expect(v1.ok && pp32.estimate !== undefined).toBe(true);
    expect((v1 as PlanEstimate).stepTimeSeconds).toBeGreaterThan(pp32.estimate!.stepTimeSeconds);
  });

  it('a micro-batch neighbour keeps v where its micro-batches still come in whole rounds, and drops it, saying so, where not', () => {
    // mbs 2 on DP 16: 1,536 / 32 = 48 micro-batches, 3 rounds of 16 stages. mbs 4: 24, not whole rounds; mbs 1: 96, 6 rounds.
    // (Full recompute, so that mbs 2 fits.)
    const mbs2: Candidate = { ...best, microBatchSize: 2, recompute: 'full' };
    const alts = alternatives(gpt3Base, mbs2);
    const up = byChange(alts, 'micro-batch 4');
    expect(up.change).toBe('micro-batch 4 (no interleaving)');
    expect(up.candidate).toEqual({ ...mbs2, microBatchSize: 4, virtualStages: 1 });
    const down = byChange(alts, 'micro-batch 1');
    expect(down.change).toBe('micro-batch 1');
    expect(down.candidate).toEqual({ ...mbs2, microBatchSize: 1 });
  });

  it('every neighbour changes what its line says and nothing else', () => {
    // Each label's own fields: the dimension moved (DP follows from TP, PP and CP), and v where the line names it.
    const own = (change: string): string[] => {
      const moved = /^TP /.test(change) ? ['tensor', 'data', 'sequenceParallel'] : /^PP /.test(change) ? ['pipeline', 'data']
        : /^CP /.test(change) ? ['context', 'data'] : /^micro-batch /.test(change) ? ['microBatchSize']
        : /interleav/.test(change) ? ['virtualStages'] : /recompute/.test(change) ? ['recompute', 'recomputeLayers']
        : /sequence parallelism/.test(change) ? ['sequenceParallel'] : /distributed optimizer/.test(change) ? ['sharding'] : ['pipelineSlots'];
      return /, v \d+|\(no interleaving\)/.test(change) ? [...moved, 'virtualStages'] : moved;
    };
    for (const [nodes, batch] of [[128, 1536], [512, 64], [128, 4096]] as const) {
      const base = { ...gpt3Base, nodes, globalBatchSize: batch };
      const top = searchPlans(base, { top: 1 }).top[0]!;
      for (const a of explainAlternatives(base, top, { limit: 20, space: searchedSpace(base) })) {
        if (a.nearTie) continue;
        const extra = changed(top.candidate, a.candidate).filter((k) => !own(a.change).includes(k));
        expect(extra, `${nodes} nodes, batch ${batch}: ${a.why}`).toEqual([]);
        const v = /, v (\d+)/.exec(a.change)?.[1];
        if (v !== undefined) expect(a.candidate.virtualStages).toBe(Number(v));
        if (a.change.includes('(no interleaving)')) expect(a.candidate.virtualStages).toBe(1);
        // A v below the best's only where none between runs that layout (Megatron's rules: checkPlan).
        if (/interleav/.test(a.change) && !/\(no interleaving\)/.test(a.change)) continue;
        for (let w = a.candidate.virtualStages + 1; w <= top.candidate.virtualStages; w++) {
          expect(checkPlan(planFor(base, { ...a.candidate, virtualStages: w })), `${a.why}: v ${w}`).not.toEqual([]);
        }
      }
    }
  });
});

describe('what grew: "mostly" only for a part that is at least half the step\'s increase', () => {
  const parts = ['computeSeconds', 'tensorParallelCommSeconds', 'pipelineBubbleSeconds', 'pipelineCommSeconds', 'dataParallelCommSeconds',
    'contextParallelCommSeconds', 'optimizerSeconds'] as const;
  const names: Record<(typeof parts)[number], string> = {
    computeSeconds: 'compute', tensorParallelCommSeconds: 'tensor-parallel communication', pipelineBubbleSeconds: 'pipeline bubble',
    pipelineCommSeconds: 'pipeline sends', dataParallelCommSeconds: 'exposed data-parallel communication',
    contextParallelCommSeconds: 'context-parallel communication', optimizerSeconds: 'optimizer step',
  };

  it('says "mostly X" where X is half the increase or more, else "largest:" with the two parts that grew most, in that order', () => {
    // GPT-3 175B on 512 DGX A100 at 64: full recompute adds compute and tensor-parallel communication, neither half alone (QA).
    const base = { ...gpt3Base, nodes: 512, globalBatchSize: 64 };
    const top = searchPlans(base, { top: 1 }).top[0]!;
    const seen = { mostly: 0, largest: 0 };
    for (const a of explainAlternatives(base, top, { limit: 20 })) {
      if (a.estimate === undefined || a.slowdown === undefined || a.slowdown <= 0) continue;
      const increase = a.estimate.stepTimeSeconds - top.estimate.stepTimeSeconds;
      const grown = parts.map((k) => ({ name: names[k], delta: a.estimate!.breakdown[k] - top.estimate.breakdown[k] })).sort((x, y) => y.delta - x.delta);
      const mostly = /, mostly (?:[+−][\d.<]+% )?(.+) \([+−].+ per step\)$/.exec(a.why);
      const largest = /, largest: [+−][\d.]+ \S+ (.+), [+−][\d.]+ \S+ (.+) per step$/.exec(a.why);
      if (mostly) {
        seen.mostly += 1;
        expect(mostly[1], a.why).toBe(grown[0]!.name);
        expect(grown[0]!.delta, a.why).toBeGreaterThanOrEqual(0.5 * increase);
      } else {
        expect(largest, a.why).not.toBeNull();
        seen.largest += 1;
        expect([largest![1], largest![2]], a.why).toEqual([grown[0]!.name, grown[1]!.name]);
        expect(grown[0]!.delta, a.why).toBeLessThan(0.5 * increase);
      }
    }
    // Both cases occur here.
    expect(seen.mostly).toBeGreaterThan(0);
    expect(seen.largest).toBeGreaterThan(0);
    expect(explainAlternatives(base, top, { limit: 20 }).find((a) => a.change === 'full recompute')!.why).toMatch(/, largest: \+[\d.]+ ms compute, \+[\d.]+ ms tensor-parallel communication per step$/);
  });
});

describe('a neighbour that cannot run and that the constraints leave out says both', () => {
  it('TP 4 out of memory under --tensor 8 is said to be outside the space searched too', () => {
    const base = { ...gpt3Base, nodes: 64 };
    const constraints = { tensorSizes: [8] };
    const top = searchPlans(base, { top: 1, constraints }).top[0]!;
    const alts = explainAlternatives(base, top, { limit: 20, space: searchedSpace(base, { constraints }) });
    const tp4 = byChange(alts, 'TP 4');
    expect(tp4.estimate).toBeUndefined();
    expect(tp4.why).toMatch(/^TP 4: needs [\d.]+ GiB per GPU.*; outside the space searched too \(the constraints rule it out\)$/);
    expect(tp4.outsideSpace).toBe(true);
    // One inside the space that cannot run is not said to be outside it.
    for (const a of alts.filter((x) => x.estimate === undefined && x.candidate.tensor === 8)) {
      expect(a.why).not.toContain('outside the space');
      expect(a.outsideSpace).toBeUndefined();
    }
  });
});
