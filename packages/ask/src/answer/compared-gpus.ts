import { withDefaults } from '../defaults.ts';
import { moneyText, nodesGpus } from '../format.ts';
import { modelNameOf } from '../model-of.ts';
import type { AskParameters, ClusterSize, ComparedGpu, IntentName, ParsedQuestion } from '../question.ts';
import type { Answer, AnswerFigure } from './answer-types.ts';

/**
 * A question comparing GPUs ("A100 vs H100 for 70B", "should I use H100 or A100 to train llama3-70b on 2T tokens in 30
 * days", "compare H100 and H200 …"): the question is answered as asked of each GPU, each planned on its own (its own
 * nodes, layout and batch), and the answers are set side by side, a line each: the cluster, days and GPU-hours, the
 * cost where a price is given (a training question), or the answer's own headline (serving, or a plan that fails). The
 * first GPU's plan follows in full; the others' are a question away, said so.
 */

/** The question asked of one GPU: the others dropped, its defaults taken as a question naming it alone would take them. */
export function questionOn(q: ParsedQuestion, hardware: ComparedGpu): ParsedQuestion {
  const { comparedGpus: _others, system: _system, ...rest } = q.stated;
  // Its own price where the question gave one beside it ("H100 at $2.5/hr"), else the question's.
  const stated: AskParameters = {
    ...rest, gpu: hardware.gpu, ...(hardware.system !== undefined && { system: hardware.system }),
    ...(hardware.pricePerGpuHour !== undefined && { pricePerGpuHour: hardware.pricePerGpuHour }),
  };
  return restated(q, hardware.nodes === undefined && hardware.gpus === undefined ? stated : withSize(stated, hardware));
}

/** The facts with the cluster size given in place of the question's ("512 H100 and 1024 A100": the A100's 1024). */
export function withSize(stated: AskParameters, size: ClusterSize): AskParameters {
  const { nodes: _nodes, gpus: _gpus, ...rest } = stated;
  return { ...rest, ...(size.nodes !== undefined && { nodes: size.nodes }), ...(size.gpus !== undefined && { gpus: size.gpus }) };
}

/** The question with other facts, its defaults taken again as a question stating them would take them. */
export function restated(q: ParsedQuestion, stated: AskParameters): ParsedQuestion {
  const { parameters, defaults } = withDefaults(q.intent, stated);
  return { ...q, stated, parameters, defaults };
}

/**
 * The question as `intent` with other facts, its defaults taken again, and the readings of its own words kept where the
 * field is still stated ("70B taken as Llama 3 70B"): restated for an answer asked another way (best-gpu.ts, tokens-bought.ts).
 */
export function restatedKeepingReadings(q: ParsedQuestion, stated: AskParameters, intent: IntentName = q.intent): ParsedQuestion {
  const { parameters, defaults } = withDefaults(intent, stated);
  const readings = q.defaults.filter((d) => q.stated[d.field] !== undefined && stated[d.field] !== undefined);
  return { ...q, intent, stated, parameters, defaults: [...readings, ...defaults.filter((d) => !readings.some((r) => r.field === d.field))] };
}

/** The first GPU's question as asked alone: its readings kept, the comparison dropped. */
export function firstQuestionOf(q: ParsedQuestion): ParsedQuestion {
  const { comparedGpus: _stated, ...stated } = q.stated;
  const { comparedGpus: _parameters, ...parameters } = q.parameters;
  return { ...q, stated, parameters, defaults: q.defaults.filter((d) => d.field !== 'comparedGpus') };
}

const figureOf = (a: Answer, label: string): string | undefined => a.figures.find((f) => f.label === label)?.value;

/** The headline less the "Llama 3 70B on H100 SXM5 80GB: " before what it says. */
const afterSubject = (headline: string): string => headline.replace(/^[^:]*:\s*/, '');

/** One GPU's line: the cluster, days and GPU-hours, the cost where priced, then the `more` figures named; else what its answer says. */
function lineOf(a: Answer, more: readonly string[]): string {
  const cluster = a.scenario?.cluster;
  const train = figureOf(a, 'Time to train');
  if (!a.ok || a.intent === 'serving' || train === undefined || cluster === undefined || !('nodes' in cluster) || typeof cluster.nodes !== 'number') {
    return afterSubject(a.headline);
  }
  const gpusPerNode = 'gpusPerNode' in cluster && typeof cluster.gpusPerNode === 'number' ? cluster.gpusPerNode : 8;
  const cost = figureOf(a, 'Cost')?.replace(/:.*$/, '');
  const memory = a.intent === 'memory' ? figureOf(a, 'Memory per GPU') : undefined;
  return [
    nodesGpus({ nodes: cluster.nodes, gpus: cluster.nodes * gpusPerNode }),
    ...(memory === undefined ? [] : [`${memory} per GPU`]),
    train.replace(' · ', ', '),
    ...(cost === undefined ? [] : [cost]),
    ...more.flatMap((label) => {
      const value = figureOf(a, label);
      return value === undefined || value === memory ? [] : [`${label.replace(/^Memory/, 'memory')} ${value}`];
    }),
  ].join(', ');
}

/** The answer data gpuHoursOf and costOf read: a nodes answer's, an estimate's, or a search's with its best plan. */
interface SpentData {
  readonly gpuHours?: unknown;
  readonly cost?: unknown;
  readonly timeToTrain?: { readonly gpuHours?: unknown };
  readonly best?: { readonly cost?: unknown; readonly estimate?: { readonly timeToTrain?: { readonly gpuHours?: unknown } } };
}

