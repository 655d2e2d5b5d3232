/** Plain-text tables: columns padded to their widest cell, no borders, trailing spaces trimmed. */
export type Align = 'left' | 'right';

export interface TableOptions {
  /** Per column; columns without an entry are left-aligned. */
  align?: readonly Align[];
  /** Put before every line (default two spaces). */
  indent?: string;
  /** Between columns (default two spaces). */
  gap?: string;
}

/** Width in terminal cells: code points, as the report uses no wide (CJK, emoji) characters. */
export const displayWidth = (s: string): number => [...s].length;

function pad(cell: string, width: number, align: Align): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(cell)));
  return align === 'right' ? fill + cell : cell + fill;
}

export function renderTable(rows: readonly (readonly string[])[], options: TableOptions = {}): string[] {
  const { align = [], indent = '  ', gap = '  ' } = options;
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, c) => Math.max(0, ...rows.map((r) => displayWidth(r[c] ?? ''))));
  return rows.map((row) =>
    (indent + widths.map((w, c) => pad(row[c] ?? '', w, align[c] ?? 'left')).join(gap)).trimEnd(),
  );
}
