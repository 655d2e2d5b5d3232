import { describe, expect, it } from 'vitest';
import { defaultBatch, defaultBatchNote, isComputedBatch } from '../src/defaults.ts';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

describe('defaultBatch: the default global batch carries why it is that size, from where it is chosen', () => {
  it.each([
    // 4 Mi tokens of 8192 = 512 sequences; 512 GPUs / 8 = 64 aims lower.
    [{ model: 'llama3-70b', nodes: 64 }, { sequences: 512, why: 'tokens' }],
    // 16,384 GPUs / 8 = 2048 sequences, above 512; a multiple of 16,384 / 64 = 256 (Dubey et al. 2024, Table 4).
    [{ model: 'llama3.1-405b', nodes: 2048 }, { sequences: 2048, why: 'cluster' }],
    // 5120 GPUs / 8 = 640, above 512 (5.24M tokens: grown for the cluster, though within 1.5x of 4M).
    [{ model: 'llama3-70b', nodes: 640 }, { sequences: 640, why: 'cluster' }],
    // 32,768 GPUs / 8 = 4,096 sequences of 8,192, past 16M tokens: held at 2^24 / 8,192 = 2,048, Table 4's 16M (step 512 divides it).
    [{ model: 'llama3-70b', nodes: 4096 }, { sequences: 2048, why: 'capped' }],
    // At 128k, 16M tokens are 128 sequences (Table 4's 128k row): QA's 3,584 GPUs / 8 = 448 (58.7M tokens) is held to 128,
    // and rounded to a multiple of the step 3,584 = 2^9 · 7 leaves with model parallelism up to 128 (the search tries CP 16
    // at 128k), 28: 140 = 5 · 28, within a tenth of 128.
    [{ model: 'llama3.1-405b', system: 'dgx-h100', seqLength: 131_072, nodes: 448 }, { sequences: 140, why: 'capped' }],
    // Meta's own 128k cluster, 16,384 H100: 128 sequences, as Table 4 (a multiple of 16,384 / 128; 64 would leave 256).
    [{ model: 'llama3.1-405b', system: 'dgx-h100', seqLength: 131_072, nodes: 2048 }, { sequences: 128, why: 'capped' }],
    // 4,032 GPUs = 2^6 · 63 leave a step of 63: 126 = 2 · 63 is within 10% of 128 (withTwos), 16.5M tokens.
    [{ model: 'llama3.1-405b', system: 'dgx-h100', seqLength: 131_072, nodes: 504 }, { sequences: 126, why: 'capped' }],
    // Below 16M tokens the cluster rule is as it was: 1,024 GPUs at 128k aim at 128 sequences, exactly 16M, not capped.
    [{ model: 'llama3.1-405b', system: 'dgx-h100', seqLength: 131_072, nodes: 128 }, { sequences: 128, why: 'cluster' }],
    // GB200 trays hold 4: 4100 GPUs leave model parallelism 4 and data parallelism 1025, twice the 512.5 aimed at.
    [{ model: 'llama3-70b', system: 'gb200-nvl72', gpu: 'gb200', nodes: 1025 }, { sequences: 1025, why: 'split', ranks: 1025 }],
    // No cluster, no published batch at the length asked (Llama 3 8B's source states none): 2048-token sequences, 2048 of them.
    [{ model: 'llama3-8b', seqLength: 2048 }, { sequences: 2048, why: 'tokens' }],
    // 2,240 GPUs leave DP 35 after model parallelism 64: 2,240 = 35 × 64 (9% above 4M tokens), not 2,065 = 35 × 59,
    // the nearest multiple of 35, which only data-parallel sizes dividing 35 × 59 split.
    [{ model: 'llama3-8b', seqLength: 2048, system: 'dgx-a100-80gb', nodes: 280 }, { sequences: 2240, why: 'tokens' }],
    // 1,000 GPUs leave DP 125: 2,000 = 125 × 16 is within 10% of 2,048; 125 × 32 = 4,000 is not.
    [{ model: 'llama3-8b', seqLength: 2048, nodes: 125 }, { sequences: 2000, why: 'tokens' }],
    // SC'21's models take their Table 1 batch (Narayanan et al. 2021): 529.6B's 2,520 on 2,240 GPUs too (DP 35 divides it).
    [{ model: 'megatron-529.6b', system: 'dgx-a100-80gb', nodes: 280 }, { sequences: 2520, why: 'published', published: 2520 }],
    // A model whose source states its batch takes it as it is, on any cluster: GPT-3 175B's 3.2M tokens (Brown et al.
    // 2020, Table 2.1) are 1,536 sequences, MT-NLG's 1,920 (Smith et al. 2022) on the 2,240 GPUs it trained on.
    [{ model: 'gpt3-175b' }, { sequences: 1536, why: 'published', published: 1536 }],
    // …unless no split of the GPUs divides it: on 1,000 GPUs (DP 8 at most leaves 125 = 5³ pipeline stages of 96 layers), the
    // nearest multiple of 500 some split divides, and the note says it is near the published batch.
    [{ model: 'gpt3-175b', nodes: 125 }, { sequences: 1500, why: 'published', published: 1536 }],
    // Llama 2 7B's 1,024 on 25 nodes of A100 (200 GPUs): DP divides gcd(1,024, 200) = 8 and leaves a replica of 25·2^k GPUs,
    // so a PP of 25 · (a power of two) with TP, CP powers of two: 32 layers have no Megatron split over 25 stages (⌈32/25⌉ = 2
    // on each of 23 middle stages is 46) and 50 or more exceed them. So the batch moves: 200 = 8 × 25, step 25; multiples of
    // 25 · 2^k within 10% of 1,024 go up to 200 (1,000), 400 would give 800. 1,000 runs at DP 200 (QA: 1,024 was kept).
    [{ model: 'llama2-7b', gpu: 'a100-80gb', nodes: 25 }, { sequences: 1000, why: 'published', published: 1024 }],
    [{ model: 'mt-nlg-530b', system: 'dgx-a100-80gb', nodes: 280 }, { sequences: 1920, why: 'published' }],
    // 3,601 nodes (28,808 GPUs = 8 × 13 × 277): no split divides 1,536, and the least one divides is a sequence on each of
    // 3,601 data-parallel ranks, more than 1.5 × 1,536; the published batch it replaces is carried to the note.
    [{ model: 'gpt3-175b', nodes: 3601 }, { sequences: 3601, why: 'split', ranks: 3601, instead: { model: 'GPT-3 175B', published: 1536 } }],
    // At another sequence length than the published one, the published batch does not apply: 4M tokens of 4,096.
    [{ model: 'gpt3-175b', seqLength: 4096 }, { sequences: 1024, why: 'tokens' }],
  ])('%j → %j', (p, expected) => {
    expect(defaultBatch(p)).toMatchObject(expected);
  });

  it('each reason has its sentence', () => {
    expect(defaultBatchNote({ sequences: 512, seqLength: 8192, why: 'tokens' })).toBe('global batch 512 sequences (about 4M tokens, as Llama 2 trained)');
    expect(defaultBatchNote({ sequences: 2240, seqLength: 2048, why: 'tokens' }))
      .toBe('global batch 2,240 sequences (4.59M tokens: about the 4M Llama 2 trained with, rounded so that more data-parallel sizes divide it)');
    expect(defaultBatchNote({ sequences: 640, seqLength: 8192, why: 'cluster' }))
      .toBe('global batch 640 sequences (5.24M tokens: one sequence per 8 GPUs, more than the usual 4M tokens on a cluster this large, as Llama 3 405B trained with 2,048 sequences on 16,384 H100s)');
    // Held at 2^24 tokens, said as the answers print it (16.8M; Table 4's "16M"), with its source; a rounding off it said
    // with its way and its share (QA: "up to 16M tokens a step" beside 16.6M, 16.8M and 18.4M).
    expect(defaultBatchNote({ sequences: 2048, seqLength: 8192, why: 'capped' }))
      .toBe('global batch 2,048 sequences (16.8M tokens: one sequence per 8 GPUs up to 16.8M tokens (2^24) a step, the "16M" every row of Llama 3 405B\'s '
        + 'Table 4 keeps on 16,384 H100s: 2,048 × 8,192 tokens at 8k, 128 × 131,072 at 128k)');
    // 128 − 112 = 16 of 128: 12.5% down; 2,250 − 2,048 = 202 of 2,048: 9.9% up, past the cap (2,250 nodes of H100).
    expect(defaultBatchNote({ sequences: 112, seqLength: 131_072, why: 'capped' }))
      .toMatch(/^global batch 112 sequences \(14\.7M tokens: one sequence per 8 GPUs up to 16\.8M tokens \(2\^24\) a step, .*; rounded down from the cap's 128 sequences by 13% so that data-parallel sizes of these GPUs divide it\)$/);
    expect(defaultBatchNote({ sequences: 2250, seqLength: 8192, why: 'capped' }))
      .toMatch(/^global batch 2,250 sequences \(18\.4M tokens: .*; rounded up past the cap's 2,048 sequences by 9\.9% so that data-parallel sizes of these GPUs divide it\)$/);
    expect(defaultBatchNote({ sequences: 4096, seqLength: 4096, why: 'layout', ranks: 4096 }))
      .toBe('global batch 4,096 sequences (16.8M tokens: one micro-batch on each of the 4,096 data-parallel ranks, the least this layout runs)');
    // Not "one sequence per 8 GPUs": 4100 GPUs / 8 is 512.5, and the batch is twice that.
    expect(defaultBatchNote({ sequences: 1025, seqLength: 8192, why: 'split', ranks: 1025 }))
      .toBe('global batch 1,025 sequences (8.40M tokens: one sequence on each of the 1,025 data-parallel ranks, the least some split of these GPUs divides)');
    // In place of a published batch no split divides, that batch is said beside it: (3,601 − 1,536) / 1,536 = 134% more.
    expect(defaultBatchNote({ sequences: 3601, seqLength: 2048, why: 'split', ranks: 3601, instead: { model: 'GPT-3 175B', published: 1536 } }))
      .toBe('global batch 3,601 sequences (7.37M tokens: one sequence on each of the 3,601 data-parallel ranks, the least some split of these GPUs divides; '
        + '134% more than GPT-3 175B\'s published 1,536 sequences, which no split of these GPUs divides)');
    // A published batch moved within 10% is "near" it; further, the move is said as one (QA: 2,030 was "near" 1,536).
    const published = { why: 'published' as const, model: 'GPT-3 175B', published: 1536 };
    expect(defaultBatchNote({ sequences: 1600, seqLength: 2048, ...published })).toContain("near GPT-3 175B's published 1,536 sequences");
    expect(defaultBatchNote({ sequences: 2030, seqLength: 2048, ...published }))
      .toBe("global batch 2,030 sequences (4.16M tokens: 32% more than GPT-3 175B's published 1,536 sequences, which no split of these GPUs divides)");
  });

  it('a fixed layout\'s default batch says the reason it was chosen with (5120 GPUs at TP 8: DP 640, one sequence per 8 GPUs)', () => {
    const q = parse('step time of llama3-70b on 640 h100 nodes with tp 8 pp 1');
    expect(q.parameters.globalBatchSize).toBe(640);
    expect(q.defaults.find((d) => d.field === 'globalBatchSize')?.text).toMatch(/^global batch 640 sequences \(5\.24M tokens: one sequence per 8 GPUs/);
  });

});

describe('a fixed layout\'s default tensor parallelism splits the model\'s heads', () => {
  it('GPT-3 Small\'s 12 heads go over 4 ranks, not 8 (which the planner refuses), and the answer says why', () => {
    const q = parse('memory for gpt3-125m');
    expect(q.parameters.tensor).toBe(4);
    expect(q.defaults.find((d) => d.field === 'tensor')?.text).toBe("tensor parallel 4 (the largest that splits the model's 12 attention heads evenly)");
  });

  it('heads that 8 divides keep one NVLink domain (GPT-3 175B\'s 96)', () => {
    const q = parse('memory for gpt3-175b');
    expect(q.parameters.tensor).toBe(8);
    expect(q.defaults.find((d) => d.field === 'tensor')?.text).toBe('tensor parallel 8 (one NVLink domain)');
  });
});

describe('a fixed layout takes the distributed optimizer only where it shards something', () => {
  it('one model replica (DP 1) takes none: no assumption contradicted by the planner\'s "with one, it shards nothing"', () => {
    const question = 'memory for llama 3 70b with tp 8 pp 4 on A100 80GB';
    const q = parse(question);
    expect(q.parameters.distributedOptimizer).toBeUndefined();
    expect(q.defaults.map((d) => d.field)).not.toContain('distributedOptimizer');
    expect(ask(question).notes.join(' ')).not.toMatch(/shards nothing/);
  });

  it('two replicas (DP 2 on 16 GPUs at TP 8) take it, said so', () => {
    const q = parse('memory for llama 3 70b with tp 8 on 16 h100');
    expect(q.parameters.distributedOptimizer).toBe(true);
    expect(q.defaults.map((d) => d.field)).toContain('distributedOptimizer');
  });
});

describe('a default computed from a bad value is not taken: the protocol refuses the value', () => {
  it.each([
    ['how long to train llama3-8b with tp 0', 'TP (tensor parallelism) must be at least 1'],
    ['how long to train llama3-8b on 0 nodes', 'the node count must be at least 1 node'],
    ['best config for gpt-3 175b on 0 nodes', 'the node count must be at least 1 node'],
    ['how long to train llama3-8b with sequence length 0', 'a sequence length must be at least 1 token'],
    ['how many nodes to train llama3-8b with a 4M token batch and sequence length 0', 'a sequence length must be at least 1 token'],
    ['memory of llama3-8b with tp 0', 'TP (tensor parallelism) must be at least 1'],
  ])('"%s": no global batch of NaN or Infinity among the assumptions, only "%s"', (question, refusal) => {
    const a = ask(question);
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(new RegExp(`: ${refusal.replace(/[()]/g, '\\$&')}$`));
    expect(a.assumptions.join(' ')).not.toMatch(/NaN|Infinity|global batch|\b0 nodes/);
  });

  it('"tp 0" takes no cluster of 0 nodes, no batch and no distributed optimizer (it would shard over Infinity ranks)', () => {
    const q = parse('memory of llama3-8b with tp 0');
    expect(q.parameters).not.toHaveProperty('nodes');
    expect(q.parameters).not.toHaveProperty('globalBatchSize');
    expect(q.parameters).not.toHaveProperty('distributedOptimizer');
  });

  it('defaultBatch on 0 nodes or a 0-token sequence is no batch to take', () => {
    expect(isComputedBatch(defaultBatch({ model: 'llama3-8b', nodes: 0 }))).toBe(false);
    expect(isComputedBatch(defaultBatch({ model: 'llama3-8b', nodes: 8, seqLength: 0 }))).toBe(false);
    expect(isComputedBatch(defaultBatch({ model: 'llama3-8b', nodes: 8 }))).toBe(true);
  });
});

describe('a fixed layout\'s default TP divides what the stated PP and CP leave of the GPUs', () => {
  it.each([
    ['step time of llama3-8b on 8 h100 with pp 4', 2, 'tensor parallel 2 (the largest that divides the 8 GPUs asked about over PP 4)'],
    ['step time of llama3-8b on 16 h100 with pp 2 cp 2', 4, 'tensor parallel 4 (the largest that divides the 16 GPUs asked about over PP 2 · CP 2)'],
    ['step time of llama3-8b on 64 h100 with pp 4', 8, 'tensor parallel 8 (one NVLink domain)'],
  ])('"%s": TP %s, said so, and the layout runs (TP 8 × PP 4 would not divide 8 GPUs)', (question, tensor, said) => {
    const q = parse(question);
    expect(q.parameters.tensor).toBe(tensor);
    expect(q.defaults.map((d) => d.text)).toContain(said);
    expect(ask(question, { publicUrl: null }).ok).toBe(true);
  });
});
