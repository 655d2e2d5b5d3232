import type { Command } from '../command.ts';
import { estimateCommand } from './estimate.ts';

/** Every `trainplan <command>`, in the order `trainplan --help` lists them. */
export const commands: readonly Command[] = [estimateCommand];

export const findCommand = (name: string): Command | undefined => commands.find((c) => c.name === name);
