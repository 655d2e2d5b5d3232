import { defaultSystemForGpu, GPU_IDS, gpuById, modelById, networkById, systemById } from '@trainplan/presets';
import { defaultPrecision } from '@trainplan/protocol';
import { countOf, formatCountExact, formatSeconds } from '@trainplan/units';
import { compactCount } from './format.ts';
import { classify, inferenceReading } from './classify.ts';
import { CHINCHILLA_TOKENS_PER_PARAMETER, DEFAULT_GPU, gpusPerNodeOf, hasFixedConfiguration, withDefaults } from './defaults.ts';
import { matchHardware, matchUnmodelledHardware, type HardwareMatch } from './lexicon/hardware.ts';
import { instanceReading, KNOWN_INSTANCE_NAMES, matchInstance, unknownInstance, type InstanceMatch } from './lexicon/instances.ts';
import { customModelOfSize, SHAPE_AS_MODEL_OBJECT, sizeOrShape } from './custom-model.ts';
import { nearPresetNote } from './lexicon/preset-size-readings.ts';
import { takeServedModel, takeSpeculative } from './lexicon/speculative.ts';
import { takeStatedMfu } from './lexicon/mfu.ts';
import { type PriceReading, type StatedPrice, priceText, findUnreadPrice, otherPricesNotRead, UNPRICED_BUDGET, UNREAD_MONEY, unreadConversion, moneyBudgetProblem, resolvePrice, takeMoneyBudget, takePrice, unreadPriceProblem } from './lexicon/price.ts';
import { resolveSharding } from './sharding.ts';
import {
  HW_TOKEN, Scanner, type CountContext, type CountsRead, takeAlgorithm, takeBytes, takeCollectiveOp, takeCounts, takeDeadline, takeParallelism,
  takeDistributedOptimizer, takeGpuHours, takeNodeHours, takePrecision, takeSequenceParallel, takeTokenPhrases, takeTokens, takeZeroStage,
} from './lexicon/quantities.ts';
import type { AskParameters, ClusterSize, ComparedModel, DefaultUsed, NotRead, ParsedQuestion, ParseOptions } from './question.ts';
import { todayOf } from './lexicon/calendar.ts';
import { readDate, takeDate } from './lexicon/dates.ts';
import { takeCorrectedSize, takeOtherSize } from './lexicon/cluster-sizes.ts';
import { takeComparedPrecisions } from './lexicon/precisions.ts';
import { SUPERPOD_WHY, takeUnmodelledSettings } from './lexicon/unmodelled-settings.ts';
import { takeInNetworkReduction, takeNetwork } from './lexicon/network.ts';
import { takeUptime } from './lexicon/uptime.ts';
import { SPARE_COUNT_UNREAD, SPARE_NOT_PLANNED, spareClusterReading, spareProblem, takeSpareNodes } from './lexicon/spare-nodes.ts';
import { takeUserLoad, userBaseWhy, usersReading } from './lexicon/user-load.ts';
import { findUnreadTime, takeNamedSpan } from './lexicon/named-spans.ts';
import { servingBesideFineTuning, servingPartOf } from './mixed-question.ts';
import { COUNT_KILO, decimalCommas, spelledScales, writtenNumbers } from './lexicon/numbers.ts';
import { BARE_OFFLOAD_WHY, bareOffload, outOfScope } from './scope.ts';
import { findUnreadLength, takeCostPerMillion, takeServing, unitWord } from './lexicon/serving.ts';
import { takeKvCacheLoad, takeKvCachePrecision } from './lexicon/kv-cache.ts';
import { takeLowFloat, takeQuantizedWeights, takeWeightFormat } from './lexicon/weight-format.ts';
import { expertParallelProblem, takeExpertParallel } from './lexicon/unmodelled-moe.ts';
import { takeVisionLanguage } from './lexicon/unmodelled-architectures.ts';
import { takeRecompute } from './lexicon/recompute.ts';
import { unreadNumbers } from './lexicon/unread-numbers.ts';
import { findUnnamedLatencyBound, percentileReading, takeLatencyPercentiles, unnamedLatencyReading } from './lexicon/percentile.ts';
import { resolveDraft } from './speculative.ts';
import { comparedLayout, layoutOfFields, takeOtherLayouts } from './lexicon/layouts.ts';
import { layoutsProblem } from './compared-layouts.ts';
import { takeBareTokens } from './lexicon/bare-tokens.ts';
import { asksWhatBudgetTrains, modelSizeNotAnswered } from './lexicon/model-size-asked.ts';
import { ASKS_FP64, FP64_NOT_KEPT } from './lexicon/gpu-facts.ts';
import { FLOP_BUDGET_NOT_READ, takeFlopBudget } from './lexicon/flop-budget.ts';
import { DATA_BYTES_WHY, takeDataBytes } from './lexicon/data-bytes.ts';
import { comparedModels, MAX_COMPARED, modelsNotCompared, takeOtherModels, type ResolvedModel } from './lexicon/compared-models.ts';
import type { ModelMatch } from './lexicon/models.ts';
import type { Match } from './lexicon/match.ts';

/** How "Chinchilla-optimal" is read, said back. */
export const CHINCHILLA_READING = `Chinchilla-optimal read as ${CHINCHILLA_TOKENS_PER_PARAMETER} training tokens per parameter (Hoffmann et al. 2022, arXiv:2203.15556: compute-optimal models trained on about ${CHINCHILLA_TOKENS_PER_PARAMETER} tokens a parameter)`;

/** Words comparing two things: "vs", "or", "compare", "against", "better". */
const COMPARES = /\b(?:vs\.?|versus|or|compar\w*|against|better)\b/;

/** Intents that plan a training run, whose recompute a question may ask about. */
const TRAINING_PLANS: ReadonlySet<string> = new Set(['nodes', 'cheapest', 'time', 'config', 'memory', 'estimate']);

/** The problem of a question that plans no model it names: the one a GPU's own figures are asked with (answer/gpu-facts.ts). */
export const NAME_A_MODEL = `name a model: a preset id such as gpt3-175b or llama3-70b, or a size such as 175B, ${SHAPE_AS_MODEL_OBJECT}`;
/** Why a plan asked in FP64 is planned in another precision. */
const FP64_NOT_PLANNED = `${FP64_NOT_KEPT}; planned in the precision the assumptions name`;

/**
 * "m 8", "m=8" in a question asking a pipeline bubble: its micro-batches ("8 microbatches"), as Narayanan et al. SC'21 name
 * them m, never a 8M model (QA: "bubble fraction pp=4 m=8" was refused as a 4M model, "pp 4 m" read as a size).
 */
const microBatchesOfBubble = (text: string): string =>
  (/\bbubbles?\b/.test(text) ? text.replace(/\bm\s*(?:=\s*)?(\d+)(?![\w.])/g, '$1 microbatches') : text);

/** Questions longer than this are refused (a chat question is a line). */
export const MAX_QUESTION_LENGTH = 500;

/**
 * Lower case, one kind of dash, decimal commas as points ("2,5 days"), no thousands separators (numbers.ts' writtenNumbers reads the others: "1 000 000",
 * "1_000_000", "3x10^11"), spelt-out counts in digits (spelledScales), single spaces.
 */
