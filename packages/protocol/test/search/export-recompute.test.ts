import { describe, expect, it } from 'vitest';
import { runSearch, toMegatronArgs, toNemoYaml, type SearchOkJson } from '../../src/index.ts';

/** `--flag value` pairs of an export's argument block (comments and `export` lines left out); a bare switch maps to true. */
function flags(text: string): Map<string, string | true> {
  const block = text.split('\n').filter((l) => !l.startsWith('#') && !l.startsWith('export ')).join(' ').replace(/\\/g, ' ');
  const tokens = block.split(/\s+/).filter(Boolean);
  const out = new Map<string, string | true>();
  for (let i = 0; i < tokens.length; i++) {
    const next = tokens[i + 1];
    if (next !== undefined && !next.startsWith('--')) out.set(tokens[i]!, next), i++;
    else out.set(tokens[i]!, true);
  }
  return out;
}

const num = (f: Map<string, string | true>, flag: string): number | undefined => (f.has(flag) ? Number(f.get(flag)) : undefined);

/**
 * Megatron-Core's model chunks, rebuilt from the exported flags alone (not from trainplan's split): each stage holds
 * (L + e + l)/p slots, or the first/last flags' layers with the rest even over the middle stages; v chunks of equal
 * slots per stage; get_num_layers_to_build's "num_layers_to_build -= 1" on the first chunk of the first stage for
 * --account-for-embedding-in-pipeline-split and on the last chunk of the last stage for the loss.
 */
function megatronChunks(f: Map<string, string | true>): number[][] {
  const L = num(f, '--num-layers')!;
  const p = num(f, '--pipeline-model-parallel-size')!;
  const e = f.has('--account-for-embedding-in-pipeline-split') ? 1 : 0;
  const l = f.has('--account-for-loss-in-pipeline-split') ? 1 : 0;
  const first = num(f, '--decoder-first-pipeline-num-layers');
  const last = num(f, '--decoder-last-pipeline-num-layers');
  const stages = first === undefined
    ? Array.from({ length: p }, () => (L + e + l) / p)
    : Array.from({ length: p }, (_, i) => (i === 0 ? first : i === p - 1 ? last! : (L - first - last!) / (p - 2)));
  const perChunk = num(f, '--num-layers-per-virtual-pipeline-stage');
  const v = num(f, '--num-virtual-stages-per-pipeline-rank') ?? (perChunk === undefined ? 1 : stages[0]! / perChunk);
  return stages.map((slots, i) => Array.from({ length: v }, (_, j) =>
    slots / v - (e === 1 && i === 0 && j === 0 ? 1 : 0) - (l === 1 && i === p - 1 && j === v - 1 ? 1 : 0)));
}

/** _checkpointed_forward, method block: in each chunk the layers with index < recompute_num_layers are recomputed. */
const recomputedPerStage = (chunks: number[][], n: number): number[] => chunks.map((c) => c.reduce((s, layers) => s + Math.min(n, layers), 0));

const scenario = (model: string, p: number, v: number, slots: { embedding?: boolean; loss?: boolean }, recomputeLayers?: number) => ({
  // One GPU per stage, no data parallelism: 840 micro-batches are whole rounds of any p ≤ 8 (the interleaved schedule's rule).
  model, cluster: { gpu: 'h100-sxm', nodes: p, gpusPerNode: 1 }, training: { globalBatchSize: 840, microBatchSize: 1 },
  parallelism: {
    tensor: 1, pipeline: p, virtualStages: v, overlapPipelineComm: v > 1, recompute: 'full',
    ...(slots.embedding === true && { embeddingInPipelineSplit: true }), ...(slots.loss === true && { lossInPipelineSplit: true }),
    ...(recomputeLayers !== undefined && { recomputeLayers }),
  },
});

const SLOTS = [{}, { embedding: true }, { loss: true }, { embedding: true, loss: true }];

