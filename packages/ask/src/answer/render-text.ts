import type { Answer } from './answer-types.ts';

/** An answer as plain text for a terminal: headline, configuration, figures, assumptions, link. */
export function renderText(answer: Answer): string {
  const lines = [answer.headline];
  if (answer.configuration !== undefined) lines.push('', `Configuration: ${answer.configuration}`);
  if (answer.figures.length > 0) {
    const width = Math.max(...answer.figures.map((f) => f.label.length));
    lines.push('', ...answer.figures.map((f) => `  ${`${f.label}:`.padEnd(width + 1)}  ${f.value}`));
  }
  if (answer.assumptions.length > 0) lines.push('', 'Assumed (not in the question):', ...answer.assumptions.map((a) => `  - ${a}`));
  if (answer.notes.length > 0) lines.push('', 'Notes:', ...answer.notes.map((n) => `  - ${n}`));
  if (answer.examples.length > 0) lines.push('', 'Try:', ...answer.examples.map((e) => `  trainplan ask "${e}"`));
  if (answer.widgetUrl !== undefined) lines.push('', `Open in the widget: ${answer.widgetUrl}`);
  return `${lines.join('\n')}\n`;
}
