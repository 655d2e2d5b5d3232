import type { ScenarioInput } from '@trainplan/protocol';
import type { IntentName } from '../question.ts';

/** One labelled figure of an answer, already formatted for people ("Step time", "22.8 s"). */
export interface AnswerFigure {
  label: string;
  value: string;
}

/**
 * A question's answer as data: every platform (terminal, Slack, Discord) renders the same fields.
 * SI numbers ride alongside the formatted figures for callers that compute with them.
 */
export interface Answer {
  intent: IntentName;
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
  /** Where the widget is served; links are `${publicUrl}/#scenario=…`. Default http://127.0.0.1:8787. */
  publicUrl?: string;
  /** Candidates a configuration search may evaluate (keeps chat answers inside Slack's 3 s). */
  candidateBudget?: number;
}

export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:8787';