export function normalize(text: string): string {
  // A decimal comma before a unit first ("2,5 days" was 5 days: the comma was a break), before thousands separators go.
  return spelledScales(writtenNumbers(decimalCommas(text.toLowerCase()))
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\u00d7/g, 'x')
    // "8xH100", "8xA100": GPUs per box before the GPU's name, spaced so the name is a word of its own.
    .replace(/(\d)x(?=dgx|gpus?\b|[a-z]{1,3}\d{2,4})/g, '$1x ')
    // "H100×512": the count after the name, spaced as "H100 x 512" is ("h100x512" was no GPU at all). Not AMD's MI300X.
    .replace(/\b(?!mi)([a-z]{1,3}\d{2,4})x(?=\d)/g, '$1 x ')
    // A thousands separator, before a scale letter too ("2,000B tokens" was 0 tokens).
    .replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
    // Counts misspelt as people type them: "bilion", "billon", "trilion", "milion" ("300 bilion tokens" was not read).
    .replace(/\b(b|tr|m)il+i?o+n(s?)\b/g, '$1illion$2')
    // "tokns", "tokenz" ("2T tokns" was no budget, and the default taken unsaid); "hw many", "how mnay", "how lnog".
    .replace(/\b(?:tokns|tokenz|toekns|tokesn|tkns)\b/g, 'tokens')
    // Units of time and nodes as fingers slip: "60 dyas" was read as no deadline at all, and the default 30 days taken.
    .replace(/\b(?:dyas|dasy|dys|dayz)\b/g, 'days')
    .replace(/\b(?:weeks?k|wekes|weks|wkes)\b/g, 'weeks')
    .replace(/\b(?:mnoths|monhts|montsh|mnths|moths)\b/g, 'months')
    .replace(/\b(?:nodse|ndoes|noeds|ndes|nods)\b/g, 'nodes')
    .replace(/\bhw (?=many|much|long)/g, 'how ')
    // "a 70-billion-parameter model", "a 2-trillion-token budget": the scale's word apart from its number, as the count patterns read it.
    .replace(/(\d)-(thousand|million|billion|trillion)\b/g, '$1 $2')
    // The maker before a GPU's name: "512 nvidia h100s" is 512 H100 (QA: "nvidia" between the count and the name left the 512
    // unread, and 128 nodes planned as "no cluster size given").
    .replace(/\bnvidia(?:'s)?[\s-]+(?=(?:tesla[\s-]+)?(?:[a-z]{1,3}\d{2,4}|dgx|hgx)(?![a-z]))/g, '')
    // Units of time in the languages a chat is often typed in, after a count: "en 10 jours", "in 10 Tagen", "30 días" (QA: "30
    // jours" was left unread and the default 30 days taken unsaid). Only after a number, where each can be nothing else.
    .replace(/(\d)\s*(?:jours?|d[ií]as?|tage?n?|giorni|dagen|dagar)\b/g, '$1 days')
    .replace(/(\d)\s*(?:semaines?|semanas?|wochen?|settimane|weken|veckor)\b/g, '$1 weeks')
    .replace(/(\d)\s*(?:mois|meses|monate?n?|mesi|maanden|m[aå]nader)\b/g, '$1 months')
    .replace(/(\d)\s*(?:heures?|horas?|stunden?|uren|timmar)\b/g, '$1 hours')
    // GPU-hours written with the GPU's name: "600k H100h" and "600k hours of H100" are "600k H100 hours" (QA: said not read,
    // and a default 128 nodes planned). Only after a count, and only "of" ("36 hours on H100" is a length on the GPUs).
    .replace(/(\d[km]?)\s*([a-z]{1,3}\d{2,4}x?)h\b/g, '$1 $2 hours')
    .replace(/(\d[km]?)\s*(?:gpu[\s-]*)?(?:hours|hrs)\s+of\s+(?:an?\s+)?([a-z]{1,3}\d{2,4}x?)s?\b(?![\s-]*(?:nodes?|gpus?|servers?|machines?|boxes|hosts?|clusters?))/g, '$1 $2 hours')
    // "in a fortnite": the game's name for the span ("a fortnight" was read as no deadline, and the default 30 days taken).
    .replace(/\bfortnite\b/g, 'fortnight')
    // A counter after the GPU's name: "H100 64台", "H100を512台で" are 64 and 512 H100 (the number was left unread beside the name).
    .replace(/\b([a-z]{1,3}\d{2,4}[a-z]*)\s*[をがの]?\s*(\d+)\s*[台张張枚個个块塊]/g, '$2 $1 ')
    // Counters of Japanese and Chinese between a count and what it counts: "512 台の H100", "512张H100" are 512 H100.
    .replace(/(\d)\s*[台张張枚個个块塊](?:\s*の)?\s*/g, '$1 ')
    // "2T トークン": tokens ("トークン" was not read, and a default budget taken).
    .replace(/\s*トークン/g, ' tokens ')
    .replace(/\bhow (?:mnay|amny|manny|mny)\b/g, 'how many')
    .replace(/\bhow (?:lnog|logn|lon|log)\b/g, 'how long')
    .replace(/[`*_"“”‘’]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim());
}

/** A number with a minus sign of its own, not a hyphen inside a name or a range ("llama3-70b", "tp-8", "2-3 weeks"). */
const NEGATIVE = /(?:^|[\s(=:,])(-\d+(?:\.\d+)?(?:[kmbt]\b)?)/;

/** Two GPUs each with a count, joined by "and" ("512 HW and 512 a100"): one of them not yet a token. */
const COUNTED = String.raw`(?<![a-z\d.])\d+k?\s*(?:x\s*)?`;
const TWO_COUNTED_GPUS = new RegExp(String.raw`${COUNTED}${HW_TOKEN}\s+and\s+${COUNTED}[a-z]|${COUNTED}[a-z][\w.-]*\s+and\s+${COUNTED}${HW_TOKEN}\b`);

/** "from 64 to 512 nodes", "from 128 to 1024 H100": a scaling range, two cluster sizes or more. */
const CLUSTER_RANGE = new RegExp(`\\bfrom\\s+(\\d+k?)\\s+(?:to|-)\\s+(\\d+k?)\\s+(${HW_TOKEN}|nodes?|gpus?)\\b`);

function rangeProblem(a: string, b: string, unit: string): string {
  const what = /^node/.test(unit) ? 'nodes' : 'GPUs';
  return `${a} and ${b} ${what} are two cluster sizes and I plan one per question: ask "how long …" on each, or run \`trainplan scale\` with the sizes (e.g. --nodes 64,128,256,512) for the step time, MFU and scaling efficiency of each`;
}

/**
 * A rack-scale system's rack (GB200 NVL72): its GPUs, one NVLink domain from the system's network preset, and
 * whether the question named the rack ("GB200 NVL72") rather than the GPU ("GB200"); undefined for any other system.
 */
function rackOf(system: string | undefined, named: string): CountContext['rack'] {
  if (system !== 'gb200-nvl72') return undefined;
  const gpus = networkById(systemById(system)?.network ?? '')?.nvlinkDomainGpus;
  return gpus === undefined ? undefined : { gpus, named: /nvl/.test(named) };
}

/** Where a number stands as a cluster size does: after "on", "with", "using", "across", "over". */
const AS_SIZE = /\b(?:on|onto|with|using|across|over)\s+(?:an?\s+)?$/;

/** A phrase as a regular expression's literal text. */
const literal = (phrase: string): string => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The numbers no reader took (lexicon/unread-numbers.ts), each with whether it stands as a cluster size; less those already
 * said: a bare number a problem or a note names ("from 64 to 512 nodes" refused as a range), a number with its word any
 * default names too ("20 gigatoken prompts" not read as a length).
 */
function leftNumbers(scanned: string, problems: readonly string[], defaults: readonly string[]): { phrase: string; asSize: boolean }[] {
  // A run of blanks is a word a reader took out ("64 ‹4090s› vs"): the number is quoted alone, as typed, never with the gap.
  return unreadNumbers(scanned).map((p) => p.split(/\s{2,}/)[0] ?? p).flatMap((phrase) => {
    const bare = !/\s/.test(phrase);
    const said = new RegExp(String.raw`(?<![\w.])${literal(phrase)}(?![\w.])`);
    if ((bare ? problems : [...problems, ...defaults]).some((t) => said.test(t.toLowerCase()))) return [];
    return [{ phrase, asSize: AS_SIZE.test(scanned.slice(0, scanned.indexOf(phrase))) }];
  });
}

/** What a count of cards or of their nodes is said in: "16 nodes of mi300x", "16 mi300x nodes", "2 3090 gpus". */
const NODE_WORDS = String.raw`nodes?|servers?|machines?|boxes|hosts?`;
const COUNT_BEFORE_CARD = new RegExp(String.raw`(?<![\w.])\d+(?:\.\d+)?k?\s*(?:x\s*)?(?:(?:${NODE_WORDS})\s+(?:of\s+)?(?:\d+\s*(?:x\s*)?)?)?$`);
const UNIT_AFTER_CARD = new RegExp(String.raw`^s?\s*(?:(?:${NODE_WORDS}|gpus?|cards?)\b|x\s*\d+(?![\w.]))`);

/**
 * An unmodelled card with the count written beside it ("64 mi300x", "64x mi300x", "16 nodes of mi300x", "16 mi300x nodes",
 * "8x 4090"): the span to blank, so that its count is never taken as the cluster size of the GPU that is modelled.
 */
function withCount(scanned: string, card: Match): Match {
  const before = COUNT_BEFORE_CARD.exec(scanned.slice(0, card.index));
  const after = UNIT_AFTER_CARD.exec(scanned.slice(card.index + card.length));
  const index = before === null ? card.index : before.index;
  return { index, length: card.index + card.length + (after?.[0].length ?? 0) - index };
}

/** "512 GPUs", "64 nodes": a cluster size as said back. */
const sizeName = (size: ClusterSize): string => (size.nodes !== undefined ? countOf(size.nodes, 'node') : countOf(size.gpus ?? 0, 'GPU'));

/** A model compared with the first, as planned: a preset, or a decoder of the size asked in its family's style (custom-model.ts). */
function resolveModel(m: ModelMatch, seqLength: number | undefined): ResolvedModel {
  if (m.model !== undefined) return { ok: true, model: { model: m.model, ...(m.assumed !== undefined && { reading: m.assumed }) } };
  if (m.unmodelled !== undefined) return { ok: false, why: m.unmodelled };
  const asked = m.askedSize ?? compactCount(m.unknownSize ?? 0);
  if (m.unknownSize === undefined || m.unknownSize <= 0) return { ok: false, why: `a model size must be positive, got ${asked} parameters` };
  if (m.shapeFamily === undefined) return { ok: false, why: `no ${m.family ?? 'preset'} preset has about ${asked} parameters` };
  const custom = customModelOfSize(m.unknownSize, asked, m.shapeFamily, seqLength);
  if (!custom.ok) return { ok: false, why: custom.problem };
  const reading = `${custom.reading}${nearPresetNote(m.family, m.nearPreset)}`;
  const model: ComparedModel = { customModel: custom.model, reading: m.namedAs === undefined ? reading : `${m.namedAs} is not a preset: ${reading}` };
  return { ok: true, model };
}

/** A cloud instance type as the hardware named: its GPU, the system preset where one models it, and how it was read. */
function instanceHardware(m: InstanceMatch): HardwareMatch {
  const { instance } = m;
  const network = instance.system === undefined ? defaultSystemForGpu(instance.gpu)?.network : undefined;
  return { index: m.index, length: m.length, gpu: instance.gpu, ...(instance.system !== undefined && { system: instance.system }), assumed: instanceReading(instance, network) };
}

/** A phrase of the normalised text as the question typed it ("$1M", not "$1m"), where the question holds it; else as normalised. */
function asTyped(text: string, phrase: string): string {
  const at = text.toLowerCase().indexOf(phrase);
  if (at >= 0) return text.slice(at, at + phrase.length);
  // Where normalize changed the characters between the words ("new year’s" → "new year s", "15–jan"): the words matched
  // with what normalize turns into a space or a hyphen between them.
  const loose = new RegExp(phrase.split(/(\s+|-)/).map((p) => (p === '-' ? '[-\u2010-\u2015\u2212]' : /^\s+$/.test(p) ? '[\\s`*_"“”‘’]+' : literal(p))).join(''), 'i');
  return loose.exec(text)?.[0] ?? phrase;
}

/** The words a reader blanked out of `before` ("in 30 days"), as they stood there: `after` is `before` with them blanked. */
function blankedOf(before: string, after: string): string {
  let start = 0;
  while (start < before.length && before[start] === after[start]) start += 1;
  let end = before.length;
  while (end > start && before[end - 1] === after[end - 1]) end -= 1;
  return before.slice(start, end).trim().replace(/\s+/g, ' ');
}

/**
 * A price for each GPU compared, in the order the GPUs and the prices are written ("which is cheaper: A100 at $1.5/hr or
 * H100 at $2.5/hr"): the first GPU's read as the question's price, the others' per GPU-hour of each, each on its own node
 * (a node-hour's price over that node's GPUs). QA: both GPUs were priced at the first, and "$2.5/hr" said not read.
 * Undefined unless there are as many prices as GPUs, in one currency, each within range: then one price is planned, the
 * others said not read, as before.
 */
function pricesOfGpus(price: PriceReading, stated: AskParameters): { first: Extract<StatedPrice, { ok: true }>; others: number[] } | undefined {
  const gpus = stated.comparedGpus;
  const each = price.each;
  if (gpus === undefined || each === undefined || each.length !== gpus.length + 1 || new Set(each.map((e) => e.currency)).size > 1) return undefined;
  const resolved = each.map((e, k) => {
    const gpu = k === 0 ? stated : gpus[k - 1]!;
    return resolvePrice(e, gpusPerNodeOf({ gpu: gpu.gpu, ...(gpu.system !== undefined && { system: gpu.system }) }));
  });
  const [first, ...others] = resolved;
  if (first?.ok !== true || !others.every((o): o is Extract<StatedPrice, { ok: true }> => o.ok)) return undefined;
  return { first, others: others.map((o) => o.perGpuHour) };
}

/** A system's name without its parenthesis: "NVIDIA DGX A100 640GB", not "… (Selene)". */
const systemName = (name: string): string => name.replace(/\s*\(.*\)$/, '');

/**
 * How the nodes asked were read, where no preset says it: "2x H100 nodes" taken as two of the GPU's usual nodes, and nodes
 * of fewer GPUs than any preset's node of that GPU ("a 4xA100 node") planned as part of one (the protocol's fabric gives
 * such a node the system's NVLink and its NICs in proportion, packages/protocol fabric-cache.ts). QA: both were planned
 * with nothing said.
 */
function nodeReadings(text: string, facts: AskParameters, times: CountsRead['timesNodes']): DefaultUsed[] {
  const out: DefaultUsed[] = [];
  const system = systemById(facts.system ?? '') ?? defaultSystemForGpu(facts.gpu ?? DEFAULT_GPU);
  if (system === undefined) return out;
  const gpu = gpuById(system.gpu)?.name.replace(/^NVIDIA\s+/, '') ?? 'GPU';
  const node = `${systemName(system.name)}, the ${gpu}'s usual node`;
  if (times !== undefined && facts.nodes === times.nodes) {
    // As typed ("2x H100 nodes"), where the text holds it; else in the normalised words, the GPU's name for its marker.
    const typed = new RegExp(String.raw`(?<![\w.])${times.nodes}\s*[x×]\s*\S+(?:\s+gpus?)?\s+\w+`, 'i').exec(text)?.[0] ?? times.written.replace(HW_TOKEN, facts.gpu ?? 'GPU');
    out.push({
      field: 'nodes', value: times.nodes,
      text: `"${typed}" read as ${countOf(times.nodes, 'node')} of ${countOf(system.gpusPerNode, 'GPU')} (${node}); say "nodes of ${times.nodes} GPUs" for nodes that hold ${times.nodes}`,
    });
  }
  const perNode = facts.gpusPerNode;
  if (perNode !== undefined && Number.isInteger(perNode) && perNode >= 1 && perNode < system.gpusPerNode) {
    out.push({
      field: 'gpusPerNode', value: perNode,
      text: `nodes of ${countOf(perNode, 'GPU')}: no system preset has ${perNode} ${gpu} a node (${node}, has ${system.gpusPerNode}); each planned as ${countOf(perNode, 'GPU')} of one, on its NVLink, with its network links in proportion`,
    });
  }
  return out;
}

/**
 * A budget in node-hours as GPU-hours, the planner's unit: node-hours × the GPUs of the node type asked (named, or the
 * GPU's usual node, gpusPerNodeOf), said so ("700k node-hours = 5.6M GPU-hours of 8-GPU nodes"). Beside a budget in
 * GPU-hours it is a second budget, said not read.
 */
function nodeHoursBudget(
  read: { nodeHours: number; written: string }, stated: AskParameters, typed: (phrase: string) => string,
): { gpuHours: number; reading: string } | { notRead: NotRead } {
  if (stated.gpuHours !== undefined) {
    // As typed where the text holds it; the GPU's marker ("700k HW node-hours") left out.
    const written = typed(read.written.replace(new RegExp(String.raw`\s*\b${HW_TOKEN}\b\s*`), ' '));
    return { notRead: { phrase: `"${written}"`, why: `a second budget beside the ${formatCountExact(stated.gpuHours)} GPU-hours, which are planned; give one` } };
  }
  const perNode = gpusPerNodeOf(stated);
  const gpuHours = read.nodeHours * perNode;
  return {
    gpuHours,
    reading: `a budget in node-hours: ${formatCountExact(read.nodeHours)} node-hours = ${formatCountExact(gpuHours)} GPU-hours of ${perNode}-GPU nodes (the budget planned in GPU-hours; never a count of nodes)`,
  };
}

/** Why an uptime stated is not planned: only the nodes search (the protocol's runNodes) takes one. */
export const UPTIME_NOT_PLANNED = 'an uptime is planned in how-many-nodes, how-long (with no layout fixed) and cheapest answers, '
  + 'whose days and GPU-hours it puts on the wall clock; this answer\'s times are at 100% uptime';

/** Whether the answer to the intent runs the nodes search, which plans an uptime (answer.ts routes the rest elsewhere). */
const plansUptime = (intent: string, facts: AskParameters): boolean =>
  intent === 'nodes' || intent === 'cheapest' || (intent === 'time' && !hasFixedConfiguration(facts));

const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

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
  const problems: string[] = [];
  if (question.trim().length > MAX_QUESTION_LENGTH) problems.push(`questions are limited to ${MAX_QUESTION_LENGTH} characters`);
  const normal = microBatchesOfBubble(normalize(text));
  const s = new Scanner(normal);
  const stated: AskParameters = {};

  // Speculative decoding first: a draft's name ("llama 3.2 1b as the draft", "a 1B draft model") is never the model to serve.
  const speculative = takeSpeculative(s);
  const served = takeServedModel(s, speculative);
  // "with 7B active parameters" stated apart from the model's size: the same model's, never read again (lexicon/models.ts).
  if (served.model?.active !== undefined) s.blank(served.model.active.span);
  // "train llava with llama3-8b", "llama3-8b as a multimodal model": the preset planned as its text decoder, said, never
  // "llava" a second model said not compared (lexicon/unmodelled-architectures.ts).
  const vision = served.model?.model === undefined ? undefined : takeVisionLanguage(s, modelById(served.model.model)?.shape.name ?? served.model.model);
  // "7B vs 13B", "llama3-8b or llama3-70b": the other models named, the first written planned first (lexicon/compared-models.ts).
  // Not beside a draft: a speculative question names two models, the draft and the one served.
  const otherModels = served.model === undefined || speculative.speculative === true || served.draftWritten !== undefined ? undefined
    : takeOtherModels(s, served.model, served.modelWritten ?? '');
  const model = otherModels?.first ?? served.model;
  // "train a 7b on 300b": the second size, no comparing word before it, the tokens trained on (lexicon/bare-tokens.ts).
  const bare = otherModels === undefined || model === undefined ? undefined : takeBareTokens(s, normal, model, otherModels.unjoined);
  // A size no preset has ("a 30B model", "llama 30b") is planned as a decoder of that size in its family's style, said so.
  let customReading: string | undefined;
  if (model !== undefined) {
    if (model.model !== undefined) stated.model = model.model;
    else if (model.unmodelled !== undefined) problems.push(model.unmodelled);
    else if (model.unknownSize !== undefined && model.unknownSize <= 0) problems.push(`a model size must be positive, got ${compactCount(model.unknownSize)} parameters`);
    else if (model.unknownSize !== undefined && model.shapeFamily === undefined) {
      problems.push(`no ${model.family ?? 'preset'} preset has about ${model.askedSize ?? compactCount(model.unknownSize)} parameters (${sizeOrShape(model.askedSize ?? compactCount(model.unknownSize))})${nearPresetNote(model.family, model.nearPreset)}`);
    }
  }
  // "with 8-way expert parallelism", "EP=8": an MoE's, declined as one (lexicon/unmodelled-moe.ts), its count never a cluster
  // size. Said once where the model named is declined already (as an MoE, or another model no preset has).
  const expertParallel = takeExpertParallel(s, text);
  if (expertParallel !== undefined && model?.unmodelled === undefined) problems.push(expertParallelProblem(asTyped(text, expertParallel)));
  // A cloud instance type first ("128 p4d nodes", "16 p5.48xlarge"): a node of 8 GPUs, never "4 d[ays]" out of "p4d".
  const instance = matchInstance(s.text);
  const unknownType = unknownInstance(s.text);
  if (unknownType !== undefined) {
    problems.push(`${unknownType} is not a cloud instance type I know (I read ${KNOWN_INSTANCE_NAMES.join(', ')}): name the GPU and the nodes instead, `
      + 'e.g. "4 nodes of 8 H100"');
  }
  // An accelerator no preset models is named back, never read as the nearest preset.
  const unmodelled = instance === undefined ? matchUnmodelledHardware(s.text) : undefined;
  // Beside a GPU a preset models ("on 64 H100? I also own a 4090", "H100 vs MI300X"), the question is answered for that
  // one and the other said as not modelled; alone, it is the answer (QA: the whole question was refused for the aside).
  const besideModelled = unmodelled !== undefined
    && matchHardware(s.text.slice(0, unmodelled.index) + ' '.repeat(unmodelled.length) + s.text.slice(unmodelled.index + unmodelled.length)) !== undefined;
  const unmodelledWhy = unmodelled === undefined ? ''
    : `${unmodelled.name} is not modelled${unmodelled.modelled === undefined ? '' : `: ${unmodelled.modelled}`}; the GPU presets are ${GPU_IDS.join(', ')}`;
  // The card's own count goes with it ("64 mi300x or 8 h100": QA planned 64 H100 against 8, the 64 the MI300X's).
  const aside = unmodelled !== undefined && besideModelled ? withCount(s.text, unmodelled) : undefined;
  const unmodelledAside = aside === undefined ? undefined : `"${asTyped(text, s.text.slice(aside.index, aside.index + aside.length).trim().replace(/\s+/g, ' '))}"`;
  if (unmodelled !== undefined) {
    if (aside !== undefined) s.blank(aside);
    else {
      s.replace(unmodelled, ` ${HW_TOKEN} `);
      problems.push(unmodelledWhy);
    }
  }
  const hardware = instance !== undefined ? instanceHardware(instance) : unmodelled === undefined || besideModelled ? matchHardware(s.text) : undefined;
  // "8 GB200 NVL72" counts racks of 72 GPUs; "72 GB200" counts GPUs (a GB200 tray, the preset's node, holds 4).
  const rack = hardware === undefined ? undefined : rackOf(hardware.system, s.text.slice(hardware.index, hardware.index + hardware.length));
  if (hardware !== undefined) {
    s.replace(hardware, ` ${HW_TOKEN} `);
    stated.gpu = hardware.gpu;
    if (hardware.system !== undefined) stated.system = hardware.system;
    // The same GPU named again ("512 H100 vs 1024 H100", "512 H100, no wait, 1024 H100"): one GPU, its counts two sizes (cluster-sizes.ts).
    for (let again = matchHardware(s.text); again !== undefined && again.gpu === hardware.gpu; again = matchHardware(s.text)) s.replace(again, ` ${HW_TOKEN} `);
  }
  // "A100 vs H100 for 70B", "H100 or A100", "compare H100 and H200": a second GPU compared with the first, answered beside it.
  // The GPU named first is answered first, whichever the lexicon's order finds first ("H100 or A100": H100, then A100).
  // Two instance types compare as their GPUs do ("p4d vs p5": A100 40GB beside H100).
  const otherInstance = instance !== undefined && COMPARES.test(s.text) ? matchInstance(s.text) : undefined;
  // "512 H100 and 512 A100": two GPUs each counted compare as "vs" does (only the last was planned).
  const other = hardware === undefined || !(COMPARES.test(s.text) || TWO_COUNTED_GPUS.test(s.text)) ? undefined
    : instance === undefined ? matchHardware(s.text) : otherInstance === undefined ? undefined : instanceHardware(otherInstance);
  const compared = other !== undefined && hardware !== undefined && other.gpu !== hardware.gpu
    ? (other.index < hardware.index ? [other, hardware] : [hardware, other])
    : undefined;
  if (other !== undefined && compared !== undefined) {
    s.replace(other, ` ${HW_TOKEN} `);
    // "512 H100 or 512 H200 or 512 B200": a third GPU and on compared too (QA: the third was dropped unsaid). The lexicon
    // finds GPUs in its own order; all are put in the question's, so that the sizes written beside them (in the
    // question's order too) go each to its own GPU. A replacement shifts only the text after it, so indices found
    // before and after one keep their order.
    const found = [...compared];
    for (let more = matchHardware(s.text); more !== undefined; more = matchHardware(s.text)) {
      s.replace(more, ` ${HW_TOKEN} `);
      if (!found.some((g) => g.gpu === more.gpu)) found.push(more);
    }
    const [first, ...rest] = found.sort((a, b) => a.index - b.index);
    stated.gpu = first!.gpu;
    if (first!.system !== undefined) stated.system = first!.system;
    else delete stated.system;
    stated.comparedGpus = rest.map((g) => ({ gpu: g.gpu, ...(g.system !== undefined && { system: g.system }) }));
  }
  // Before the settings no plan models, which would say "95% availability" not read: the share of time spent training.
  const uptime = takeUptime(s);
  if (uptime?.ok === true) stated.uptime = uptime.uptime;
  else if (uptime !== undefined) problems.push(uptime.problem);
  // Spare nodes ("with 8 spare nodes", "5% headroom for failures"): before the settings no plan models, whose "failures" it
  // holds (lexicon/spare-nodes.ts). A count of nodes reserved or spare with no word adding it ("16 nodes reserved on AWS",
  // "on our 8 spare nodes") is left to the counts as the cluster, said below.
  const spareRead = takeSpareNodes(s);
  const spare = spareRead.spare;
  const spareRefused = spare === undefined ? undefined : spareProblem(spare, asTyped(text, spare.written));
  if (spareRefused !== undefined) problems.push(spareRefused);
  // "5.76e23 FLOPs": a training compute, its digits never a count (lexicon/flop-budget.ts); said not read below where no
  // compute-optimal size is asked.
  const flopBudget = takeFlopBudget(s);
  // Before any count or duration: "at 700W" is power, never 700 weeks; "90% goodput" no percentage read elsewhere.
  const notRead: NotRead[] = takeUnmodelledSettings(s, (phrase) => asTyped(text, phrase));
  if (unmodelledAside !== undefined) notRead.push({ phrase: unmodelledAside, why: `${unmodelledWhy}: the plan is for the GPU named beside it` });
  if (spareRead.unread !== undefined) notRead.push({ phrase: `"${asTyped(text, spareRead.unread)}"`, why: SPARE_COUNT_UNREAD });
  // Before counts and speeds: "1 NIC per node" is no GPU count, "over HDR InfiniBand" the network between nodes.
  const network = takeNetwork(s);
  if (network !== undefined && 'network' in network) stated.network = network.network;
  else if (network !== undefined) notRead.push({ phrase: `the network "${asTyped(text, network.unread)}"`, why: network.why });
  // Before any count or duration: "$3 an hour per GPU" holds an hour and a GPU of its own. An hour's price beside an
  // instance type ("128 p4d nodes at $32.77/hr") is the instance's, a node-hour, as cloud providers list it.
  const taken = takePrice(s);
  const price = taken?.per === 'hour' && instance !== undefined ? { ...taken, per: 'node-hour' as const, of: instance.instance.name } : taken;
  const moneyBudget = takeMoneyBudget(s);
  // Money or a rate per hour neither took ("2 per hour"): said, never ignored (a cost question would lose its cost unsaid).
  // With a price read, the money left is said not read instead (QA: "with 5M GPU hours and $1M at $2/GPU-hour" dropped the $1M).
  const unreadPrice = findUnreadPrice(s.text);
  if (unreadPrice !== undefined && price === undefined) problems.push(unreadPriceProblem(asTyped(text, unreadPrice)));
  else if (unreadPrice !== undefined) notRead.push({ phrase: `"${asTyped(text, unreadPrice)}"`, why: UNREAD_MONEY });
  const mfu = takeStatedMfu(s);
  if (mfu?.ok === true) stated.mfu = mfu.mfu;
  else if (mfu !== undefined) problems.push(mfu.problem);
  // Before the precision: "fp8 kv cache" is the cache's format, never the weights'. A "16-bit" cache is the GPU's 16-bit format.
  const kvGpu = gpuById(stated.gpu ?? DEFAULT_GPU);
  const kvCache = takeKvCachePrecision(s, kvGpu === undefined ? 'bf16' : defaultPrecision(kvGpu));
  stated.kvCachePrecision = kvCache?.kvCachePrecision;
  if (kvCache?.problem !== undefined) problems.push(kvCache.problem);
  // Before the bounds: "p99 ttft 500ms" is a bound on the time to first token, its percentile said (the model's latencies are means).
  const percentiles = takeLatencyPercentiles(s);
  // Before token counts: "generate 512 tokens" is an output length, never a training budget.
  // Before the lengths: "per 1M output tokens" is a cost's unit, never an output of 1M tokens.
  const perMillion = takeCostPerMillion(s);
  Object.assign(stated, takeServing(s));
  // A KV cache held "for 32 requests of 8k tokens", "at 2048 tokens": the sequences at once and each one's context (kv-cache.ts).
  Object.assign(stated, takeKvCacheLoad(s, normal));
  // Users at once in other words or at a scale ("1M active users"); a user base ("1M monthly users") said not a load (lexicon/user-load.ts).
  const users = takeUserLoad(s, stated.concurrency !== undefined);
  if (users.concurrency !== undefined) stated.concurrency = users.concurrency;
  notRead.push(...users.userBases.map((b) => ({ phrase: `"${asTyped(text, b)}"`, why: userBaseWhy(asTyped(text, b)) })));
  // A length no pattern read, seen before the training budget's patterns take its number ("2e6 token prompts").
  const unreadLength = findUnreadLength(s.text);
  const unnamedLatency = findUnnamedLatencyBound(s);
  stated.gpuHours = takeGpuHours(s);
  // "700k node-hours": a budget, made GPU-hours once the counts say the node (below), never 700k nodes.
  const nodeHours = takeNodeHours(s);
  Object.assign(stated, takeTokenPhrases(s, stated.seqLength !== undefined));
  // "2TB of text": a size in bytes, never a token count; said not read (below), never dropped unsaid. Not a collective's message.
  const dataBytes = takeCollectiveOp(new Scanner(s.text)) === undefined ? takeDataBytes(s) : undefined;
  if (dataBytes !== undefined) notRead.push({ phrase: `"${asTyped(text, dataBytes)}"`, why: DATA_BYTES_WHY });
  stated.tokens = takeTokens(s);
  // The bare size is the budget only where none is written with its "tokens" word; else said not read, as a model named apart.
  const bareTokens = bare !== undefined && stated.tokens === undefined && stated.tokensPerParameter === undefined ? bare : undefined;
  if (bareTokens !== undefined) stated.tokens = bareTokens.tokens;
  // "Chinchilla-optimal", "compute-optimal": 20 tokens per parameter (Hoffmann et al. 2022), where no budget is given.
  const chinchilla = s.take(/\b(?:chinchilla|compute)[\s-]*optimal\b|\bchinchilla\b(?![\s-]*(?:70b|scaling))/) !== undefined
    && stated.tokens === undefined && stated.tokensPerParameter === undefined;
  if (chinchilla) stated.tokensPerParameter = CHINCHILLA_TOKENS_PER_PARAMETER;
  // "Within a fortnight", "over the weekend" before the units: "a quarter" is never left to a default 30 days.
  const beforeLength = s.text;
  const length = takeNamedSpan(s) ?? takeDeadline(s);
  // "by 31 december", "by end of month": the days to the date from the caller's today (lexicon/dates.ts); without today,
  // or a date written 1/2/2027 (month or day first?), read only to say it was not understood, never guessed as a length.
  // Beside a length ("in 30 days by 31 december"), the length is planned and the date said as a second deadline.
  const lengthWritten = length === undefined ? undefined : blankedOf(beforeLength, s.text);
  const secondDate = lengthWritten === undefined ? undefined : takeDate(s);
  if (secondDate !== undefined) {
    notRead.push({ phrase: `"${asTyped(text, secondDate.phrase)}"`, why: `a second deadline; "${asTyped(text, lengthWritten ?? '')}" is planned, say one` });
  }
  const date = length === undefined ? takeDate(s) : undefined;
  const dated = date === undefined || options.today === undefined ? undefined : readDate(date, options.today, asTyped(text, date.phrase));
  if (dated !== undefined && 'problem' in dated) problems.push(dated.problem);
  const deadline = length ?? (dated?.ok === true ? dated.deadline : undefined);
  const dateDeadline = date !== undefined && (dated === undefined || 'unread' in dated) ? asTyped(text, date.phrase) : undefined;
  const unreadTime = deadline === undefined && date === undefined ? findUnreadTime(s.text) : undefined;
  stated.deadlineSeconds = deadline?.seconds;
  // Other layouts first ("tp 8 pp 8 or tp 4 pp 16"): takeParallelism reads the first, never the first size of each.
  const otherLayouts = takeOtherLayouts(s);
  Object.assign(stated, takeParallelism(s, stated.seqLength !== undefined));
  if (otherLayouts.length > 0) {
    const first = layoutOfFields(stated);
    // One layout said twice ("tp=8 (tensor parallel 8)") is one, not a comparison with itself.
    const layouts = [first, ...otherLayouts.map((l) => comparedLayout(first, l))];
    const distinct = layouts.filter((l, i) => layouts.findIndex((m) => JSON.stringify(m) === JSON.stringify(l)) === i);
    if (distinct.length > 1) stated.layouts = distinct;
  }
  // A context left unread ("a 1 gigatoken context"): seen once takeParallelism has read the ones it can.
  const unreadContext = findUnreadLength(s.text);
  stated.precision = takePrecision(s);
  // "in fp64", "double precision": a precision no plan runs in (lexicon/gpu-facts.ts FP64_NOT_KEPT), said not read below
  // where a run is planned, never planned in BF16 unsaid (QA: "train llama3-8b in fp64 on 64 H100").
  const fp64 = s.take(ASKS_FP64);
  // "is fp8 faster than bf16", "does fp8 help": both precisions planned, side by side (lexicon/precisions.ts).
  // Not beside GPUs compared ("fp8 on H100 vs A100"): one comparison a question, the GPUs'.
  if (stated.comparedGpus === undefined) stated.comparedPrecisions = takeComparedPrecisions(s, stated.precision, normal, kvGpu === undefined ? 'bf16' : defaultPrecision(kvGpu));
  // "is nvfp4 faster than fp8": a format not modelled beside one that is, said rather than dropped for it.
  const weightFormat = stated.precision === undefined ? takeWeightFormat(s) : takeLowFloat(s);
  if (weightFormat !== undefined && 'problem' in weightFormat) problems.push(weightFormat.problem);
  else if (weightFormat !== undefined) stated.precision = weightFormat.precision;
  const zero = takeZeroStage(s);
  stated.zeroStage = zero?.stage;
  const recompute = takeRecompute(s);
  stated.recompute = recompute.recompute;
  if (recompute.conflict !== undefined) {
    notRead.push({ phrase: `"${asTyped(text, recompute.conflict.other)}"`, why: `contradicts "${asTyped(text, recompute.conflict.read)}", which is planned; say one` });
  }
  stated.sequenceParallel = takeSequenceParallel(s);
  stated.distributedOptimizer = takeDistributedOptimizer(s);
  stated.op = takeCollectiveOp(s);
  if (stated.op !== undefined) {
    // "with SHARP", "with CollNet": before the algorithm, whose "nvls" and "tree" it never holds.
    stated.collnet = takeInNetworkReduction(s);
    stated.algorithm = takeAlgorithm(s);
    stated.bytes = takeBytes(s);
  } else if (takeInNetworkReduction(s) === true) {
    // A plan "with SHARP": CollNet is costed for a collective asked alone (`trainplan collective --collnet`); a training
    // plan's reductions are NCCL's default, CollNet off. Said, never dropped unsaid (QA: the plan came back silent on it).
    notRead.push({ phrase: '"with SHARP" (CollNet)', why: 'in-network reduction is modelled for a collective asked alone ("all-reduce 1 GiB on 4 DGX H100 with SHARP"); this plan\'s reductions are costed as NCCL runs them by default, without it' });
  }
  // "512 H100, no wait, 1024 H100": the last size taken. "is 512 or 1024 H100 cheaper": two cluster sizes compared, of which
  // takeCounts would keep one and drop the other unsaid.
  const corrected = takeCorrectedSize(s);
  const otherSizes = takeOtherSize(s);
  const range = CLUSTER_RANGE.exec(s.text);
  if (range !== null) problems.push(rangeProblem(range[1] ?? '', range[2] ?? '', range[3] ?? ''));
  // "16 H100 instances": an instance of a GPU alone says not how many GPUs it holds; read as one each, said so.
  const gpuInstances = instance === undefined && hardware !== undefined && hardware.system === undefined
    ? new RegExp(String.raw`(?<![\w.])(\d+)\s*${HW_TOKEN}\s*(?:gpu\s*)?(?:instances?|vms?)\b`).exec(s.text) ?? undefined
    : undefined;
  const counts = takeCounts(s, {
    nodeNamed: hardware?.system !== undefined || instance !== undefined, ...(rack !== undefined && { rack }),
    ...(hardware !== undefined && { nodeGpus: gpusPerNodeOf(stated) }),
  });
  Object.assign(stated, counts.counts);
  const nodeHoursRead = nodeHours === undefined ? undefined : nodeHoursBudget(nodeHours, stated, (phrase) => asTyped(text, phrase));
  if (nodeHoursRead !== undefined && 'notRead' in nodeHoursRead) notRead.push(nodeHoursRead.notRead);
  else if (nodeHoursRead !== undefined) stated.gpuHours = nodeHoursRead.gpuHours;
  // Counted as the first is where its unit is the GPU's name ("512 or 1024 DGX H100": nodes, as "512 DGX H100" is).
  const sizes: ClusterSize[] = otherSizes.map((o) => (o.unit === 'nodes' || (o.unit === 'named' && counts.counts.nodes !== undefined && counts.counts.gpus === undefined)
    ? { nodes: o.count } : { gpus: o.count }));
  const againstGpus = stated.comparedGpus ?? [];
  if (againstGpus.length > 0 && sizes[0] !== undefined) {
    // Each GPU compared takes the size written beside it, in the question's order ("512 H100 or 1024 H200 or 2048 B200");
    // one left without a size is planned at the first's.
    againstGpus.forEach((gpu, k) => { if (sizes[k] !== undefined) Object.assign(gpu, sizes[k]); });
    if (sizes.length > againstGpus.length) {
      notRead.push({ phrase: sizes.slice(againstGpus.length).map(sizeName).join(', '), why: 'more sizes than GPUs compared; give one size beside each GPU' });
    }
  } else {
    const differing = sizes.filter((size, i) => (size.nodes !== stated.nodes || size.gpus !== stated.gpus)
      && sizes.findIndex((o) => o.nodes === size.nodes && o.gpus === size.gpus) === i);
    if (differing.length > 0) stated.comparedSizes = differing.slice(0, MAX_COMPARED - 1);
    const left = differing.slice(MAX_COMPARED - 1);
    if (left.length > 0) notRead.push({ phrase: left.map(sizeName).join(', '), why: `not compared: at most ${MAX_COMPARED} cluster sizes a question are set side by side; ask again for these` });
  }
  // A number left beside the GPU's name ("512 のH100" in a script no counter reads): never "no cluster size given" unsaid.
  const besideGpu = hardware === undefined || Object.keys(counts.counts).length > 0 ? undefined
    : new RegExp(String.raw`(?<![\w.])(\d+(?:\.\d+)?k?)\s*[^\w\s]{0,3}\s*${HW_TOKEN}\b|\b${HW_TOKEN}\s*[^\w\s]{0,3}\s*(\d+(?:\.\d+)?k?)(?![\w.])`).exec(s.text) ?? undefined;
  // "1.5 GB200 racks" is 108 GPUs, a whole count: the fraction shows only in the racks written (whole-counts.ts).
  if (counts.racks !== undefined) stated.racks = counts.racks;
  if (counts.perRack !== undefined) {
    notRead.push({ phrase: `"${asTyped(text, counts.perRack)}"`, why: 'not modelled: how nodes are racked; the network preset fixes the topology (a fat tree of the nodes asked)' });
  }
  // GPUs compared, a price each ("A100 at $1.5/hr or H100 at $2.5/hr"): each GPU at its own, in the order written.
  const pricedEach = price === undefined ? undefined : pricesOfGpus(price, stated);
  // Per GPU-hour once the node is known ("$98 per node-hour" over its GPUs).
  const priced = price === undefined ? undefined : pricedEach?.first ?? resolvePrice(price, gpusPerNodeOf(stated));
  if (priced?.ok === true) {
    stated.pricePerGpuHour = priced.perGpuHour;
    stated.currency = priced.currency;
    if (pricedEach !== undefined) pricedEach.others.forEach((perGpuHour, k) => Object.assign(stated.comparedGpus?.[k] ?? {}, { pricePerGpuHour: perGpuHour }));
    // Prices beside the one planned: said not read, never dropped (QA: "$20 an hour at $2/GPU-hour").
    else notRead.push(...otherPricesNotRead(price!, priced.perGpuHour, (phrase) => asTyped(text, phrase)));
  } else if (priced !== undefined) problems.push(priced.problem);
  // "$2.1/gpu-h in EUR": no conversion, said.
  const conversion = price === undefined ? undefined : unreadConversion(s.text, price.currency, (phrase) => asTyped(text, phrase));
  if (conversion !== undefined) notRead.push(conversion);
  const budgetProblem = moneyBudget === undefined ? undefined : moneyBudgetProblem(moneyBudget, priced);
  // A money budget with no price beside another goal (a deadline, GPU-hours): that goal answered, the budget said not weighed
  // (QA: "… in 30 days, budget 3M dollars" refused the whole question for want of a price). Alone, it is the question's only
  // goal, and the problem says what to give.
  const unpricedBudget = moneyBudget !== undefined && price === undefined && budgetProblem !== undefined && moneyBudget.amount > 0
    && (stated.deadlineSeconds !== undefined || stated.gpuHours !== undefined || date !== undefined);
  if (unpricedBudget) notRead.push({ phrase: `"${asTyped(text, moneyBudget.written)}"`, why: UNPRICED_BUDGET });
  else if (budgetProblem !== undefined) problems.push(budgetProblem);
  else if (moneyBudget !== undefined) {
    stated.costBudget = moneyBudget.amount;
    stated.currency ??= moneyBudget.currency;
  }
  // "a GB200 NVL72", "one NVL72 rack": one rack, 72 GPUs.
  if (rack?.named === true && stated.gpus === undefined && stated.nodes === undefined && /\b(?:a|one|single)\s+(?:dgx[\s-]*)?(?:gb200[\s-]*)?nvl/.test(normal)) stated.gpus = rack.gpus;
  // Shaped once the counts are read: a stated sequence length is the model's ("a 30B model with seq 8192").
  if (model?.model === undefined && model?.unknownSize !== undefined && model.unknownSize > 0 && model.shapeFamily !== undefined) {
    const custom = customModelOfSize(model.unknownSize, model.askedSize ?? compactCount(model.unknownSize), model.shapeFamily, stated.seqLength);
    if (custom.ok) {
      stated.customModel = custom.model;
      customReading = custom.reading;
    } else problems.push(custom.problem);
  }
  // The other models compared: compared where nothing else is (one comparison a question); each one not compared said,
  // never dropped unsaid.
  // A model named apart from the compared run ("train llama3-8b on 64 H100, also llama3-70b"): said, never dropped unsaid.
  // Nor a count of users ("1B active users"), read as a load or a user base (lexicon/user-load.ts).
  const unjoined = otherModels?.unjoined.filter((o) => o !== bareTokens?.mention && !users.counts.includes(o.written)) ?? [];
  if (unjoined.length > 0) {
    notRead.push(...modelsNotCompared(unjoined.map((o) => asTyped(text, o.written)), 'no word compares it with the first; ask again naming it, or "A vs B"'));
  }
  if (otherModels !== undefined && otherModels.others.length > 0) {
    const others = otherModels.others.map((o) => ({ ...o, written: asTyped(text, o.written) }));
    const written = others.map((o) => o.written);
    const other = stated.comparedGpus !== undefined ? 'GPUs' : stated.comparedSizes !== undefined ? 'cluster sizes'
      : stated.comparedPrecisions !== undefined ? 'precisions' : stated.layouts !== undefined ? 'layouts' : undefined;
    if (other !== undefined) notRead.push(...modelsNotCompared(written, `one comparison a question, and this one compares ${other}; ask again naming it`));
    else {
      const compared = comparedModels(others, (m) => resolveModel(m, stated.seqLength));
      if (compared.models.length > 0) stated.comparedModels = compared.models;
      notRead.push(...compared.notRead);
    }
  }
  // The draft is read against the model to serve: its vocabulary, its size ("a 1B draft" for Llama 3 70B is Llama 3.2 1B).
  problems.push(...speculative.problems);
  const draftWritten = speculative.draftWritten ?? served.draftWritten;
  const draft = draftWritten === undefined ? undefined : resolveDraft(draftWritten, stated);
  if (draft?.ok === true) stated.draftModel = draft.id;
  else if (draft !== undefined) problems.push(draft.problem);
  Object.assign(stated, { speculative: speculative.speculative, draftTokens: speculative.draftTokens, acceptanceRate: speculative.acceptanceRate });
  const asked = defined(stated);

  const intent = classify(normal, asked);
  // Training and serving asked at once: the serving part answered, with no training figure; the training part said left.
  // Each part's cluster read from its own clause, as a question of its own (a clause holds no boundary: no deeper split).
  const servingPart = servingPartOf(normal, intent, asked, (clause) => parse(clause, options).stated);
  const facts = servingPart?.facts ?? asked;
  // "A quantized llama 3 70b" served: FP8 weights, said (lexicon/weight-format.ts), never BF16 unsaid.
  const quantized = intent === 'serving' && facts.precision === undefined ? takeQuantizedWeights(s) : undefined;
  if (quantized !== undefined) facts.precision = quantized.precision;
  // A collective or a rate of GPUs is no model's plan: models compared are said, not answered.
  if (facts.comparedModels !== undefined && (intent === 'collective' || intent === 'rate')) {
    notRead.push(...modelsNotCompared(otherModels?.others.map((o) => asTyped(text, o.written)) ?? [], 'a collective or a rate is answered of the GPUs, not of a model'));
    delete facts.comparedModels;
  }
  if (servingPart !== undefined) notRead.push(servingPart.left);
  // Of a model's plan only: a GPU's own figures asked ("h100 double-precision throughput") say it in their answer (answer/fp64-note.ts).
  const plansModel = facts.model !== undefined || facts.customModel !== undefined;
  if (fp64 !== undefined && plansModel && (TRAINING_PLANS.has(intent) || intent === 'serving')) notRead.push({ phrase: `"${asTyped(text, fp64[0])}"`, why: FP64_NOT_PLANNED });
  // Spares are added where the answer sizes the cluster (answer/spare-nodes.ts); elsewhere said not read.
  if (spare !== undefined && spareRefused === undefined && intent !== 'nodes' && intent !== 'cheapest') notRead.push({ phrase: `"${asTyped(text, spare.written)}"`, why: SPARE_NOT_PLANNED });
  // The uptime is planned where the nodes search answers (nodes, cheapest, and how long with no layout fixed); elsewhere the
  // answer's times are at 100%, said so rather than dropped.
  if (uptime?.ok === true && facts.uptime !== undefined && !plansUptime(intent, facts)) {
    notRead.push({ phrase: `"${asTyped(text, uptime.written)}"`, why: UPTIME_NOT_PLANNED });
    delete facts.uptime;
  }
  const { parameters, defaults } = withDefaults(intent, facts);
  // How the question's own words were read, said first ("A100 taken as the 80GB part").
  const readings: DefaultUsed[] = [];
  if (chinchilla) readings.push({ field: 'tokensPerParameter', value: CHINCHILLA_TOKENS_PER_PARAMETER, text: CHINCHILLA_READING });
  const asServing = intent === 'serving' ? inferenceReading(normal, facts) : undefined;
  // The cue as typed ("per 1M output tokens", not the normalised "per 1m output tokens").
  if (asServing !== undefined) readings.push({ field: 'model', value: facts.model ?? 'custom', text: asServing.replace(/"([^"]+)"/, (_m, cue: string) => `"${asTyped(text, cue)}"`) });
  // The serving answer prices output tokens (the GPUs' time over the tokens they generate, prefill included): "per million
  // tokens" and "per million input tokens" said as read so.
  // A price of input tokens is declined, never answered with output's (QA: "price per million input tokens" was the output
  // price, an assumption admitting it): the protocol's inference point gives the prompt's prefill time of a request under
  // continuous batching (prefillSeconds, with decode steps sharing the GPUs), no prefill throughput of its own to price.
  if (perMillion !== undefined && intent === 'serving' && /^(?:input|prompt)$/.test(perMillion.of ?? '')) {
    notRead.push({
      phrase: `"${asTyped(text, perMillion.written)}"`, heading: 'Not answered',
      why: `a price per ${perMillion.of} token is not computed: the serving cost is per ${unitWord(perMillion.tokens)} output tokens, the GPUs' time over the tokens they generate with the prompts' prefill in it, and the model gives no prefill throughput apart to price prompt tokens alone`,
    });
  } else if (perMillion !== undefined && intent === 'serving' && perMillion.of === undefined) {
    readings.push({ field: 'pricePerGpuHour', value: perMillion.written, text: `"${asTyped(text, perMillion.written)}" read as per ${unitWord(perMillion.tokens)} output tokens, the serving cost given (the GPUs' time over the tokens they generate, the prompts' prefill included)` });
  }
  // Asked of training ("training cost per million tokens"): the run's whole cost is what a plan gives, said.
  if (perMillion !== undefined && intent !== 'serving' && intent !== 'help') {
    notRead.push({ phrase: `"${asTyped(text, perMillion.written)}"`, why: 'a cost per million tokens is a serving price; a training plan gives the whole run\'s cost: divide it by the tokens in millions, or ask "serve …" for serving\'s' });
  }
  if (model?.assumed !== undefined && model.model !== undefined) readings.push({ field: 'model', value: model.model, text: model.assumed });
  if (users.written !== undefined && users.concurrency !== undefined && facts.concurrency === users.concurrency) {
    readings.push({ field: 'concurrency', value: users.concurrency, text: usersReading(asTyped(text, users.written), users.concurrency) });
  }
  const dense = served.model?.active?.reading;
  if (dense !== undefined && model === served.model && (facts.model !== undefined || facts.customModel !== undefined)) {
    const typed = dense.replace(/^"([^"]+)"/, (_m, phrase: string) => `"${asTyped(text, phrase)}"`);
    readings.push({ field: facts.model !== undefined ? 'model' : 'customModel', value: facts.model ?? facts.customModel?.shape.name ?? 'custom', text: typed });
  }
  if (vision !== undefined && facts.model !== undefined && facts.model === served.model?.model) readings.push({ field: 'model', value: facts.model, text: vision.reading });
  if (customReading !== undefined && facts.customModel !== undefined) {
    // "codellama 34b": the family named is no preset, said before the shape the size was planned as.
    const reading = `${customReading}${nearPresetNote(model?.family, model?.nearPreset)}`;
    const text = model?.namedAs === undefined ? reading : `${model.namedAs} is not a preset: ${reading}`;
    readings.push({ field: 'customModel', value: facts.customModel.shape.name ?? 'custom', text });
  }
  if (bareTokens !== undefined && facts.tokens === bareTokens.tokens) {
    readings.push({ field: 'tokens', value: bareTokens.tokens, text: `"${asTyped(text, bareTokens.written)}" read as ${compactCount(bareTokens.tokens)} training tokens (a second size after the model's, with no word of what it counts)` });
  }
  if (draft?.ok === true && draft.reading !== undefined) readings.push({ field: 'draftModel', value: draft.id, text: draft.reading });
  for (const format of [weightFormat, quantized]) if (format !== undefined && 'reading' in format) readings.push({ field: 'precision', value: format.precision, text: format.reading });
  if (kvCache?.reading !== undefined && facts.kvCachePrecision !== undefined) readings.push({ field: 'kvCachePrecision', value: facts.kvCachePrecision, text: kvCache.reading });
  if (percentiles.firstToken !== undefined && facts.maxFirstTokenSeconds !== undefined) {
    readings.push({ field: 'maxFirstTokenSeconds', value: facts.maxFirstTokenSeconds, text: percentileReading(percentiles.firstToken, 'time to first token', formatSeconds(facts.maxFirstTokenSeconds)) });
  }
  if (percentiles.perToken !== undefined && facts.maxTokenSeconds !== undefined) {
    readings.push({ field: 'maxTokenSeconds', value: facts.maxTokenSeconds, text: percentileReading(percentiles.perToken, 'time per output token', formatSeconds(facts.maxTokenSeconds)) });
  }
  if (unnamedLatency !== undefined && intent === 'serving') readings.push({ field: 'maxFirstTokenSeconds', value: unnamedLatency.trim(), text: unnamedLatencyReading(unnamedLatency) });
  for (const named of compared ?? [hardware]) if (named?.assumed !== undefined) readings.push({ field: 'gpu', value: named.gpu, text: named.assumed });
  if (gpuInstances !== undefined && facts.gpus !== undefined) {
    const n = facts.gpus;
    readings.push({ field: 'gpus', value: n, text: `${n.toLocaleString('en-US')} ${gpuById(facts.gpu ?? '')?.name.replace(/^NVIDIA\s+/, '') ?? 'GPU'} instances read as ${n.toLocaleString('en-US')} GPUs, one an instance (say "${n} nodes", or name the instance type, e.g. p5.48xlarge, for ${n} instances of 8 GPUs)` });
  }
  readings.push(...nodeReadings(text, facts, counts.timesNodes));
  // "16 nodes reserved", "our 8 spare nodes" read as the cluster: said, with the words for spares added (lexicon/spare-nodes.ts).
  if (spareRead.cluster !== undefined && (facts.nodes !== undefined || facts.gpus !== undefined)) {
    const size = facts.nodes !== undefined ? countOf(facts.nodes, 'node') : countOf(facts.gpus ?? 0, 'GPU');
    readings.push({ field: facts.nodes !== undefined ? 'nodes' : 'gpus', value: facts.nodes ?? facts.gpus ?? 0, text: spareClusterReading(asTyped(text, spareRead.cluster), size) });
  }
  if (nodeHoursRead !== undefined && 'reading' in nodeHoursRead && facts.gpuHours === nodeHoursRead.gpuHours) readings.push({ field: 'gpuHours', value: nodeHoursRead.gpuHours, text: nodeHoursRead.reading });
  if (priced?.ok === true && priced.assumed !== undefined) readings.push({ field: 'pricePerGpuHour', value: priced.perGpuHour, text: priced.assumed });
  if (pricedEach !== undefined && priced?.ok === true && facts.comparedGpus !== undefined) {
    const named = [{ gpu: facts.gpu ?? DEFAULT_GPU, pricePerGpuHour: priced.perGpuHour }, ...facts.comparedGpus];
    const each = named.map((g) => `${gpuById(g.gpu)?.name.replace(/^NVIDIA\s+/, '') ?? g.gpu} at ${priceText(g.pricePerGpuHour ?? 0, priced.currency)}/GPU-hour`);
    readings.push({ field: 'pricePerGpuHour', value: priced.perGpuHour, text: `each GPU at the price written beside it: ${each.join(', ')}` });
  }
  if (zero?.assumed !== undefined) readings.push({ field: 'zeroStage', value: zero.stage, text: zero.assumed });
  const sharding = resolveSharding(parameters);
  if (sharding !== undefined) readings.push(sharding);
  if (network !== undefined && 'reading' in network) readings.push({ field: 'network', value: network.network, text: network.reading });
  if (deadline?.assumed !== undefined) readings.push({ field: 'deadlineSeconds', value: deadline.seconds, text: deadline.assumed });
  if (corrected !== undefined) {
    const size = facts.nodes !== undefined ? countOf(facts.nodes, 'node') : countOf(facts.gpus ?? 0, 'GPU');
    readings.push({ field: facts.nodes !== undefined ? 'nodes' : 'gpus', value: facts.nodes ?? facts.gpus ?? 0, text: `"${asTyped(text, corrected)}" read as a correction: the last cluster size said taken, ${size}` });
  }
  if (counts.kilo && (facts.gpus !== undefined || facts.nodes !== undefined)) {
    const count = facts.gpus ?? facts.nodes ?? 0;
    readings.push({ field: facts.gpus !== undefined ? 'gpus' : 'nodes', value: count, text: `k read as ${COUNT_KILO.toLocaleString('en-US')} in a cluster size (${count.toLocaleString('en-US')}), as the CLI reads --gpus 1k; write the digits for another count (Meta's Llama 3 paper counts "16K H100s" as 16,384)` });
  }
  if (intent !== 'help') defaults.unshift(...readings);
  // "Should I use activation checkpointing?": no mode fixed, each tried (the search's) or the default said as one of three.
  if (recompute.asked !== undefined && TRAINING_PLANS.has(intent)) {
    const asked = `"${asTyped(text, recompute.asked)}" asked`;
    const taken = defaults.find((d) => d.field === 'recompute' && facts.recompute === undefined);
    if (taken !== undefined) taken.text += ` (${asked}: say "with full recompute" or "without recompute" to plan either)`;
    else defaults.push({ field: 'recompute', value: 'searched', text: `${asked}: no recompute mode fixed; the search tries none, selective and full and keeps the fastest that fits` });
  }
  // The tokens planned in place of a data size in bytes say so where a default was taken for them.
  const tokensTaken = defaults.find((d) => d.field === 'tokens' && facts.tokens === undefined);
  if (dataBytes !== undefined && tokensTaken !== undefined) tokensTaken.text += ` in place of "${asTyped(text, dataBytes)}", which is bytes, not tokens`;
  const assumedDeadline = defaults.find((d) => d.field === 'deadlineSeconds' && d.value === parameters.deadlineSeconds && facts.deadlineSeconds === undefined);
  const unreadDeadline = dateDeadline === undefined ? unreadTime : dateDeadline;
  const whyUnread = dated !== undefined && 'unread' in dated ? `${dated.unread}, or a length, e.g. "in 20 days"`
    : `${dateDeadline === undefined ? 'not a length of time' : 'a date needs today\'s, which I do not know'}; give a length, e.g. "in 20 days"`;
  if (unreadDeadline !== undefined && assumedDeadline !== undefined) assumedDeadline.text += ` ("${unreadDeadline}" not understood: ${whyUnread})`;
  else if (unreadDeadline !== undefined) notRead.push({ phrase: `"${unreadDeadline}"`, why: `not understood: ${whyUnread}` });
  // A network no preset models: the one planned said with the assumptions (the system's, or the GPU's usual system's).
  if (network !== undefined && 'unread' in network && intent !== 'help') {
    const id = systemById(parameters.system ?? '')?.network ?? defaultSystemForGpu(parameters.gpu ?? DEFAULT_GPU)?.network;
    if (id !== undefined) {
      const text = `the network between nodes taken as ${id}: ${networkById(id)?.name ?? id} (the network named is not modelled)`;
      // In place of the default's own "no network named" (defaults.ts), which this network was.
      const said = defaults.find((d) => d.field === 'network' && facts.network === undefined);
      if (said !== undefined) Object.assign(said, { value: id, text });
      else defaults.push({ field: 'network', value: id, text });
    }
  }
  // A cluster size written but not read ("a DGX SuperPOD", a number beside the GPU): the default nodes say so.
  const unreadSize = besideGpu === undefined ? undefined : besideGpu[1] ?? besideGpu[2];
  const nodesTaken = defaults.find((d) => d.field === 'nodes' && facts.nodes === undefined && facts.gpus === undefined);
  if (nodesTaken !== undefined && unreadSize !== undefined) nodesTaken.text = nodesTaken.text.replace('no cluster size given', `the ${unreadSize} beside the GPU's name not read as a cluster size; say e.g. "${unreadSize} H100"`);
  else if (nodesTaken !== undefined && notRead.some((n) => n.why.startsWith(SUPERPOD_WHY))) nodesTaken.text = nodesTaken.text.replace('no cluster size given', 'the cluster size named not read');
  // "8x H100 nodes" with no count before: nodes of 8, at the default count, both said (QA: said only "no cluster size given",
  // where "2x H100 nodes" says how it was read, nodeReadings).
  else if (nodesTaken !== undefined && counts.perNodeOnly !== undefined && facts.gpusPerNode === counts.perNodeOnly.gpusPerNode) {
    const { written, gpusPerNode } = counts.perNodeOnly;
    const typed = new RegExp(String.raw`(?<![\w.])${gpusPerNode}\s*(?:[x×]|-\s*gpus?)\s*(?:\S+\s+){0,2}?(?:nodes?|machines?|servers?|boxes|hosts?|trays?|systems?|dgx\w*)\b`, 'i').exec(text)?.[0]
      ?? written.replace(HW_TOKEN, facts.gpu ?? 'GPU');
    nodesTaken.text = `"${typed}" read as nodes of ${countOf(gpusPerNode, 'GPU')}; no node count given: ${countOf(Number(nodesTaken.value), 'node')}`;
  }
  // A length given but not read: the default taken says so, never "no length given".
  for (const unread of [unreadLength, unreadContext]) {
    if (unread === undefined || intent !== 'serving') continue;
    const taken = defaults.find((d) => d.field === unread.field && facts[unread.field] === undefined && (unread.field === 'outputTokens' || facts.seqLength === undefined));
    if (taken !== undefined) taken.text = taken.text.replace('no length given', `"${unread.written}" not read as a length`);
  }

  // Any other number no reader took ("on 256 h10", "on 256 xyz"): said, never dropped unsaid; where it stands as a size
  // does ("on 256 …"), the default nodes say so too.
  const left = intent === 'help' || unreadSize !== undefined ? [] : leftNumbers(s.text, [...problems, ...notRead.map((n) => n.phrase)], defaults.map((d) => d.text));
  if (left.length > 0) {
    // A serving question's examples are serving's: "32 users" alone is no load (kv-cache.ts takeServedLoad).
    const examples = intent === 'serving' ? '"32 concurrent users", "32 requests of 8k tokens", "10 requests/s" or "on 8 H100"' : '"256 H100", "16 nodes", "2T tokens" or "in 10 days"';
    notRead.push({ phrase: left.map((l) => `"${asTyped(text, l.phrase)}"`).join(', '), why: `not understood: no reading takes these numbers; say e.g. ${examples}` });
  }
  const leftSize = left.find((l) => l.asSize);
  if (nodesTaken !== undefined && unreadSize === undefined && leftSize !== undefined) nodesTaken.text = nodesTaken.text.replace('no cluster size given', `"${asTyped(text, leftSize.phrase)}" not read as a cluster size; say e.g. "256 H100" or "32 nodes"`);

  // "with offloading", naming nothing moved off the GPU: said not read, the plan the one in GPU memory (scope.ts).
  const offload = bareOffload(normal);
  if (offload !== undefined) notRead.push({ phrase: `"${asTyped(text, offload)}"`, why: BARE_OFFLOAD_WHY });
  // Serving, fine-tuning and hyperparameter questions are declined with a pointer, not planned as training.
  const declined = outOfScope(normal, s.text, intent);
  if (declined !== undefined) {
    return { text, intent, parameters, stated: facts, defaults, problems: [declined.problem], outOfScope: declined.pointer === undefined ? [] : [declined.pointer], notRead };
  }
  const layouts = layoutsProblem(intent, facts.layouts);
  if (layouts !== undefined) problems.push(layouts);
  // "How big a model can we train on …", "the largest model that fits on one H100": a size asked, no plan here, said as such
  // (QA: "2M gpu hours" was read as a 2M-parameter model and refused as too small; worded as no other question, "how big a
  // model can we train on 10T tokens with 256 H100" got "I didn't understand"). Asked of a budget with no token count
  // ("what can I train for $1M at $2/GPU-hour"): the compute-optimal size is the answer (answer/compute-optimal.ts).
  const sizeRefused = modelSizeNotAnswered(normal, intent);
  if ((intent !== 'help' || sizeRefused !== undefined) && intent !== 'collective' && intent !== 'rate' && parameters.model === undefined && parameters.customModel === undefined && model?.unknownSize === undefined && model?.unmodelled === undefined) {
    if (!asksWhatBudgetTrains(normal, intent, facts)) problems.push(sizeRefused ?? NAME_A_MODEL);
  }
  if (flopBudget !== undefined && !asksWhatBudgetTrains(normal, intent, facts)) notRead.push({ phrase: `"${flopBudget.written}"`, why: FLOP_BUDGET_NOT_READ });
  if (parameters.model !== undefined && modelById(parameters.model) === undefined) problems.push(`unknown model ${parameters.model}`);
  // "-2T tokens", "-64 h100": no count, size or time is below 0, and the patterns read the digits alone. Said unless a
  // reader refused the number already ("a -30B model", "mfu of -0.2").
  const negative = NEGATIVE.exec(normal);
  const written = negative?.[1];
  const number = written?.replace(/\s/g, '').replace(/[a-z]+$/, '');
  // A price refused as below 0 names it with its currency ("-$2" of "-2 usd per gpu-hour"): said already.
  if (written !== undefined && number !== undefined && !problems.some((p) => p.replace(/(-)[$€£]/g, '$1').includes(number))) {
    // As typed ("-2T"), not as normalised ("-2t").
    problems.unshift(`"${asTyped(text, written)}" is negative: tokens, GPUs, nodes, sizes and times count up from 0`);
  }
  return { text, intent, parameters, stated: facts, defaults, problems, notRead };
}
