import type { ScenarioInput } from '@trainplan/protocol';
import type { IntentName, ParseOptions } from '../question.ts';

/** One labelled figure of an answer, already formatted for people ("Step time", "22.8 s"). */
export interface AnswerFigure {
  label: string;
  value: string;
}

/**
 * What a reply is, so a chat knows who should see it: an answer to the question (a plan, or that none fits or meets
 * the goal: `ok` tells those apart), a refusal of the question as asked (not understood, an unknown model, figures the
 * protocol rejects such as a zero batch), or the help that was asked for. Slack and Discord post answers in the
 * channel and the other two to the asker alone.
 */
export type AnswerKind = 'answer' | 'refusal' | 'help';

/**
 * A question's answer as data: every platform (terminal, Slack, Discord) renders the same fields.
 * SI numbers ride alongside the formatted figures for callers that compute with them.
 */
export interface Answer {
  intent: IntentName;
  /** Whether this answers the question, refuses it, or is the help asked for: who a chat shows it to. */
  kind: AnswerKind;
  /** False for help, questions that cannot be answered as asked, and infeasible plans. */
  ok: boolean;
  question: string;
  /** The number asked for, in one sentence. */
  headline: string;
  /** The parallel configuration behind the numbers, e.g. "TP 8 · PP 8 · DP 16 · …". */
  configuration?: string;
  /** Step time, MFU, memory per GPU, time to train… in the order they should be read. */
  figures: AnswerFigure[];
  stepTimeSeconds?: number;
  mfu?: number;
  memoryPerGpuBytes?: number;
  memoryCapacityBytes?: number;
  /** The defaults taken for facts the question did not give, as sentences. */
  assumptions: string[];
  /** Warnings, runners-up and why they lose, what was pruned. */
  notes: string[];
  /** The contract scenario the numbers are for (the widget opens it). */
  scenario?: ScenarioInput;
  widgetUrl?: string;
  /** Example questions (help answers). */
  examples: string[];
  /** The protocol's own JSON answer the figures were taken from (estimate, search, nodes, collective). */
  data?: unknown;
}

export interface AnswerOptions {
  /**
   * Where the widget is served, by the caller's own configuration: links are `${publicUrl}/#scenario=…`.
   * A server passes its public URL (TRAINPLAN_PUBLIC_URL) or the origin the request came to; null when
   * nothing serves the widget, and the answers carry no link. Left out: DEFAULT_PUBLIC_URL, where
   * `npm start` serves it with no PORT set (the CLI's default; a server should never rely on it).
   */
  publicUrl?: string | null;
  /** Candidates a configuration search may evaluate (keeps chat answers inside Slack's 3 s). */
  candidateBudget?: number;
  /** Today's UTC calendar day ('2026-11-28'), for deadlines given as a date (ParseOptions.today); ask passes it to parse. */
  today?: ParseOptions['today'];
}

/** `npm start`'s address with no PORT or HOST set: the CLI's default link base, never a server's. */
export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:8787';

/** Where the widget is served, or null when nothing serves it (answers then carry no link). */
export type PublicUrl = string | null;
