import { modelById } from '@trainplan/presets';
import { compactCount } from './format.ts';
import { classify } from './classify.ts';
import { withDefaults } from './defaults.ts';
import { matchHardware } from './lexicon/hardware.ts';
import { matchModel } from './lexicon/models.ts';
import {
  HW_TOKEN, Scanner, takeAlgorithm, takeBytes, takeCollectiveOp, takeCounts, takeDeadline, takeParallelism,
  takePrecision, takeRecompute, takeSequenceParallel, takeTokens,
} from './lexicon/quantities.ts';
import type { AskParameters, ParsedQuestion } from './question.ts';

/** Questions longer than this are refused (a chat question is a line). */
export const MAX_QUESTION_LENGTH = 500;

/** Lower case, one kind of dash, no thousands separators, single spaces. */
export function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\u00d7/g, 'x')
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/[`*_"“”‘’]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/**
 * A free-form question → its intent, the facts it states and the defaults taken for the rest.
 * No language model: phrase patterns over a normalised text, each fact read once (see lexicon/).
 */
export function parse(question: string): ParsedQuestion {
  const text = question.trim().slice(0, MAX_QUESTION_LENGTH);
  const problems: string[] = [];
  if (question.trim().length > MAX_QUESTION_LENGTH) problems.push(`questions are limited to ${MAX_QUESTION_LENGTH} characters`);
  const normal = normalize(text);
  const s = new Scanner(normal);
  const stated: AskParameters = {};

  const model = matchModel(s.text);
  if (model !== undefined) {
    s.blank(model);
    if (model.model !== undefined) stated.model = model.model;
    else if (model.unknownSize !== undefined && model.unknownSize <= 0) problems.push(`a model size must be positive, got ${compactCount(model.unknownSize)} parameters`);
    else if (model.unknownSize !== undefined) problems.push(`no model preset has about ${compactCount(model.unknownSize)} parameters`);
  }
  const hardware = matchHardware(s.text);
  if (hardware !== undefined) {
    s.replace(hardware, ` ${HW_TOKEN} `);
    stated.gpu = hardware.gpu;
    if (hardware.system !== undefined) stated.system = hardware.system;
  }
  stated.tokens = takeTokens(s);
  stated.deadlineSeconds = takeDeadline(s);
  Object.assign(stated, takeParallelism(s));
  stated.precision = takePrecision(s);
  stated.recompute = takeRecompute(s);
  stated.sequenceParallel = takeSequenceParallel(s);
  stated.op = takeCollectiveOp(s);
  if (stated.op !== undefined) {
    stated.algorithm = takeAlgorithm(s);
    stated.bytes = takeBytes(s);
  }
  Object.assign(stated, takeCounts(s, hardware?.system !== undefined));
  const facts = defined(stated);

  const intent = classify(normal, facts);
  const { parameters, defaults } = withDefaults(intent, facts);
  if (hardware?.assumed !== undefined && intent !== 'help') defaults.unshift({ field: 'gpu', value: hardware.gpu, text: hardware.assumed });
  if (intent !== 'help' && intent !== 'collective' && parameters.model === undefined && model?.unknownSize === undefined) {
    problems.push('name a model: a preset id such as gpt3-175b or llama3-70b, or a size such as 175B');
  }
  if (parameters.model !== undefined && modelById(parameters.model) === undefined) problems.push(`unknown model ${parameters.model}`);
  return { text, intent, parameters, stated: facts, defaults, problems };
}
