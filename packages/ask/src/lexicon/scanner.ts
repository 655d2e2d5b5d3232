import type { Match } from './match.ts';

/**
 * The numbers a question carries, each found by a phrase pattern and then blanked so that the next
 * pattern cannot read the same digits twice ("2T tokens" is never also a model size).
 */
export class Scanner {
  constructor(public text: string) {}

  /** The first match of `pattern`, blanked out of the text; undefined when there is none. */
  take(pattern: RegExp): RegExpExecArray | undefined {
    const m = pattern.exec(this.text);
    if (m) this.blank({ index: m.index, length: m[0].length });
    return m ?? undefined;
  }

  /** Blanks a span found by another lookup (spaces of the same length keep word boundaries). */
  blank(span: Match): void {
    this.replace(span, ' '.repeat(span.length));
  }

  /** Replaces a span with a marker word, e.g. the hardware name with HW_TOKEN. */
  replace(span: Match, by: string): void {
    this.text = this.text.slice(0, span.index) + by + this.text.slice(span.index + span.length);
  }
}

/** The ASCII words used for a hardware name once it is found (so counts can sit next to it). */
export const HW_TOKEN = 'HW';
