import { describe, expect, it } from 'vitest';
import { commands } from '../src/commands/index.ts';
import { HELP_WIDTH } from '../src/format/usage-line.ts';
import { generalHelp } from '../src/help.ts';

/**
 * The lines of a help wider than HELP_WIDTH columns (code points: '…', '×' and '·' take one).
 * An example command (`  trainplan …`) is exempt: it is pasted whole, and the general help quotes it.
 */
const wide = (help: string): string[] => help.split('\n')
  .filter((line) => !line.startsWith('  trainplan ') && [...line].length > HELP_WIDTH);

/**
 * Example lines that swallowed their continuation: a `\` at a template literal's line end joins the next
 * line, indentation and all, so the example shows a run of spaces mid-command instead of breaking.
 */
const joined = (help: string): string[] => help.split('\n').filter((line) => line.startsWith('  trainplan ') && /\S {3,}\S/.test(line));

/** Option lines whose flag runs into its text with no space ("--pipeline-split LISTonly these…"). */
const runTogether = (help: string): string[] => help.split('\n').filter((line) => /^\s+--[\w-]+ [A-Z][A-Z|]*[a-z]/.test(line));

describe(`every help keeps to ${HELP_WIDTH} columns`, () => {
  it.each(commands.map((c) => [c.name, c.usage]))('trainplan %s --help', (_, usage) => {
    expect(wide(usage)).toEqual([]);
    expect(joined(usage)).toEqual([]);
    expect(runTogether(usage)).toEqual([]);
  });

  it('trainplan --help', () => {
    expect(wide(generalHelp(commands))).toEqual([]);
  });
});
