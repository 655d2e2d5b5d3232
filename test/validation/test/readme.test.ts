import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blockMarkers, README_PATH, readBlock, replaceBlock, type ReadmeBlockCommand } from '../src/readme-block.ts';
import { runSections, validationReadme } from '../src/sections.ts';

/**
 * README.md's generated blocks (readme-block.ts): well formed, and the `npm run validate` one holding exactly what the
 * scoring code says now, so a change that moves a figure without rerunning `npm run validate` fails here.
 */
const readme = readFileSync(README_PATH, 'utf8');
const COMMANDS: ReadmeBlockCommand[] = ['npm run validate', 'npm run bench'];

describe('README.md generated blocks', () => {
  it.each(COMMANDS)('has one well-formed, non-empty %s block', (command) => {
    const block = readBlock(readme, command);
    expect(block.ok ? '' : block.reason).toBe('');
    expect(block.ok && block.lines.some((l) => l.trim() !== '')).toBe(true);
  });

  it('the npm run validate block is what the validation sections compute now', () => {
    const block = readBlock(readme, 'npm run validate');
    expect(block.ok && block.lines).toEqual(validationReadme(runSections()));
  });
});

describe('readBlock and replaceBlock', () => {
  const { begin, end } = blockMarkers('npm run validate');
  const doc = ['# T', 'prose', begin, 'old figure', end, 'more prose'].join('\n');

  it('replaces only the lines between the markers', () => {
    expect(replaceBlock(doc, 'npm run validate', ['new 1', 'new 2'])).toBe(['# T', 'prose', begin, 'new 1', 'new 2', end, 'more prose'].join('\n'));
  });

  it('is idempotent: writing the block it read gives the same text', () => {
    const block = readBlock(doc, 'npm run validate');
    expect(block.ok && replaceBlock(doc, 'npm run validate', block.lines)).toBe(doc);
  });

  it.each([
    ['a missing begin marker', ['x', end].join('\n')],
    ['a missing end marker', [begin, 'x'].join('\n')],
    ['a doubled begin marker', [begin, begin, 'x', end].join('\n')],
    ['markers out of order', [end, 'x', begin].join('\n')],
    ['a marker sharing its line with prose', [`see ${begin}`, 'x', end].join('\n')],
  ])('rejects %s', (_, text) => {
    expect(readBlock(text, 'npm run validate').ok).toBe(false);
    expect(() => replaceBlock(text, 'npm run validate', ['y'])).toThrow(/README\.md/);
  });

  it('keeps the two commands\' blocks apart', () => {
    const bench = blockMarkers('npm run bench');
    const both = [begin, 'v', end, bench.begin, 'b', bench.end].join('\n');
    expect(replaceBlock(both, 'npm run bench', ['B'])).toBe([begin, 'v', end, bench.begin, 'B', bench.end].join('\n'));
  });
});
