import { withDefaults } from './defaults.ts';
import { todayOf } from './lexicon/calendar.ts';
import { servingBesideFineTuning } from './mixed-question.ts';
import type { ParsedQuestion, ParseOptions } from './question.ts';
// The phases in the order parse() runs them: the bundler lays their code out in import order, and phases kept near one
// another gzip smaller in the Worker bundle (each phase's lexicon is laid out just before it).
import { MAX_QUESTION_LENGTH, startState } from './parse/state.ts';
import { normalize } from './parse/normalize.ts';
import { readUnreadableNumbers } from './parse/unreadable-read.ts';
import { readModels } from './parse/models-named.ts';
import { readHardware } from './parse/hardware-named.ts';
import { readSwitches } from './parse/switches-read.ts';
import { readMfu, readSettings } from './parse/settings-read.ts';
import { resolvePrices, takePrices } from './parse/prices.ts';
import { readServing } from './parse/serving-read.ts';
import { readBudget } from './parse/budget-read.ts';
import { readDeadline } from './parse/deadline-read.ts';
import { readLayouts } from './parse/layout-read.ts';
import { readPrecision } from './parse/precision-read.ts';
import { readMemorySettings } from './parse/memory-settings-read.ts';
import { readCollective } from './parse/collective-read.ts';
import { readClusterCounts, readOneRack } from './parse/cluster-counts.ts';
import { resolveModels } from './parse/models-resolved.ts';
import { readIntent } from './parse/intent-facts.ts';
import { modelReadings } from './parse/model-readings.ts';
import { clusterReadings } from './parse/cluster-readings.ts';
import { flopBesideBudgetReadings } from './parse/flop-beside-budget.ts';
import { noteDefaults } from './parse/default-notes.ts';
import { noteUnreadNumbers } from './parse/unread-numbers-notes.ts';
import { finalProblems } from './parse/final-problems.ts';
import { planSwitches } from './parse/switches-planned.ts';
import type { Plan, Reads } from './parse/reads.ts';

export { CHINCHILLA_READING } from './parse/model-readings.ts';
export { NAME_A_MODEL } from './parse/final-problems.ts';
export { UPTIME_NOT_PLANNED } from './parse/intent-facts.ts';
export { normalize } from './parse/normalize.ts';
export { MAX_QUESTION_LENGTH } from './parse/state.ts';

/**
 * A free-form question → its intent, the facts it states and the defaults taken for the rest.
 * No language model: phrase patterns over a normalised text, each fact read once (see lexicon/). A deadline given as a
 * date ("by 31 december") is read against options.today, the caller's (the package keeps no clock); without it, said
 * not understood.
 */
export function parse(question: string, options: ParseOptions = {}): ParsedQuestion {
  // A malformed today is the caller's error, said whether or not the question gives a date.
  if (options.today !== undefined) todayOf(options.today);
  const text = question.trim().slice(0, MAX_QUESTION_LENGTH);
  // Serving and fine-tuning asked at once: the serving clause answered, the fine-tuning part said not answered.
  const besideFineTuning = servingBesideFineTuning(text, normalize);
  if (besideFineTuning !== undefined) {
    const served = parse(besideFineTuning.serving, options);
    return { ...served, text, notRead: [...(served.notRead ?? []), besideFineTuning.left] };
  }
  const st = startState(question, text, options);
  // The phases in the order their readers must run: each takes its words out of the scanned text (st.s), so that a later
  // reader never reads them again ("p4d" is an instance, never 4 days; "$3 an hour per GPU" no GPU count). Each phase
  // file says what it must come before. First the numbers no reader may take ("1e400", "NaN H100s"): refused, each said.
  readUnreadableNumbers(st);
  const models = readModels(st);
  const hardware = readHardware(st);
  const switches = readSwitches(st);
  const settings = readSettings(st, hardware);
  const taken = takePrices(st, hardware, settings);
  readMfu(st);
  const serving = readServing(st);
  const budget = readBudget(st, models);
  const deadline = readDeadline(st);
  const layouts = readLayouts(st);
  const precision = readPrecision(st, serving);
  const memory = readMemorySettings(st);
  readCollective(st);
  const cluster = readClusterCounts(st, hardware, budget);
  const prices = resolvePrices(st, taken, deadline);
  readOneRack(st, hardware);
  const resolved = resolveModels(st, models, budget, serving);
  const read: Reads = { models, hardware, settings, serving, budget, deadline, layouts, precision, memory, cluster, prices, resolved };

  const asked = readIntent(st, models, settings, precision, (clause) => parse(clause, options).stated);
  // The switches the intent's answer plans; the rest said not read (before the defaults: "recompute 4 layers" is full recompute).
  planSwitches(st, asked.intent, asked.facts, switches);
  const plan: Plan = { ...asked, ...withDefaults(asked.intent, asked.facts) };
  // How the question's own words were read, said first ("A100 taken as the 80GB part").
  const readings = [...modelReadings(st, read, plan), ...flopBesideBudgetReadings(st, read, plan), ...clusterReadings(st, read, plan)];
  if (plan.intent !== 'help') plan.defaults.unshift(...readings);
  noteDefaults(st, read, plan);
  noteUnreadNumbers(st, read, plan);
  return finalProblems(st, read, plan);
}