describe('--recompute-num-layers: a whole number per model chunk that recomputes what the plan costs', () => {
  it('QA\'s cases: PP 2 counting the embedding and the loss gives every stage v·c − 1 layers; N is the fullest chunk\'s c', () => {
    // Llama 3 8B: 32 + 2 = 34 slots on 2 stages of 17 chunks: 1 slot each, the embedding's and the loss's chunks empty.
    const llama = {
      model: 'llama3-8b', cluster: { gpu: 'dgx-h100', nodes: 1 }, training: { globalBatchSize: 64 },
      parallelism: { tensor: 4, pipeline: 2, virtualStages: 17, embeddingInPipelineSplit: true, lossInPipelineSplit: true, overlapPipelineComm: true, recompute: 'full' },
    };
    expect(toMegatronArgs(llama)).toContain('--recompute-num-layers 1 ');
    expect(toNemoYaml(llama)).toContain('  activations_checkpoint_num_layers: 1\n');
    // GPT-3 175B: 96 + 2 = 98 slots on 2 stages of 7 chunks: 7 each (was 48 / 7 = 6.857…).
    const gpt3 = {
      model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 64 }, training: { globalBatchSize: 1536, microBatchSize: 1 },
      parallelism: { tensor: 8, pipeline: 2, virtualStages: 7, embeddingInPipelineSplit: true, lossInPipelineSplit: true, overlapPipelineComm: true, recompute: 'full', distributedOptimizer: true, sequenceParallel: true },
    };
    expect(toMegatronArgs(gpt3)).toContain('--recompute-num-layers 7 ');
    expect(toNemoYaml(gpt3)).toContain('  activations_checkpoint_num_layers: 7\n');
  });

  it('PP 1–8, every chunk count, every split: a positive integer, and Megatron recomputes on each stage exactly the plan\'s layers', () => {
    const reached = new Set<string>();
    for (const model of ['llama3-8b', 'llama3-70b', 'gpt3-175b']) {
      const L = model === 'llama3-8b' ? 32 : model === 'llama3-70b' ? 80 : 96;
      for (let p = 1; p <= 8; p++) {
        for (const slots of SLOTS) {
          for (let v = 1; v <= Math.ceil((L + 2) / p); v++) {
            for (const chosen of [undefined, v, 2 * v, 3 * v]) {
              const text = toMegatronArgs(scenario(model, p, v, slots, chosen));
              if (text === undefined) continue; // no such split (checkPlan)
              if (v > 1) reached.add(`${JSON.stringify(slots)}${p === 2 ? ' at PP 2' : ''}`);
              const f = flags(text);
              const n = num(f, '--recompute-num-layers')!;
              expect(Number.isInteger(n) && n >= 1, `${model} PP ${p} v ${v} ${JSON.stringify(slots)} R ${chosen}: ${n}`).toBe(true);
              const chunks = megatronChunks(f);
              const stageLayers = chunks.map((c) => c.reduce((a, b) => a + b, 0));
              // The planner recomputes min(n, R) of a stage's n layers, every layer when R is unset (stage-time.ts).
              const planned = stageLayers.map((layers) => Math.min(layers, chosen ?? layers));
              expect(recomputedPerStage(chunks, n), `${model} PP ${p} v ${v} ${JSON.stringify(slots)} R ${chosen}`).toEqual(planned);
              const yaml = toNemoYaml(scenario(model, p, v, slots, chosen))!;
              expect(yaml).toContain(`  activations_checkpoint_num_layers: ${n}\n`);
            }
          }
        }
      }
    }
    // The sweep exported interleaved plans of every split, PP 2 counting both the embedding and the loss (QA's case) among them.
    for (const slots of SLOTS) expect(reached).toContain(JSON.stringify(slots));
    expect(reached).toContain(`${JSON.stringify({ embedding: true, loss: true })} at PP 2`);
  });
});

/**
 * arguments.py's type=float flags among those exported; every other value of a Megatron flag that is a number is
 * declared type=int (the layer, size, batch, degree and vocabulary flags), and argparse refuses "0.94" for them.
 */
