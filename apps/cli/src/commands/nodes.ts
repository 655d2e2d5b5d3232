import {
  checkedText, withNodesExtensions, compactTokens, daysText, nvlinkDomainsText, plannedBatch, runNodes, stepsOf, type NodesResponseJson, nodesText,
} from '@trainplan/protocol';
import { countOf, formatCountCompact, formatSeconds } from '@trainplan/units';
import { deadlineBatchFor, runNodesBody, validateNodesBody, type NodesAnswer } from '@trainplan/ask';
import type { Command } from '../command.ts';
import { printError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import { exportProblem, printIssues, requestCommand, shownAnswer } from '../request-command.ts';
import type { FlagSpec, FlagValues } from '../flags.ts';
import { progressBar } from '../format/progress-bar.ts';
import { grouped } from '../format/count-text.ts';
import { renderTable } from '../format/table.ts';
import { wholeText } from '../format/whole-text.ts';
import { fp8Peak, mfuCells, mfuHeaders, mfuText, type Fp8Peak } from '../format/mfu-text.ts';
import { costHeader, costWithCurrency } from '../format/price-currency.ts';
import {
  count, machineFields, MACHINE_FLAGS, money, numberIn, OVERLAP_FLAGS, overlapProblem, overlapSettings, SPACE_FLAGS, spaceConstraintFields, spaceFlagsHelp, TRAINING_FLAGS, trainingFields, UNIT,
} from '../search-flags.ts';
import { contradiction, exportScenario, reportStream } from './search.ts';
import { reasonLine } from '../format/problems.ts';
import { assumedBatchLine, flagDeadlineBatchFor, flagDefaultBatch } from '../default-batch.ts';
import { askedSizeBatchLine, assumedGlobalBatch, inputBatchLine, perSizeBatchLine } from './nodes-assumed-batch.ts';
import { usageLine } from '../format/usage-line.ts';
import { batchWarning, batchWarningLines, printBatchWarning } from '../batch-warning.ts';
import { LLAMA3_UPTIME, uptimeFlag, uptimeLine, uptimeProblem } from './nodes-uptime.ts';
import { moneyBudgetProblem } from './nodes-money-budget.ts';

const SYNOPSIS = 'trainplan nodes --model ID --gpu ID --tokens T (--days D | --gpu-hours H | --budget M --price P | --nodes N | --frontier) [--global-batch B] [--uptime F] [--json] [--export megatron|nemo]';

const FLAGS: Record<string, FlagSpec> = {
  ...MACHINE_FLAGS,
  ...TRAINING_FLAGS,
  ...SPACE_FLAGS,
  ...OVERLAP_FLAGS,
  tokens: { type: 'string', short: 't', valueName: 'a count, e.g. 300B' },
  days: { type: 'string', short: 'd', valueName: 'a number of days' },
  'gpu-hours': { type: 'string', valueName: 'a number of GPU-hours' },
  budget: { type: 'string', valueName: 'an amount of money' },
  price: { type: 'string', valueName: 'a price per GPU-hour' },
  nodes: { type: 'string', short: 'n', valueName: 'a count' },
  frontier: { type: 'boolean' },
  uptime: { type: 'string', valueName: 'a share of time in (0, 1]' },
  export: { type: 'string', valueName: 'megatron or nemo' },
};

const USAGE = `${usageLine(SYNOPSIS)}

How many nodes of a GPU's (or system's) node type to train a token budget on, with the
configuration used (the achieved throughput of the best plan found at that size, not a fixed
TFLOP/s):
  --days D              the fewest nodes that train within D days (with --gpu-hours or --budget too:
                        the fewest that meet the deadline within the budget)
  --gpu-hours H, or --budget M --price P, without --days
                        the fastest plan the budget affords: the largest useful cluster whose
                        GPU-hours (or cost) stay within it, with the smallest cluster that fits and
                        its days beside it
  --nodes N             the days on N nodes
  --frontier            the time–cost curve: the cheapest cluster size, and what going faster costs
                        (each size's days and GPU-hours, and cost with --price; ★ marks the sizes no
                        other beats on both)

Sizes searched: --days, a budget and --frontier try 1 to 8,192 nodes, so a larger cluster may be
faster (a budget's answer, the curve's fastest or a missed deadline's fastest near 8,192 nodes
says so); --nodes N plans any size.

Options:
  -m, --model ID         model preset id
  -g, --gpu ID           GPU or system preset id
  -b, --global-batch B   sequences per optimizer step, held at every size searched. Without it
                         every mode sizes the batch per cluster, as the chat bot does: each size
                         (searched by --days, --gpu-hours, --budget and --frontier, or given by
                         --nodes) at its own default: the model's published batch (GPT-3 175B's
                         1,536), else about 4M tokens, or one sequence per 8 GPUs on a larger
                         cluster up to 2^24 = 16.8M tokens a step (Llama 3 405B's "16M"),
                         rounded so that data-parallel sizes of its GPUs divide it (the unsized
                         default where rounding raises it more than 10%); and at the multiple of
                         that rounding's unit on the other side of the aim (at most 25% under or
                         10% over it), the faster taken, so --nodes N answers a size --days named
                         with the same plan (--nodes N also tries N's own default where neither
                         runs); the assumed line names the batch the answer's size took
  -t, --tokens T         tokens to train on (e.g. 300B)
  -d, --days D           deadline in days (30, or 30d)
      --gpu-hours H      budget in GPU-hours (e.g. 6.4M)
      --budget M         budget in money (with --price)
      --price P          price of one GPU-hour
  -n, --nodes N          the inverse question: days on N nodes
      --frontier         the time–cost curve over cluster sizes (no goal)
      --uptime F         the share of wall-clock time spent training, in (0, 1] or as a percentage
                         (default 1: no restarts, failures or checkpoint stalls). Days are the ideal
                         days / F and GPU-hours the GPUs × those wall-clock hours, so a deadline or
                         budget sizes the cluster on wall-clock time. Meta reports "higher than 90%
                         effective training time" for Llama 3 405B over a 54-day snapshot with 466
                         job interruptions (Dubey et al. 2024, §3.3.4): --uptime ${LLAMA3_UPTIME}
${spaceFlagsHelp(25)}
      --seq-length, --precision, --grad-accumulation, --fp8-params, --max-tensor,
      --tensor-within-node, --memory-fraction, --gpus-per-node, --network   as in trainplan search
  -i, --input FILE|-     the whole request as JSON instead of flags, POST /v1/nodes's body: without
                         training.globalBatchSize (a model preset id), each size at its default, as
                         without --global-batch, said as the API says it (assumedGlobalBatch)
      --json             print the JSON answer (mode, nodes, days, gpuHours, configuration; smallest
                         with a budget alone; checked with a deadline; note, how thoroughly the
                         sizes were searched, with either; largerBatch, printed as a hint, when the
                         batch holds the plan back and twice the batch needs materially fewer nodes
                         or days; nvlinkDomains on GB200, whose NVLink domain, a rack of 72 GPUs,
                         spans 18 nodes; as POST /v1/nodes adds them: uptime, warnings, and, without
                         --global-batch, assumedGlobalBatch: the batch the answer's size took and
                         why, which stderr's assumed line says in flags)
      --export F         print the configuration as Megatron-LM arguments (megatron) or NeMo YAML
                         (nemo), under a header naming the cluster size it is for and why (with
                         --frontier: the curve's cheapest; --nodes N exports another)
  -h, --help             show this help

Exit status: 0 answered; 1 the goal cannot be met (the closest feasible alternative is printed);
2 usage error or invalid request (constraints that contradict each other, e.g. --tensor 8
--max-tensor 4, included).

Examples:
  trainplan nodes --model gpt3-175b --gpu dgx-a100-80gb --global-batch 1536 --tokens 300B --days 30
  trainplan nodes --model llama3-70b --gpu h100-sxm --tokens 15T --gpu-hours 6.4M
  trainplan nodes --model llama3-70b --gpu h100-sxm --tokens 15T --days 60 --uptime 0.9
  trainplan nodes --model gpt3-175b --gpu a100-80gb --global-batch 1536 --tokens 300B --nodes 128
  trainplan nodes --model llama3-70b --gpu h100-sxm --tokens 2T --frontier --price 2.5
`;

const REQUEST_FLAGS = ['model', 'gpu', 'global-batch', 'tokens', 'days', 'gpu-hours', 'budget', 'price', 'nodes', 'frontier', 'uptime', 'seq-length', 'precision', 'grad-accumulation', 'fp8-params', 'max-tensor', 'tensor-within-node', 'memory-fraction', 'gpus-per-node', 'network', ...Object.keys(SPACE_FLAGS), 'overlap'];


const HEADLINE: Record<Extract<NodesResponseJson, { ok: true }>['mode'], string> = {
  'fewest-nodes': 'fewest nodes',
  'fastest-within-budget': 'fastest within the budget',
  'days-on-nodes': 'on',
  'cost-time-frontier': 'cheapest',
};

/**
 * Why the exported plan is for the size it is (the export's header names the size, export-header.ts): the goal's
 * answer, where the mode chose among sizes. --frontier answers a curve, not one size: the export is its cheapest, said
 * so, with how to export another.
 */
const SIZE_WHY: Record<Extract<NodesResponseJson, { ok: true }>['mode'], string | undefined> = {
  'fewest-nodes': 'the fewest nodes that meet the deadline',
  'fastest-within-budget': 'the fastest size the budget affords',
  'days-on-nodes': undefined,
  'cost-time-frontier': "the time–cost curve's cheapest size (--frontier exports only that one: for another size on the curve, run again with --nodes N in place of --frontier)",
};

/** --days: "30", or with the unit it is already in ("30d", "30 days"); what does not parse goes to the schema as given. */
const days = (v: FlagValues): number | string | undefined => numberIn(v, 'days', UNIT.days);

function fromFlags(v: FlagValues): Record<string, unknown> {
  const constraints = spaceConstraintFields(v);
  return {
    ...machineFields(v),
    training: { ...trainingFields(v), ...(v['global-batch'] === undefined && { globalBatchSize: flagDefaultBatch(v).sequences }) },
    tokens: count(v, 'tokens'),
    ...(v.days !== undefined && { days: days(v) }),
    ...(v['gpu-hours'] !== undefined && { gpuHours: count(v, 'gpu-hours') }),
    ...(v.budget !== undefined && { budget: money(v, 'budget', count) }),
    ...(v.price !== undefined && { pricePerGpuHour: money(v, 'price') }),
    ...(v.nodes !== undefined && { nodes: count(v, 'nodes') }),
    // Passed as given (not `=== true`): the flag locator finds the field by the value it sets.
    ...(v.frontier !== undefined && v.frontier !== false && { frontier: v.frontier }),
    ...(v.uptime !== undefined && { uptime: uptimeFlag(v) }),
    ...(constraints && { constraints }),
    ...(overlapSettings(v) !== undefined && { settings: overlapSettings(v) }),
  };
}

/**
 * The batch each cluster size is planned at when --global-batch is not given (nor --input), in every mode: the
 * size's own default (flagDefaultBatch: the model's published batch, else about 4M tokens, rounded so that
 * data-parallel sizes of those GPUs divide it), except where that rounding raised it more than 10% over its aim,
 * which takes the batch asked with no size instead (@trainplan/ask deadlineBatchFor: no size meets a deadline by a
 * batch inflated to fit its GPUs); and each size also at the multiple across its aim, the faster taken (QA: Llama 3
 * 8B on 112 H100 nodes took 30.8 days at its 560 sequences and 27.5 at 448). `--nodes N` plans N at the same batches
 * (and at the request's, its own default, where none of those runs there: the protocol's searchAskedSize), so that the
 * fewest nodes a deadline needs is what `--nodes` answers for that size, to the bit (QA: Llama 3 8B on H100, 15T
 * tokens: --days 30 answered 103 nodes in 29.9 days at 412 sequences, --nodes 103, at its own 515 alone, 33.6 days).
 * The assumed line says which batch the size took, with the flags that plan it at its own default where it took another.
 * Undefined when the batch was given, or the request carries none to replace (a bad --model: the run says why).
 */
function sizeBatch(v: FlagValues, request: unknown): ReturnType<typeof flagDeadlineBatchFor> | undefined {
  if (assumedBatchLine(v, request) === undefined) return undefined;
  return flagDeadlineBatchFor(v);
}

/** The checked line: what the sizes below a deadline's answer did (the search's own wording, checkedText). */
function checkedLine(c: NonNullable<Extract<NodesResponseJson, { ok: true }>['checked']>, nodes: number): string {
  const what = checkedText(c, nodes);
  const below = !c.complete ? `; sizes below ${grouped(c.fromNodes)} were not all searched`
    : c.fromNodes > 1 ? `; fewer than ${grouped(c.fromNodes)} cannot meet it even at 100% MFU` : '';
  return `  ${c.complete ? 'checked' : 'partly checked'}: ${what}${below}`;
}

/**
 * The global batch the answer's size was planned at, in sequences and in tokens, and the optimizer steps the tokens take
 * (QA: `--global-batch 4M` planned 4,000,000 sequences, 123 steps of 16.4B tokens, and no line said so): "  global batch
 * 1,536 sequences × 2,048 tokens = 3.15M tokens a step · 95,368 optimizer steps" (GPT-3 175B's 300B tokens).
 */
function batchLine(a: NodesResponseJson): string | undefined {
  const b = plannedBatch(a);
  if (b === undefined) return undefined;
  return `  global batch ${countOf(b.globalBatchSize, 'sequence')} × ${grouped(b.seqLength)} tokens = ${compactTokens(b.globalBatchSize * b.seqLength)} tokens a step`
    + ` · ${countOf(stepsOf(b), 'optimizer step')}`;
}

/**
 * A nodes answer for humans. `warning`: the batch warning (batch-warning.ts), where the batch was given (an assumed default is
 * never a token count typed as sequences), said under the batch it is about.
 */
export function formatNodesReport(a: NodesResponseJson, warning?: string): string {
  const warned = batchWarningLines(warning);
  const uptime = uptimeLine(a);
  if (!a.ok) {
    const lines = [`no answer: ${a.message}`];
    const c = a.closest;
    if (c?.nodes !== undefined) {
      lines.push(`closest feasible alternative: ${nodesText(c.nodes)}${c.days === undefined ? '' : `, ${daysText(c.days)}`}${c.gpuHours === undefined ? '' : `, ${wholeText(c.gpuHours)} GPU-hours`}${c.cost === undefined ? '' : `, cost ${costWithCurrency(c.cost)}`}`);
    }
    const batch = batchLine(a);
    return `${[...lines, ...(uptime === undefined ? [] : [uptime]), ...(batch === undefined ? [] : [batch]), ...warned, ...hintLines(a)].join('\n')}\n`;
  }
  const r = a.configuration.estimate.resolved;
  const s = a.smallest;
  // Every size is planned at the request's precision on its GPU: one denominator for the configuration and the curve.
  const peak = fp8Peak(r.gpu, r.precision);
  return [
    // A rack-scale NVLink domain (GB200 NVL72) is what is bought: the GPUs' racks beside them, where the answer counts them.
    `${HEADLINE[a.mode]}: ${nodesText(a.nodes)} (${grouped(a.gpus)} × ${r.gpu}${a.nvlinkDomains ? ` in ${nvlinkDomainsText(a.gpus, a.nvlinkDomains)}` : ''})`,
    `time to train ${formatCountCompact(a.tokens)} tokens: ${daysText(a.days)} · ${wholeText(a.gpuHours)} GPU-hours${a.cost === undefined ? '' : ` · cost ${costWithCurrency(a.cost)}`}`,
    // Every figure below (the smallest size, the curve, the hint) is at the same uptime: said once, under the first.
    ...(uptime === undefined ? [] : [uptime]),
    ...(s ? [`smallest cluster that fits: ${nodesText(s.nodes)}, ${daysText(s.days)} · ${wholeText(s.gpuHours)} GPU-hours${s.cost === undefined ? '' : ` · cost ${wholeText(s.cost)}`}${s.withinBudget ? '' : ' (over the budget)'}`] : []),
    `configuration: ${a.configuration.label}`,
    // The batch before the step it makes (and the note on the sizes searched stays beside the count it explains).
    batchLine(a)!,
    ...warned,
    `  step ${formatSeconds(a.configuration.estimate.stepTimeSeconds)} · MFU ${mfuText(a.configuration.estimate.mfu, peak)} · ${countOf(a.searches, 'cluster size')} searched`,
    ...(a.checked && a.checked.fromNodes < a.nodes ? [checkedLine(a.checked, a.nodes)] : []),
    // Nothing below was searched and the floor is further down: said, not left to read as the fewest beyond doubt.
    ...(a.checked && a.checked.fromNodes >= a.nodes && !a.checked.complete ? [`  partly checked: sizes below ${nodesText(a.nodes)} were not searched`] : []),
    // A deadline's note is the checked line's prose; a budget's (which sizes were searched) has no other line.
    // The curve's note is of its fast end: said under the table, beside the fastest (frontierLines).
    ...(a.note !== undefined && a.checked === undefined && a.frontier === undefined ? [`  ${a.note}`] : []),
    ...a.configuration.estimate.warnings.map((w) => `  ⚠ ${w}`),
    ...frontierLines(a, peak),
    ...hintLines(a),
    '',
  ].join('\n');
}

/**
 * --frontier: the curve as a table, the cheapest and the fastest named, ★ on the Pareto sizes. The search tries
 * sizes between the powers of two too (costTimeFrontier): the table shows the smallest that fits, the powers
 * of two and every ★ size; each size left out is beaten on both by a ★ one (dominance is transitive).
 */
function frontierLines(a: Extract<NodesResponseJson, { ok: true }>, peak: Fp8Peak | undefined): string[] {
  if (!a.frontier) return [];
  const costs = a.frontier.some((p) => p.cost !== undefined);
  // Each size's own batch, where sizes took different ones (the default batch grows with the cluster: 480 to 8,192 sequences).
  const batches = new Set(a.frontier.map((p) => p.globalBatchSize)).size > 1;
  const shown = a.frontier.filter((p, i) => i === 0 || p.pareto || (p.nodes & (p.nodes - 1)) === 0);
  const left = a.frontier.length - shown.length;
  const rows = [
    ['', 'nodes', 'GPUs', ...(batches ? ['batch'] : []), 'time', 'GPU-hours', ...(costs ? [costHeader('cost')] : []), ...mfuHeaders(peak), 'plan'],
    ...shown.map((p) => [
      p.pareto ? '★' : '', grouped(p.nodes), grouped(p.gpus),
      ...(batches ? [p.globalBatchSize === undefined ? '' : grouped(p.globalBatchSize)] : []), daysText(p.days), wholeText(p.gpuHours),
      ...(costs ? [p.cost === undefined ? '' : wholeText(p.cost)] : []),
      ...mfuCells(p.mfu, peak), `${p.label}${p.nodes === a.nodes ? '  ← cheapest' : p.nodes === a.fastest?.nodes ? '  ← fastest' : ''}`,
    ]),
  ];
  return [
    '',
    `time–cost curve over ${countOf(a.frontier.length, 'cluster size')} that run (★: no other size searched trains as fast for as few GPU-hours${batches ? '; batch: the global batch in sequences each size was planned at' : ''}):`,
    ...renderTable(rows, { align: ['left', 'right', 'right', ...(batches ? ['right' as const] : []), 'right', 'right', ...(costs ? ['right' as const] : []), ...mfuHeaders(peak).map(() => 'right' as const), 'left'] }),
    ...(left > 0 ? [`  ${countOf(left, 'other size')} not shown: a ★ size beats each on both time and GPU-hours`] : []),
    ...(a.note === undefined ? [] : [`  the fastest: ${a.note}`]),
  ];
}

/** runNodes's hint when the batch, not the cluster, holds the plan back (the same question at twice the batch). */
const hintLines = (a: NodesResponseJson): string[] => (a.largerBatch ? [`hint: ${a.largerBatch.message}`] : []);

export const nodesCommand: Command = requestCommand({
  name: 'nodes',
  summary: 'how many nodes train a token budget within a deadline or budget (or days on N nodes)',
  synopsis: SYNOPSIS,
  usage: USAGE,
  flags: FLAGS,
  requestFlags: REQUEST_FLAGS,
  fromFlags,
  missing: { tokens: 'the tokens to train on, e.g. --tokens 300B' },
  check: (v) => exportProblem(v) ?? moneyBudgetProblem(v) ?? overlapProblem(v) ?? uptimeProblem(v),
  answer(request, v, io) {
    const bar = progressBar(io, 'sizing');
    const progress = {
      onProgress: bar.onProgress,
      onClusterSize: (nodes: number, before: number) => bar.note(`${nodesText(nodes)} (cluster size ${before + 1})`),
    };
    // --input: the body as POST /v1/nodes plans it (@trainplan/ask runNodesBody: an omitted batch, with a model preset id,
    // is each size's default, and the answer says which in assumedGlobalBatch). A body the schema refuses runs as before,
    // for runNodes to name its fields.
    const body = v.input === undefined ? undefined : validateNodesBody(request);
    const inputBatch = body?.ok === true ? body.value.defaultBatch : undefined;
    const perSize = inputBatch === undefined ? sizeBatch(v, request) : deadlineBatchFor(inputBatch);
    const answer: NodesAnswer = body?.ok === true ? runNodesBody(body.value, progress) : runNodes(request, { ...progress, ...(perSize && { globalBatchFor: perSize }) });
    bar.done();
    // A deadline, a budget and --frontier plan each size at its own batch (runNodes): the line names the answer's; --nodes the one its size took.
    // --input says it as the answer's assumedGlobalBatch does, in the request's fields.
    const assumed = perSize === undefined ? undefined : v.input !== undefined ? inputBatchLine(answer)
      : v.nodes === undefined ? perSizeBatchLine(v, answer) : askedSizeBatchLine(v, answer);
    // The report and stderr name the request's fields by their flags (shownAnswer); --json is the API's answer.
    const shown = shownAnswer(io, answer);
    // Constraints that contradict each other rule out every size: refused as an invalid request is (no report, exit 2).
    const contradicts = contradiction(shown);
    // A batch given (--global-batch, --input) that reads as a token count typed as sequences; a default never does.
    const warned = batchWarning(io, perSize === undefined ? plannedBatch(answer) : undefined);
    // The API's answer, with what POST /v1/nodes adds to it (the uptime, always; the batch warning where a batch was given;
    // the batch assumed where none was: stderr's assumed line, in the request's fields, as the API says it).
    if (v.json === true) {
      // --input's answer is already the API's (runNodesBody); flags add the same fields to runNodes'.
      const assumedJson = assumedGlobalBatch(v, request, answer);
      const json = body?.ok === true ? answer
        : { ...withNodesExtensions(request, perSize === undefined, answer), ...(assumedJson !== undefined && { assumedGlobalBatch: assumedJson }) };
      io.stdout(`${JSON.stringify(json, null, 2)}\n`);
    } else if (typeof v.export === 'string' && answer.ok) {
      if (!exportScenario(io, v.export, answer.configuration.scenario, SIZE_WHY[answer.mode])) return EXIT.internal;
    } else if (shown.ok || (shown.reason !== 'invalid' && contradicts === undefined)) reportStream(io, v)(`${assumed === undefined ? '' : `${assumed}\n`}${formatNodesReport(shown, warned)}`);
    // The report, where it was printed, said the assumption first; an export or the JSON has no place for it. A refused
    // request planned nothing, at any batch: its issues alone are said.
    const refused = !answer.ok && (answer.reason === 'invalid' || contradicts !== undefined);
    if (assumed !== undefined && !refused && (v.json === true || (typeof v.export === 'string' && answer.ok))) io.stderr(`trainplan: ${assumed}\n`);
    if (!refused && (v.json === true || (typeof v.export === 'string' && answer.ok))) printBatchWarning(io, warned);
    // shown.ok is answer.ok (shownAnswer rewrites prose only); both are tested so that both narrow.
    if (answer.ok || shown.ok) return EXIT.ok;
    if (answer.reason === 'invalid') {
      printIssues(io, answer.issues);
      // A step longer than the tokens, at a batch the user never gave: say it was assumed, and how to plan a smaller one.
      if (perSize !== undefined && (answer.issues ?? []).some((i) => i.path === 'tokens' && /less than one optimizer step/.test(i.message))) {
        const field = v.input === undefined ? '--global-batch' : 'training.globalBatchSize';
        io.stderr(`trainplan: hint: that batch is the default assumed for this size (no ${field} given): give ${field} with fewer sequences to plan fewer tokens a step\n`);
      }
      return EXIT.usage;
    }
    if (contradicts !== undefined) {
      printError(io, contradicts);
      return EXIT.usage;
    }
    printError(io, reasonLine(shown));
    return EXIT.infeasible;
  },
});
