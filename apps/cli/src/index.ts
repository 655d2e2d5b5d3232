/** @trainplan/cli: the `trainplan` command line, runtime-free; bin/trainplan.mjs binds it to Node. */
export { main } from './main.ts';
export type { CliIo } from './io.ts';
export type { Command } from './command.ts';
export { commands, findCommand } from './commands/index.ts';
export { EXIT } from './exit-codes.ts';
export { VERSION } from './version.ts';
export { formatEstimateReport, BREAKDOWN_ROWS, MEMORY_ROWS } from './format/estimate-report.ts';