/** A number a line's answer carries in its protocol data (not its formatted figures), picked by `pick`; undefined when it has none. */
function spent(a: Answer, pick: (d: SpentData) => unknown): number | undefined {
  if (!a.ok || typeof a.data !== 'object' || a.data === null) return undefined;
  const value = pick(a.data as SpentData);
  return typeof value === 'number' ? value : undefined;
}

/** The GPU-hours a line's answer spends: a nodes answer's gpuHours, an estimate's or a search's best plan's time to train. */
const gpuHoursOf = (a: Answer): number | undefined =>
  spent(a, (d) => d.gpuHours ?? d.timeToTrain?.gpuHours ?? d.best?.estimate?.timeToTrain?.gpuHours);

/** The cost a line's answer spends: a nodes answer's or an estimate's cost, or a search's best plan's. */
const costOf = (a: Answer): number | undefined => spent(a, (d) => d.cost ?? d.best?.cost);

/**
 * Where each GPU was priced at its own ("A100 at $1.5/hr or H100 at $2.5/hr"), which costs less: the cheapest of the
 * answers' costs (the cheapest first, then how much less than the dearest); undefined with a price shared, or a cost missing.
 */
function ownPriceVerdict(q: ParsedQuestion, names: readonly string[], answers: readonly Answer[]): { headline: string; note: string } | undefined {
  if (q.stated.comparedGpus?.some((g) => g.pricePerGpuHour !== undefined) !== true) return undefined;
  const costs = answers.map(costOf);
  if (costs.length < 2 || !costs.every((c): c is number => c !== undefined)) return undefined;
  const money = (c: number): string => moneyText(c, q.parameters.currency);
  const low = Math.min(...costs);
  const high = Math.max(...costs);
  const cheapest = names[costs.indexOf(low)] ?? '';
  // Within half a percent: as much, said so rather than a winner by rounding.
  if (high - low < 0.005 * high) return { headline: 'both cost about as much', note: `Both cost about as much at the prices given: ${costs.map(money).join(' and ')}.` };
  const less = `${Math.round((1 - low / high) * 100)}% less`;
  return { headline: `cheaper: ${cheapest}, ${less}`, note: `${cheapest} is the cheaper at the prices given: ${money(low)} against ${money(high)}, ${less}.` };
}

/**
 * The answers for each GPU, set side by side under `names`; the first's plan after them. Or of one GPU (`of` naming it)
 * each at another cluster size (compared-sizes.ts), precision (compared-precisions.ts) or model (compared-models.ts,
 * whose `subject` says what the headline names after the names: "on H100 SXM5 80GB", not the first model), whose lines
 * add `figures` (labels of the answers' figures: "MFU", "Memory per GPU") where they differ by more than time and GPU-hours.
 */
export function sideBySide(q: ParsedQuestion, names: string[], answers: Answer[], { of = '', figures = [], subject }: { of?: string; figures?: readonly string[]; subject?: string } = {}): Answer {
  const [first] = answers;
  if (first === undefined) throw new Error('sideBySide needs an answer');
  const lines: AnswerFigure[] = answers.map((a, i) => ({ label: names[i] ?? '', value: lineOf(a, figures) }));
  const about = subject ?? `for ${modelNameOf(q.parameters)}${of === '' ? '' : ` on ${of}`}`;
  const notes: string[] = [];
  // Each GPU at its own price: which costs less, in money (GPU-hours alone do not say it), said last in the headline too.
  const cheaper = ownPriceVerdict(q, names, answers);
  if (cheaper !== undefined) notes.push(cheaper.note);
  const headline = `${names.join(' vs ')} ${about}: ${lines.map((l) => `${l.label}: ${l.value}`).join('; ')}${cheaper === undefined ? '' : `; ${cheaper.headline}`}`;
  const hours = answers.map(gpuHoursOf);
  if (hours.every((h): h is number => h !== undefined) && hours.length === 2) {
    const [a, b] = hours as [number, number];
    const fewer = a <= b ? 0 : 1;
    const ratio = Math.max(a, b) / Math.min(a, b);
    const ownPrices = q.stated.comparedGpus?.some((g) => g.pricePerGpuHour !== undefined) === true;
    const price = of !== '' ? 'at the price per GPU-hour' : ownPrices ? 'at each GPU\'s price as given'
      : q.stated.pricePerGpuHour === undefined ? 'at each GPU\'s own price per GPU-hour' : 'at the one price given, taken for both (each GPU rents at its own)';
    notes.push(ratio < 1.005
      ? `Both spend about as many GPU-hours; the cost is GPU-hours ${price}.`
      : `${names[fewer]} spends ${ratio < 1.5 ? `${Math.round((1 - 1 / ratio) * 100)}%` : `${ratio.toFixed(1)}×`} fewer GPU-hours than ${names[1 - fewer]}; the cost is GPU-hours ${price}.`);
  }
  notes.push(`The configuration and figures after the side-by-side are for ${names[0]}; for the plan of ${names.slice(1).join(' or ')} in full, ask the question naming it alone.`);
  const assumptions = [...first.assumptions];
  for (const a of answers.slice(1)) for (const x of a.assumptions) if (!assumptions.includes(x)) assumptions.push(`${x} (${names[answers.indexOf(a)]})`);
  return {
    ...first,
    ok: answers.every((a) => a.ok),
    headline,
    figures: [...lines, ...first.figures.map((f) => ({ ...f, label: `${f.label} (${names[0]})` }))],
    assumptions,
    notes: [...notes, ...first.notes],
  };
}
