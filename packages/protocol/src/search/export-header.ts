import { countOf, formatGrouped } from '@trainplan/units';

/**
 * The header comments of both exports: the Megatron-Core release the arguments need, and what they leave to the user.
 * Releases from Megatron-LM's CHANGELOG.md: 0.9 "Uneven pipeline parallelism"; 0.11 "Uneven virtual pipeline parallel
 * split support in first and last PP stage" (with it --num-virtual-stages-per-pipeline-rank) and "llama3.2 support"
 * (--rope-scaling-factor); 0.14 "custom_fsdp refactored ... to megatron_fsdp" (--use-megatron-fsdp). The changelog
 * does not date --account-for-*-in-pipeline-split: they are asked for as 0.14, where they were checked (arguments.py), and
 * so are NeMo's TransformerConfig names of an uneven split, whose rename from first_pipeline_num_layers was not pinned
 * (export-nemo-split.ts). --grad-reduce-in-bf16 (export-gradients.ts: 16-bit gradients under bf16, a ZeRO plan's among
 * them) is unverified: CHANGELOG.md names no release for it and its history in arguments.py was not traced, so it
 * raises no requirement and the header's 0.9 may be too low for an export that prints it. --attention-backend (for unfused attention) is undated by CHANGELOG.md
 * too; it is asked for as 0.10, believed to be the first release with its AttnBackend enum (late 2024), which was not
 * checked against that release's own arguments.py.
 */
export interface CoreRequirement {
  readonly minor: number;
  readonly why: string;
}

/** The base every export needs: the argument names of megatron/training/arguments.py as of Megatron-Core 0.9. */
export const CORE_BASE: CoreRequirement = { minor: 9, why: 'the names used, as of that release' };

/** The newest of the requirements, as a header line for the given format. */
export function coreVersionLine(requirements: readonly CoreRequirement[], what: string): string {
  const newest = requirements.reduce((a, b) => (b.minor > a.minor ? b : a), CORE_BASE);
  return `# ${what}: needs Megatron-Core 0.${newest.minor} or later (${newest.why})`;
}

export const MEGATRON_LEFT_OUT = '# left out, yours to add: data (--data-path, --split), the tokenizer, the length (--train-iters or --train-samples), '
  + 'the learning rate and its schedule (--lr, --min-lr, --lr-decay-style, --lr-warmup-*), checkpoints (--save, --load)';

export const NEMO_LEFT_OUT = '# left out, yours to add: model.data (data_prefix, splits_string), model.tokenizer, trainer.max_steps, '
  + 'model.optim (lr, sched), exp_manager';

/**
 * The model's tokenizer is the user's to give; the note says which vocabulary it must make, padding included (a
 * preset's vocabulary may count Megatron's padding rows: GPT-3's 51,200 is GPT-2's 50,257 padded), and how to set it.
 */
export const tokenizerNote = (vocabSize: number, how: string): string =>
  `# the tokenizer sets the vocabulary (${vocabSize.toLocaleString('en-US')} rows for this model, with the padding below): ${how}`;

/** The cluster a plan was made for: the size the launcher must start, which neither export's arguments carry. */
export interface PlannedCluster {
  readonly nodes: number;
  readonly gpusPerNode: number;
  readonly tensor: number;
  readonly pipeline: number;
  readonly context: number;
  readonly data: number;
}

/**
 * The header line naming the cluster size the plan is for. Megatron-LM takes the world size from the launcher
 * (torchrun's WORLD_SIZE), not from an argument: validate_args asserts world_size % (TP · PP · CP) == 0 and sets the
 * data-parallel size to the quotient (megatron/training/arguments.py), so a command line without its cluster size
 * plans a different data-parallel size, or none. `why` says why this size, where the plan was one of several
 * (`trainplan nodes`: "the time–cost curve's cheapest size"); `then`, how the format takes the size.
 */
export function plannedClusterLine(c: PlannedCluster, then: string, why?: string): string {
  return `# planned for ${countOf(c.nodes, 'node')} × ${countOf(c.gpusPerNode, 'GPU')} (world size ${formatGrouped(c.nodes * c.gpusPerNode)}: `
    + `TP ${c.tensor} · PP ${c.pipeline} · CP ${c.context} · DP ${c.data})${why === undefined ? '' : `, ${why}`}; ${then}`;
}

/** How Megatron-LM is told the size: by its launcher (torchrun's --nnodes and --nproc-per-node make WORLD_SIZE). */
export const megatronLaunch = (c: PlannedCluster): string =>
  `the launcher sets it (torchrun --nnodes ${c.nodes} --nproc-per-node ${c.gpusPerNode})`;

/** NeMo reads it from the trainer's keys below, which the launcher must match. */
export const NEMO_LAUNCH = 'trainer.num_nodes and trainer.devices below say it, and the launcher must start as many';
