/**
 * The header comments of both exports: the Megatron-Core release the arguments need, and what they leave to the user.
 * Releases from Megatron-LM's CHANGELOG.md: 0.9 "Uneven pipeline parallelism"; 0.11 "Uneven virtual pipeline parallel
 * split support in first and last PP stage" (with it --num-virtual-stages-per-pipeline-rank) and "llama3.2 support"
 * (--rope-scaling-factor); 0.14 "custom_fsdp refactored ... to megatron_fsdp" (--use-megatron-fsdp). The changelog
 * does not date --account-for-*-in-pipeline-split: they are asked for as 0.14, where they were checked (arguments.py).
 * --grad-reduce-in-bf16 (export-config.ts, for 16-bit gradient accumulation) is unverified: CHANGELOG.md names no
 * release for it and its history in arguments.py was not traced, so it raises no requirement and the header's 0.9
 * may be too low for an export that prints it.
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
