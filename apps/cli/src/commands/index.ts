import type { Command } from '../command.ts';
import { askCommand } from './ask.ts';
import { collectiveCommand } from './collective.ts';
import { estimateCommand } from './estimate.ts';
import { inferenceCommand } from './inference.ts';
import { nodesCommand } from './nodes.ts';
import { presetsCommand } from './presets.ts';
import { scaleCommand } from './scale.ts';
import { searchCommand } from './search.ts';

/** Every `trainplan <command>`, in the order `trainplan --help` lists them. */
export const commands: readonly Command[] = [
  estimateCommand, collectiveCommand, askCommand,
  searchCommand, nodesCommand, scaleCommand, inferenceCommand, presetsCommand,
];

export const findCommand = (name: string): Command | undefined => commands.find((c) => c.name === name);
