import { runSearch, toMegatronArgs, toNemoYaml, type ScenarioInput } from '@trainplan/protocol';
import type { Command } from '../command.ts';
import { printError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import type { FlagSpec, FlagValues } from '../flags.ts';
import { progressBar } from '../format/progress-bar.ts';
import { formatSearchReport } from '../format/search-report.ts';
import { reasonLine } from '../format/problems.ts';
import type { CliIo } from '../io.ts';
import { exportProblem, printIssues, requestCommand, shownAnswer } from '../request-command.ts';
import { assumedBatchLine, flagDefaultBatch } from '../default-batch.ts';
import { batchWarning, printBatchWarning, requestBatch } from '../batch-warning.ts';
import {
  count, machineFields, MACHINE_FLAGS, money, OVERLAP_FLAGS, overlapProblem, overlapSettings, SPACE_FLAGS, spaceConstraintFields, spaceFlagsHelp, TRAINING_FLAGS, trainingFields,
} from '../search-flags.ts';
import { usageLine } from '../format/usage-line.ts';
import {
  candidateBudget, candidateBudgetHelp, candidateBudgetProblem, CANDIDATE_BUDGET_FLAGS, CANDIDATE_BUDGET_REQUEST_FLAGS,
} from './search-candidate-budget.ts';

const SYNOPSIS = 'trainplan search --model ID --gpu ID (--nodes N | --gpus N) [--global-batch B] [--objective throughput|time-to-train|cost] [--top K] [--json] [--export megatron|nemo]';

const FLAGS: Record<string, FlagSpec> = {
  ...MACHINE_FLAGS,
  ...TRAINING_FLAGS,
  ...SPACE_FLAGS,
  ...OVERLAP_FLAGS,
  nodes: { type: 'string', short: 'n', valueName: 'a count' },
  gpus: { type: 'string', valueName: 'a count' },
  tokens: { type: 'string', valueName: 'a count, e.g. 300B' },
  objective: { type: 'string', valueName: 'throughput, time-to-train or cost' },
  price: { type: 'string', valueName: 'a price per GPU-hour' },
  top: { type: 'string', short: 'k', valueName: 'a count' },
  ...CANDIDATE_BUDGET_FLAGS,
  export: { type: 'string', valueName: 'megatron or nemo' },
};

const USAGE = `${usageLine(SYNOPSIS)}

Find the fastest parallel configuration (tensor, pipeline with even or uneven splits, data, context,
virtual stages, sequence parallelism, micro-batch, recompute, distributed optimizer) of a model on
a cluster, rank the top plans, and say why the nearest alternatives lose.

Options:
  -m, --model ID            model preset id (e.g. gpt3-175b)
  -g, --gpu ID              GPU preset id (a100-80gb) or system preset id (dgx-h100)
  -n, --nodes N | --gpus N  the cluster's size
  -b, --global-batch B      sequences per optimizer step (default, as the chat bot assumes: the
                            model's published batch, GPT-3 175B's 1,536; else about 4M tokens,
                            or one sequence per 8 GPUs on a larger cluster, aimed at most at
                            2^24 = 16.8M tokens a step (Llama 3 405B's "16M"), rounded so that
                            the cluster's data-parallel sizes divide it (up to 10% over the aim);
                            the assumed line says)
      --seq-length S        override the model's sequence length (8k = 8192, 1M = 1,048,576 tokens)
      --precision P         fp16, bf16 or fp8; default: bf16, or fp16 on a GPU without BF16
                            tensor cores (V100)
      --grad-accumulation A fused (default: inside the weight-gradient GEMM, into fp32 main
                            gradients under bf16 and fp8); fused-16-bit: the same into a 16-bit
                            buffer, reduced at 2 bytes (Megatron's --grad-reduce-in-bf16, NVIDIA's
                            performance recipes); or 16-bit / fp32: a separate add per micro-batch
                            (PyTorch DDP, DeepSpeed)
      --fp8-params          with --precision fp8, weights kept in FP8 alone (Megatron's
                            --fp8-param-gather; needs the distributed optimizer): no 16-bit copy
                            beside Transformer Engine's FP8 ones
      --tokens T            a token budget (e.g. 300B): adds days and GPU-hours
      --objective O         throughput (default), time-to-train (needs --tokens), cost (needs
                            --tokens, --price). On the one cluster size searched all three
                            rank plans alike (time to train and cost are the step time times a
                            constant), so the best plan is the same; to weigh time against
                            cost across sizes, use trainplan nodes
      --price P             price of one GPU-hour, e.g. 2.5 for US$2.50 (with --tokens); the cost is
                            in the same currency
  -k, --top K               plans to list (default 10)
${spaceFlagsHelp(28)}
      --max-tensor N        largest tensor-parallel degree to try
      --tensor-within-node  keep tensor parallelism inside a node
      --memory-fraction F   usable share of GPU memory (default 0.95, the share above which an
                            estimate warns; 1 uses all of it)
${candidateBudgetHelp(28)}
      --gpus-per-node N, --network ID   override the system's
  -i, --input FILE|-        the whole search request as JSON (the API's body) instead of flags
      --json                print the JSON answer (candidatesEvaluated, best {scenario, estimate},
                            top, …)
      --export megatron|nemo  print the best plan as Megatron-LM arguments or a NeMo YAML fragment,
                            under a header: the Megatron-Core release the names need, the cluster
                            size planned (the world size the launcher must start) and what is
                            left to add. Megatron-LM's also gives the environment the run needs (a
                            comment: export or unset CUDA_DEVICE_MAX_CONNECTIONS) and maps ZeRO-1
                            to the distributed optimizer, ZeRO-2 and ZeRO-3 to Megatron-FSDP
                            (--data-parallel-sharding-strategy optim_grads, optim_grads_params)
  -h, --help                show this help

Exit status: 0 a plan was found; 1 no plan: nothing fits (the closest feasible alternative shown),
or --candidate-budget ran out before a plan that fits was estimated (the closest candidate seen
is printed); 2 usage error or invalid request (constraints that contradict each other, e.g.
--tensor 8 --max-tensor 4, included).

Examples:
  trainplan search --model gpt3-175b --gpu a100-80gb --nodes 128 --global-batch 1536 --tokens 300B
  trainplan search --model llama3-70b --gpu dgx-h100 --gpus 64 --global-batch 128 --export megatron
  trainplan search --model gpt3-175b --gpu a100-80gb --nodes 128 --global-batch 1536 --tensor 8 --recompute full,selective
`;

const REQUEST_FLAGS = ['model', 'gpu', 'nodes', 'gpus', 'global-batch', 'seq-length', 'precision', 'grad-accumulation', 'fp8-params', 'tokens', 'objective', 'price', 'top', ...CANDIDATE_BUDGET_REQUEST_FLAGS, 'max-tensor', 'tensor-within-node', 'memory-fraction', 'gpus-per-node', 'network', ...Object.keys(SPACE_FLAGS), 'overlap'];

function fromFlags(v: FlagValues): Record<string, unknown> {
  const m = machineFields(v);
  const constraints = spaceConstraintFields(v);
  const request: Record<string, unknown> = {
    ...m,
    cluster: { ...(m.cluster as object), ...(v.nodes !== undefined && { nodes: count(v, 'nodes') }), ...(v.gpus !== undefined && { gpus: count(v, 'gpus') }) },
    training: { ...trainingFields(v, count(v, 'tokens')), ...(v['global-batch'] === undefined && { globalBatchSize: flagDefaultBatch(v).sequences }) },
    ...(v.objective !== undefined && { objective: v.objective }),
    ...(v.price !== undefined && { pricePerGpuHour: money(v, 'price') }),
    ...(v.top !== undefined && { top: count(v, 'top') }),
    ...(candidateBudget(v) !== undefined && { candidateBudget: candidateBudget(v) }),
    ...(constraints && { constraints }),
    ...(overlapSettings(v) !== undefined && { settings: overlapSettings(v) }),
  };
  return request;
}

/**
 * Prints the best plan as Megatron-LM arguments or a NeMo YAML fragment (its header names the cluster size, and
 * `sizeWhy` why that one, where the size was chosen among several); false (nothing printed)
 * when the exporter refuses the plan, which a plan the search chose should never be: the caller
 * says so rather than exit 0 with an empty stdout that a `> run.sh` would take for a command line.
 */
export function exportScenario(io: CliIo, format: string, scenario: ScenarioInput, sizeWhy?: string): boolean {
  const options = sizeWhy === undefined ? {} : { sizeWhy };
  const text = format === 'megatron' ? toMegatronArgs(scenario, options) : toNemoYaml(scenario, options);
  if (text === undefined) {
    printError(io, `internal error: the plan found cannot be written as ${format === 'megatron' ? 'Megatron-LM arguments' : 'NeMo YAML'}`);
    return false;
  }
  io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  return true;
}

/**
 * Where a report goes: stdout, unless --export asked for a configuration and there is none. Then
 * stdout stays empty (`--export megatron > run.sh` must not capture prose as arguments) and the
 * report, with its closest alternatives, goes to stderr beside the error line.
 */
export const reportStream = (io: CliIo, v: FlagValues): ((s: string) => void) => (typeof v.export === 'string' ? io.stderr : io.stdout);

/**
 * Where a search or sizing found no plan because the constraints contradict each other (`--tensor 8 --max-tensor 4`,
 * `--tensor 16 --tensor-within-node` on 8-GPU nodes), the words that say so (the answer's `contradiction`, without
 * the size it was asked on, which is not to blame); else undefined. No cluster runs such a request: it is a usage
 * error (exit 2), as `--days 30 --nodes 128` is, not a plan this cluster lacks (exit 1).
 */
export const contradiction = (a: { readonly ok: boolean; readonly contradiction?: string }): string | undefined =>
  (a.ok ? undefined : a.contradiction);

/** A cost is the GPU-hours of a token budget at the price: --price alone would be dropped without a word. */
const priceProblem = (v: FlagValues): string | undefined =>
  (v.price !== undefined && v.tokens === undefined ? '--price needs --tokens: the cost is the GPU-hours to train them at that price' : undefined);

/**
 * --objective cost ranks plans by money, the GPU-hours of --tokens at --price. The schema's rule sits on the price's
 * field, so it was said as "--price: --objective cost needs --tokens and --price" (QA): labelled by a flag not given,
 * naming one that was. Said here by the flag given, naming only what is missing (a request from --input keeps the
 * schema's words, in its own fields).
 */
function costProblem(v: FlagValues): string | undefined {
  if (v.objective !== 'cost' || v.input !== undefined) return undefined;
  const missing = [...(v.price === undefined ? ['--price'] : []), ...(v.tokens === undefined ? ['--tokens'] : [])];
  return missing.length === 0 ? undefined
    : `--objective cost needs ${missing.join(' and ')}: the cost is the GPU-hours to train the tokens (--tokens T) at the price of one GPU-hour (--price P)`;
}

export const searchCommand: Command = requestCommand({
  name: 'search',
  summary: 'find the fastest parallel configuration of a model on a cluster, and why',
  synopsis: SYNOPSIS,
  usage: USAGE,
  flags: FLAGS,
  requestFlags: REQUEST_FLAGS,
  fromFlags,
  check: (v) => exportProblem(v) ?? candidateBudgetProblem(v) ?? costProblem(v) ?? priceProblem(v) ?? overlapProblem(v),
  answer(request, v, io) {
    const bar = progressBar(io, 'searching');
    const answer = runSearch(request, { onProgress: bar.onProgress });
    bar.done();
    if (v.json === true) io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
    if (!answer.ok && answer.reason === 'invalid') {
      printIssues(io, answer.issues);
      return EXIT.usage;
    }
    // The answer names the request's fields (candidateBudget); a request built from flags names its flags (--candidate-budget).
    const shown = shownAnswer(io, answer);
    // Constraints that contradict each other are refused as an invalid request is: one line, no report, exit 2.
    const contradicts = contradiction(shown);
    if (contradicts !== undefined) {
      printError(io, contradicts);
      return EXIT.usage;
    }
    const assumed = assumedBatchLine(v, request);
    // A batch given (--global-batch, --input) that reads as a token count typed as sequences; a default never does.
    const warned = batchWarning(io, assumed === undefined ? requestBatch(request) : undefined);
    if (typeof v.export === 'string' && shown.ok) {
      if (!exportScenario(io, v.export, shown.best.scenario)) return EXIT.internal;
    } else if (v.json !== true) reportStream(io, v)(`${assumed === undefined ? '' : `${assumed}\n`}${formatSearchReport(shown, io.inFlagTerms, warned)}`);
    // The report said the assumption and the warning; an export or the JSON (the API's answer) has no place for them, so stderr does.
    if (v.json === true || (typeof v.export === 'string' && shown.ok)) {
      if (assumed !== undefined) io.stderr(`trainplan: ${assumed}\n`);
      printBatchWarning(io, warned);
    }
    if (!shown.ok) {
      printError(io, reasonLine(shown));
      return EXIT.infeasible;
    }
    return EXIT.ok;
  },
});
