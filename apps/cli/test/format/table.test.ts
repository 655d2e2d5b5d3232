import { describe, expect, it } from 'vitest';
import { displayWidth, renderTable } from '../../src/format/table.ts';

describe('renderTable', () => {
  it('pads each column to its widest cell, indents by two spaces and trims the line ends', () => {
    expect(renderTable([['a', '1'], ['bbb', '22']])).toEqual(['  a    1', '  bbb  22']);
  });

  it('right-aligns the columns asked for (numbers line up on their last digit)', () => {
    expect(renderTable([['x', '1.5 s', '5%'], ['yy', '10 s', '50%']], { align: ['left', 'right', 'right'] })).toEqual([
      '  x   1.5 s   5%',
      '  yy   10 s  50%',
    ]);
  });

  it('treats missing cells as empty and takes indent and gap from the options', () => {
    expect(renderTable([['a', 'b', 'c'], ['d']], { indent: '', gap: ' | ' })).toEqual(['a | b | c', 'd |   |']);
  });

  it.each([['█▉', 2], ['µs', 2], ['×', 1], ['abc', 3]])('measures %j as %i cells', (s, width) => {
    expect(displayWidth(s)).toBe(width);
  });
});
