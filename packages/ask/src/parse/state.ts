import { Scanner } from '../lexicon/quantities.ts';
import type { AskParameters, NotRead, ParseOptions } from '../question.ts';
import { normalize } from './normalize.ts';

/** Questions longer than this are refused (a chat question is a line). */
export const MAX_QUESTION_LENGTH = 500;

/**
 * "m 8", "m=8" in a question asking a pipeline bubble: its micro-batches ("8 microbatches"), as Narayanan et al. SC'21 name
 * them m, never a 8M model (QA: "bubble fraction pp=4 m=8" was refused as a 4M model, "pp 4 m" read as a size).
 */
const microBatchesOfBubble = (text: string): string =>
  (/\bbubbles?\b/.test(text) ? text.replace(/\bm\s*(?:=\s*)?(\d+)(?![\w.])/g, '$1 microbatches') : text);

/**
 * What every phase of parse() reads and adds to, in the order the phases run: the scanner consumes the text (each take
 * blanks what it read), so a phase sees only what the phases before it left.
 */
export interface ParseState {
  /** The question as typed, trimmed and clipped to MAX_QUESTION_LENGTH: what asTyped quotes from. */
  readonly text: string;
  /** The question normalised (normalize), as the patterns read it; never blanked. */
  readonly normal: string;
  /** The normalised question, blanked as each reader takes its words. */
  readonly s: Scanner;
  /** The caller's options: today, against which a deadline written as a date is read (deadline-read.ts). */
  readonly options: ParseOptions;
  /** The facts the question states, filled in phase by phase. */
  readonly stated: AskParameters;
  /** Why the question cannot be planned as asked. */
  readonly problems: string[];
  /** Words written but not planned, each with why. */
  readonly notRead: NotRead[];
  /**
   * The normalised question the intent is classified on (intent-facts.ts): `normal`, less the words of a setting that
   * hold an intent's own word ("with 90% memory" is no memory question: switches-read.ts).
   */
  readonly intentText: () => string;
  /**
   * Blanks the words of a phrase read from the intent's words, where they are (found by their text: the scanner's positions
   * move as the hardware's name is replaced by its token).
   */
  readonly hideFromIntent: (phrase: string) => void;
}

/** The state before any reader runs: the question clipped, normalised and scanned, nothing stated yet. */
export function startState(question: string, text: string, options: ParseOptions): ParseState {
  const problems: string[] = [];
  if (question.trim().length > MAX_QUESTION_LENGTH) problems.push(`questions are limited to ${MAX_QUESTION_LENGTH} characters`);
  const normal = microBatchesOfBubble(normalize(text));
  const s = new Scanner(normal);
  const stated: AskParameters = {};
  const intent = new Scanner(normal);
  const hideFromIntent = (phrase: string): void => {
    const index = intent.text.indexOf(phrase);
    if (index >= 0) intent.blank({ index, length: phrase.length });
  };
  return { text, normal, s, options, stated, problems, notRead: [], intentText: () => intent.text, hideFromIntent };
}
