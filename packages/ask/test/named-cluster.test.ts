import { describe, expect, it } from 'vitest';
import type { NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { formatDays, nodesGpus } from '../src/format.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

/** The days the cluster's best plan takes, as "how long … on <cluster>" answers them. */
const daysOn = (question: string): number => (ask(question, { publicUrl: null }).data as NodesOk).days;

describe('"how many nodes" that also names a cluster says what the named cluster does, and what the deadline needs', () => {
  it('64 H100 that miss the 30 days: their time, said as missing it, then the nodes the deadline needs', () => {
    const a = ask('how many nodes to train 70b on 2T tokens in 30 days on 64 h100', { publicUrl: null });
    expect(a.intent).toBe('nodes');
    const needed = a.data as NodesOk;
    expect(needed.days).toBeLessThanOrEqual(30);
    const named = daysOn('how long to train 70b on 2T tokens on 64 h100');
    expect(named).toBeGreaterThan(30);
    expect(a.headline).toContain(`the 64 GPUs named (8 nodes) would take ${formatDays(named)}, not within the 30 days asked`);
    expect(a.headline).toContain(`the deadline needs ${nodesGpus(needed)}`);
    // The headline reads the named cluster first, the answer's figures are for the deadline's cluster: a note says so.
    expect(a.notes.some((n) => n.includes(`figures are for ${nodesGpus(needed)}`))).toBe(true);
  });

  it('64 H100 that meet the deadline: said within it, beside the fewest nodes that meet it', () => {
    const a = ask('how many nodes to train llama3 8b on 1T tokens in 30 days on 64 h100', { publicUrl: null });
    const needed = a.data as NodesOk;
    const named = daysOn('how long to train llama3 8b on 1T tokens on 64 h100');
    expect(named).toBeLessThanOrEqual(30);
    expect(a.headline).toContain(`the 64 GPUs named (8 nodes) train 1.00T tokens in ${formatDays(named)}, within the 30 days asked`);
    expect(a.headline).toContain(`the fewest that meet it: ${nodesGpus(needed)}`);
  });

  it('a cluster named in nodes is said in nodes ("16 nodes named (128 GPUs)")', () => {
    const a = ask('how many gpus to train 70b on 2T tokens in 30 days on 16 h100 nodes', { publicUrl: null });
    expect(a.headline).toContain('the 16 nodes named (128 GPUs) would take');
  });

  it('with no deadline stated the default one is held, said as assumed', () => {
    const a = ask('how many nodes to train 70b on 2T tokens on 64 h100', { publicUrl: null });
    expect(a.headline).toMatch(/the 64 GPUs named \(8 nodes\) would take [\d.,]+ days, not within the 30 days assumed/);
  });

  it('a nodes question naming no cluster is answered as before', () => {
    const a = ask('how many H100 nodes to train llama3-70b on 2T tokens in 30 days', { publicUrl: null });
    expect(a.headline).not.toMatch(/named/);
    expect(a.headline).toMatch(/^Llama 3 70B on H100 SXM5 80GB: \d+ nodes \([\d,]+ GPUs\) train 2\.00T tokens in [\d.]+ days \(deadline 30 days\)$/);
  });
});

describe('a named cluster the plan cannot use: said so, the deadline\'s nodes as if none were named', () => {
  it.each([
    ['how many nodes to train 70b on 2T tokens in 30 days on 12 h100', /the 12 GPUs named cannot be planned \(12 GPUs do not fill whole nodes of 8 GPUs: ask for 8 \(1 node\) or 16 \(2 nodes\)/],
    ['how many nodes to train 70b on 2T tokens in 30 days on 1 h100', /the 1 GPU named cannot train it \(/],
  ])('"%s" answers the nodes the deadline needs, as the question naming no cluster does', (question, why) => {
    const a = ask(question, { publicUrl: null });
    const unnamed = ask('how many h100 nodes to train 70b on 2T tokens in 30 days', { publicUrl: null }).data as NodesOk;
    // Not a batch shaped for the GPUs named (513 sequences for 12), which no size up to 8,192 nodes met the deadline with.
    expect(a.ok).toBe(true);
    expect((a.data as NodesOk).nodes).toBe(unnamed.nodes);
    expect(a.headline).toMatch(why);
    expect(a.headline).toContain(`the deadline needs ${nodesGpus(unnamed)}`);
  });
});

describe('a named cluster beside a goal no size meets: what the named cluster does, in a note', () => {
  it('"how many nodes to train 405b on 15T tokens in 10 days on 1024 h100": no size meets 10 days; the 1,024 GPUs\' own time is said', () => {
    const a = ask('how many nodes to train 405b on 15T tokens in 10 days on 1024 h100', { publicUrl: null });
    expect(a.ok).toBe(false);
    const named = daysOn('how long to train 405b on 15T tokens on 1024 h100');
    expect(named).toBeGreaterThan(10);
    expect(a.notes).toContainEqual(expect.stringMatching(new RegExp(`^The 1,024 GPUs named \\(128 nodes\\) would take ${formatDays(named).replace(/[().]/g, '\\$&')} and .* GPU-hours for the 15\\.0T tokens, not within the 10 days asked\\.$`)));
  });
});

describe('a named cluster that is itself the fewest that meet the deadline', () => {
  it('says no fewer nodes meet it, not the same cluster twice', () => {
    const fewest = (ask('how many h100 nodes to train llama3 8b on 1T tokens in 30 days', { publicUrl: null }).data as NodesOk).nodes;
    const a = ask(`how many nodes to train llama3 8b on 1T tokens in 30 days on ${fewest} h100 nodes`, { publicUrl: null });
    expect(a.headline).toMatch(new RegExp(`the ${fewest} nodes named \\(${fewest * 8} GPUs\\) train 1\\.00T tokens in [\\d.]+ days, within the 30 days asked; no fewer nodes meet it$`));
  });
});
