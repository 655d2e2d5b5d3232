import { runEstimate, type EstimateJson } from '@trainplan/protocol';
import type { Command } from '../command.ts';
import { commandFlags, printError, usageError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import { type FlagSpec } from '../flags.ts';
import { formatEstimateReport } from '../format/estimate-report.ts';
import { problemLines } from '../format/problems.ts';
import type { CliIo } from '../io.ts';
import { readJsonInput } from '../read-input.ts';
import { usageLine } from '../format/usage-line.ts';
import { memorySwitchEstimates } from './memory-switch-estimates.ts';

const SYNOPSIS = 'trainplan estimate --input FILE|- [--emulate] [--json]';

const FLAGS: Record<string, FlagSpec> = {
  input: { type: 'string', short: 'i', valueName: 'FILE, or - for stdin' },
  json: { type: 'boolean' },
  emulate: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** --emulate: every scenario's cluster takes communicationModel 'emulated' (the scenario's extension). */
function withEmulation(value: unknown): unknown {
  const one = (s: unknown): unknown => {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) return s;
    const scenario = s as Record<string, unknown>;
    const cluster = scenario.cluster;
    if (typeof cluster !== 'object' || cluster === null || Array.isArray(cluster)) return s;
    return { ...scenario, cluster: { ...cluster, communicationModel: 'emulated' } };
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}

const USAGE = `${usageLine(SYNOPSIS)}

Estimate the step time, throughput, MFU/HFU and memory per GPU of a training scenario (the JSON
of the scenario contract, ../shared/docs/scenario-contract.md beside the repository, with
trainplan's additions in packages/protocol/src/wire.ts), or of each scenario of a JSON array.

Options:
  -i, --input FILE|-  read the scenario, or an array of scenarios, from FILE; - reads stdin
      --emulate       cost collectives with the discrete-event emulator over the topology graph
                      (cluster.communicationModel "emulated"; add cluster.oversubscription for a
                      blocking fat tree) instead of NCCL's closed form
      --json          print the contract's JSON answer, 2-space indented (an array for an array)
  -h, --help          show this help

Without --json the report shows, per scenario, the plan, the throughput, the step time broken
down by where it goes, and the memory per GPU against its capacity.

Exit status:
  0  every scenario is feasible
  1  some scenario is infeasible (out-of-memory, indivisible) or invalid; its answer is still
     printed (ok: false with --json), and each such scenario gets one line on stderr naming
     its fields
  2  usage error, or the input cannot be read or is not JSON

The repository ships examples/scenario.json (the contract's example scenario) and
examples/scenarios.json (an array of two): the examples below read them from its root.

Examples:
  trainplan estimate --input examples/scenario.json

  trainplan estimate --input - <<'EOF'
  {"model":"llama3-8b","cluster":{"gpu":"h100-sxm","gpusPerNode":8,"nodes":1},
   "training":{"globalBatchSize":32,"microBatchSize":1,"precision":"bf16"},
   "parallelism":{"tensor":8,"pipeline":1}}
  EOF

  trainplan estimate --input examples/scenarios.json --json > /tmp/answers.json
`;

const usageFailure = (io: CliIo, message: string): number => usageError(io, SYNOPSIS, message);

export const estimateCommand: Command = {
  name: 'estimate',
  summary: 'estimate step time, throughput, MFU and memory per GPU of a training scenario',
  usage: USAGE,
  flags: FLAGS,
  async run(argv, io) {
    const flags = commandFlags(io, argv, { flags: FLAGS, usage: USAGE, synopsis: SYNOPSIS });
    if (typeof flags === 'number') return flags;
    const source = flags.values.input;
    if (typeof source !== 'string') return usageFailure(io, 'missing --input: give a scenario FILE, or - for stdin');

    const input = await readJsonInput(source, io);
    if (!input.ok) {
      printError(io, input.message);
      return EXIT.usage;
    }
    const answer = runEstimate(flags.values.emulate === true ? withEmulation(input.value) : input.value);
    if (flags.values.json === true) io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
    else {
      // An answer out of memory is reported with what each switch it leaves off would leave it needing, estimated.
      const scenarios: unknown[] = Array.isArray(input.value) ? input.value : [input.value];
      const answers: EstimateJson[] = Array.isArray(answer) ? answer : [answer as EstimateJson];
      io.stdout(formatEstimateReport(answer, answers.map((a, i) => memorySwitchEstimates(scenarios[i], a))));
    }
    const problems = problemLines(answer);
    for (const line of problems) printError(io, line);
    return problems.length === 0 ? EXIT.ok : EXIT.infeasible;
  },
};