const FLOAT_FLAGS = new Set(['--rotary-percent', '--rope-scaling-factor', '--attention-dropout', '--hidden-dropout']);

/** The NeMo keys that Megatron-Core or the PyTorch Lightning trainer take as int (TransformerConfig, ModelParallelConfig, Trainer). */
const NEMO_INT_KEYS = /^ {2,4}(num_nodes|devices|micro_batch_size|global_batch_size|\w+_parallel_size|num_layers\w*|hidden_size|ffn_hidden_size|num_attention_heads|num_query_groups|encoder_seq_length|max_position_embeddings|make_vocab_size_divisible_by|activations_checkpoint_num_layers|rotary_base): (.+)$/;

describe('every numeric value an export writes for an int setting is a whole number, over many searched plans', () => {
  // QA's two cases first (PP 2 counting the embedding and the loss, interleaved), then plans as the search picks them.
  const requests = [
    { model: 'llama3-8b', cluster: { gpu: 'dgx-h100', nodes: 1 }, training: { globalBatchSize: 64 }, constraints: { recompute: ['full'], pipelineSizes: [2], pipelineSlots: ['embedding-and-loss'], virtualStageCounts: [17] }, settings: { overlapPipelineComm: true } },
    { model: 'llama3-8b', cluster: { gpu: 'dgx-h100', nodes: 2 }, training: { globalBatchSize: 128 }, constraints: { recompute: ['full', 'selective'] } },
    { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 64 }, training: { globalBatchSize: 1536 }, constraints: { recompute: ['full'], pipelineSlots: ['embedding-and-loss', 'embedding'] } },
    { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 64 }, training: { globalBatchSize: 1536 }, constraints: { recompute: ['full'], pipelineSizes: [2], virtualStageCounts: [7], pipelineSlots: ['embedding-and-loss'] }, settings: { overlapPipelineComm: true } },
    { model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 6 }, training: { globalBatchSize: 144 }, constraints: { recompute: ['full'], pipelineSizes: [3, 6] } },
    { model: 'llama3.1-405b', cluster: { gpu: 'h100-sxm', nodes: 64 }, training: { globalBatchSize: 2048 }, constraints: { pipelineSlots: ['embedding-and-loss', 'loss'] } },
    { model: 'bloom-176b', cluster: { gpu: 'a100-80gb', nodes: 48 }, training: { globalBatchSize: 2048 }, constraints: { recompute: ['full'] } },
    { model: 'nemotron4-15b', cluster: { gpu: 'h100-sxm', nodes: 4 }, training: { globalBatchSize: 256 }, constraints: { sequenceParallel: [true] } },
  ];
  it.each(requests.map((r) => [`${r.model} on ${r.cluster.nodes} × ${r.cluster.gpu}, ${JSON.stringify(r.constraints)}`, r] as const))('%s', (_name, request) => {
    const answer = runSearch({ ...request, top: 100 }) as SearchOkJson;
    expect(answer.ok).toBe(true);
    expect(answer.top.length).toBeGreaterThan(1);
    for (const plan of answer.top) {
      const text = toMegatronArgs(plan.scenario)!;
      for (const [flag, value] of flags(text)) {
        if (value === true || !/^-?[\d.e+]+$/.test(value)) continue;
        if (FLOAT_FLAGS.has(flag)) expect(Number.isFinite(Number(value)), `${flag} ${value}`).toBe(true);
        else expect(value, `${flag} in ${JSON.stringify(plan.scenario.parallelism)}`).toMatch(/^\d+$/);
      }
      for (const line of toNemoYaml(plan.scenario)!.split('\n')) {
        const m = NEMO_INT_KEYS.exec(line);
        if (m !== null) expect(m[2], `${line} in ${JSON.stringify(plan.scenario.parallelism)}`).toMatch(/^(\d+|null)$/);
      }
    }
  });
});
