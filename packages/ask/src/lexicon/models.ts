import { MODEL_IDS, modelById } from '@trainplan/presets';
import { billion, formatCountExact, parseCount } from '@trainplan/units';
import { GPT_STYLE, llamaStyle, type ShapeFamily } from '../custom-model.ts';
import type { Match } from './match.ts';
import { matchUnmodelledModel, otherNameBefore, type UnmodelledModel } from './unmodelled-models.ts';
import { activeProblem, type ActiveParameters } from './unmodelled-moe.ts';
import { llamaVisionProblem } from './unmodelled-architectures.ts';
import { DECIMAL, SIZE_SCALE } from './numbers.ts';
import { offSizeReading, unitlessSize } from './preset-size-readings.ts';

/**
 * Model names as people type them in chat: preset ids ("llama3-70b"), family and size
 * ("Llama 3 70B", "GPT-3 175B"), a family alone ("BLOOM", "GPT-3") or a bare size ("175B").
 */

/** Families in the order a bare size prefers them when two presets share it (70B → Llama 3). */
const FAMILY_PREFERENCE = ['llama3-', 'llama3.1-', 'llama2-', 'nemotron4-', 'gpt3-', 'mt-nlg-', 'bloom-', 'megatron-'] as const;

/** A bare size matches a preset within this relative distance of its published parameter count. */
const BARE_SIZE_TOLERANCE = 0.03;
/**
 * A family and size match the family's nearest preset within this distance ("Megatron GPT 530B" → megatron-529.6b), said
 * where the size is not the preset's own (preset-size-readings.ts). Farther, the size is planned as a decoder of its own
 * with the near preset named (NEAR_PRESET_TOLERANCE): QA: at 15%, "llama3-7b" was planned as Llama 3 8B, a size Llama 3
 * does not have 14% larger than the one asked.
 */
const FAMILY_SIZE_TOLERANCE = 0.05;
/** A preset of the family within this distance of a size planned as a decoder of its own is named beside it, as the one that may have been meant. */
const NEAR_PRESET_TOLERANCE = 0.15;

/**
 * Families with an optional version and size (named groups). `prefixes` are the preset ids the size
 * is looked up among; `alone` is what the family means without a size ("GPT-3" is GPT-3 175B).
 */
const FAMILIES: readonly {
  pattern: RegExp;
  /** The family as an answer names it ("Llama 2"). */
  label: (version: string | undefined) => string;
  prefixes: (version: string | undefined) => readonly string[];
  alone?: string;
  /** Where a versioned size the version has no preset of was released under another name, and why. */
  renamed?: (version: string | undefined) => { family: string; prefix: string; why: string } | undefined;
  /** The rows a size no preset of the family has is shaped from (custom-model.ts); none: such a size is declined. */
  custom?: (version: string | undefined) => ShapeFamily | undefined;
  /** Why a size of the version is declined though the family shapes others ("llama 3.2 11b": a Vision model). */
  declined?: (version: string | undefined, parameters: number) => string | undefined;
  /** Whether a number after the name with no version is the family's version, never a size without its unit ("llama-4"). */
  numberIsVersion?: true;
  /** Why a version with no preset of its own is read as another's (Llama 3.3: Llama 3.1 70B's architecture), said. */
  alias?: (version: string | undefined) => string | undefined;
}[] = [
  // "llama 3.1 405b", "llama-3-70b", "llama2 7b", "llama 3.2 1b"; Llama without a version prefers Llama 3, then 3.1, then 2.
  // A version is never the first digit of a size: "llama 30b" is Llama at 30B, not Llama 3 at 0B (as GPT-3's and Nemotron-4's).
  // The size may come first: "a 30B llama", "70b llama 3" (`pre`); "llama-style 30B", "llama 3 like 30b": the family's shape.
  {
    pattern: new RegExp(String.raw`(?:(?<![\w.])(?<pre>${DECIMAL}\s*[bmt])[\s-]*(?:param(?:eter)?s?[\s-]+)?)?(?<!\bcode[\s-]*)\bllama[\s-]*(?:(?<version>3\.[123]|2|3)(?![\d.]))?(?:[\s-]*(?<style>style|like|type|based|arch(?:itecture)?)\b)?[\s-]*(?<size>${DECIMAL}\s*[bmt])?\b`),
    label: (v) => (v === undefined ? 'Llama' : `Llama ${v}`),
    // Llama 3.3 is one model, 70B, Llama 3.1 70B's architecture post-trained anew (Meta's Llama 3.3 model card, 2024-12-06):
    // read as that preset, said (QA: "llama-3.3-70b" was planned as Llama 3 70B, the "3.3" unsaid).
    prefixes: (v) => (v === '3.3' ? ['llama3.1-70b'] : v !== undefined ? [`llama${v}-`] : FAMILY_PREFERENCE.filter((p) => p.startsWith('llama'))),
    alias: (v) => (v === '3.3' ? 'Llama 3.3 read as Llama 3.1 70B (llama3.1-70b), its architecture (Meta\'s Llama 3.3 model card: 70B only)' : undefined),
    // Meta's paper (Dubey et al. 2024, "The Llama 3 Herd of Models") calls the 405B model "Llama 3 405B"; it shipped as Llama 3.1.
    renamed: (v) => (v === '3' ? { family: 'Llama 3', prefix: 'llama3.1-', why: "Meta's paper, Dubey et al. 2024, calls it Llama 3" } : undefined),
    // Llama 3's rows include 3.1's 405B, as its paper names it (above). Llama 3.2's text models are Llama 3.1 8B pruned and
    // distilled (Meta's Llama 3.2 announcement, 2024-09-25: the 1B and 3B from Llama 3.1 8B), the same architecture: its one
    // preset (1B) first, then Llama 3's and 3.1's rows, so that "llama 3.2 3b" is shaped between 1B and 8B as "llama3-7b" is
    // between Llama 3's rows (QA: it was declined, "no Llama 3.2 preset has about 3B", where llama3-7b was planned).
    custom: (v) => llamaStyle(v === undefined ? 'Llama' : `Llama ${v}`, v === undefined ? FAMILY_PREFERENCE.filter((p) => p.startsWith('llama'))
      : v === '3' ? ['llama3-', 'llama3.1-'] : v === '3.2' ? ['llama3.2-', 'llama3-', 'llama3.1-'] : [`llama${v}-`]),
    declined: (v, parameters) => (v === '3.2' ? llamaVisionProblem(parameters) : v === '3.3' ? 'Llama 3.3 is 70B only (Meta\'s model card); ask for llama3.1-70b or a size' : undefined),
    // "llama-4", "llama-1": versions no preset is (unmodelled-models.ts, unmodelled-moe.ts), never a size without its unit.
    numberIsVersion: true,
  },
  {
    pattern: new RegExp(String.raw`\bgpt[\s-]*3(?![\d.])(?:[\s-]*(?<size>${DECIMAL}\s*[bm]))?\b`), label: () => 'GPT-3', prefixes: () => ['gpt3-'], alone: 'gpt3-175b', custom: () => GPT_STYLE,
  },
  { pattern: new RegExp(String.raw`\bnemotron(?:[\s-]*4(?![\d.]))?(?:[\s-]*(?<size>${DECIMAL}\s*b))?\b`), label: () => 'Nemotron-4', prefixes: () => ['nemotron4-'], alone: 'nemotron4-340b' },
  // "Megatron 530B" is MT-NLG too, as NVIDIA names it (Smith et al. 2022, arXiv:2201.11990, the model NVIDIA's NeMo calls
  // "Megatron 530B"): before Megatron GPT, whose SC'21 row is 529.6B (QA: "megatron 530b" was taken as megatron-529.6b, said
  // off-size, where mt-nlg-530b is 530B exactly). Only with no "gpt": "megatron gpt 530b" names the GPT rows.
  {
    pattern: new RegExp(String.raw`\b(?:mt[\s-]*nlg|megatron[\s-]*turing(?:[\s-]*nlg)?|megatron(?=[\s-]*530\s*b\b))(?:[\s-]*(?<size>${DECIMAL}\s*b))?\b`),
    label: () => 'MT-NLG',
    prefixes: () => ['mt-nlg-'],
    alone: 'mt-nlg-530b',
  },
  { pattern: new RegExp(String.raw`\bbloom(?:[\s-]*(?<size>${DECIMAL}\s*b))?\b`), label: () => 'BLOOM', prefixes: () => ['bloom-'], alone: 'bloom-176b' },
  { pattern: new RegExp(String.raw`\bmegatron(?:[\s-]*gpt)?[\s-]*(?<size>${DECIMAL}\s*[bt])\b`), label: () => 'Megatron GPT', prefixes: () => ['megatron-'], custom: () => GPT_STYLE },
];

const relative = (a: number, b: number): number => Math.abs(a - b) / b;

/**
 * Whether `size` is the preset's own: its published count, the size its name states (Llama 3.2 1B for 1.23B), or the size its
 * id states ("megatron 1t" is megatron-1t, whose 1.008T its name writes "1008B": no off-size note for the id's own size).
 */
const ownSize = (id: string, size: number): boolean =>
  namedSizeOf(id) === size || modelById(id)?.publishedParameters === size || idSizeOf(id) === size;

/** The size a preset's id states ("megatron-1t": a trillion), or undefined where it states none. */
const idSizeOf = (id: string): number | undefined => {
  const size = new RegExp(String.raw`-(${DECIMAL}[mbt])$`).exec(id)?.[1];
  return size === undefined ? undefined : parseCount(size);
};

/** The size a preset's name states ("Llama 3.2 1B": a billion), or undefined when it states none ("GPT-3 Small"). */
export function namedSizeOf(id: string): number | undefined {
  const size = new RegExp(String.raw`(${DECIMAL}[MBT])$`).exec(modelById(id)?.shape.name ?? '')?.[1];
  return size === undefined ? undefined : parseCount(size);
}

/**
 * The preset with this prefix nearest `parameters`, within `tolerance`; ties go to FAMILY_PREFERENCE order.
 * A preset whose name states the size asked is at no distance: Meta names Llama 3.2 1B for 1.23B parameters.
 */
function nearest(prefixes: readonly string[], parameters: number, tolerance: number): string | undefined {
  let best: { id: string; distance: number; rank: number } | undefined;
  for (const id of MODEL_IDS) {
    const rank = prefixes.findIndex((p) => id.startsWith(p));
    if (rank < 0) continue;
    const preset = modelById(id);
    if (preset === undefined) continue;
    const distance = namedSizeOf(id) === parameters ? 0 : relative(parameters, preset.publishedParameters);
    if (distance > tolerance) continue;
    if (best === undefined || distance < best.distance - 1e-9 || (Math.abs(distance - best.distance) <= 1e-9 && rank < best.rank)) {
      best = { id, distance, rank };
    }
  }
  return best?.id;
}

// "175b" is 175 billion, "1t" one trillion (units' parseCount).
const sizeOf = (text: string | undefined): number | undefined => (text === undefined ? undefined : parseCount(text.replace(/\s+/g, '')));

/** "405 b" → "405B", as a model's name writes its size. */
const compactSize = (text: string | undefined): string => (text ?? '').replace(/\s+/g, '').toUpperCase();

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Exact preset ids first ("llama3.1-405b", "megatron-1t"), longest first so "gpt3-1.3b" never matches inside another. */
const ID_PATTERNS: readonly (readonly [string, RegExp])[] = [...MODEL_IDS]
  .sort((a, b) => b.length - a.length)
  .map((id) => [id, new RegExp(`(?<![\\w.])${escape(id)}(?![\\w.])`)] as const);

/**
 * `unmodelled`: why a family no preset has is declined (unmodelled-models.ts).
 * `assumed`: how the name was read when it is not the preset's own ("Llama 3 405B" → llama3.1-405b).
 * `unknownSize`: a size no preset has, as a count and as written ("30B"); `family` names the family it
 * was asked of ("Llama"), absent for a bare size. `shapeFamily`: the rows such a size is shaped from (custom-model.ts):
 * GPT-style for a bare size, GPT-3's or Megatron's; Llama-style for a Llama size; absent where the family declines one.
 */
export type ModelMatch = Match & {
  model?: string; unmodelled?: string; unknownSize?: number; askedSize?: string; family?: string; assumed?: string; shapeFamily?: ShapeFamily;
  /** A name no preset has before the size read, as said ("PaLM 540B is not a preset"): the reading says it was not planned as named. */
  namedAs?: string;
  /** A preset of the family near a size planned as a decoder of its own, named beside it ("llama3-7b": llama3-8b). */
  nearPreset?: string;
  /**
   * Active parameters stated apart from the model's size ("a 7B model … with 7B active parameters"): their span, taken out of
   * the text with the model's, and where they are the model's whole size, how they were read (a dense model, planned).
   */
  active?: { span: Match; reading?: string };
};

/**
 * How a bare size was read, said in the answer: "13B taken as Llama 2 13B (llama2-13b); also that size:
 * gpt3-13b", since a size names no architecture (layers, width, vocabulary, sequence length all differ).
 */
function bareSizeReading(asked: string, size: number, model: string): string {
  const others = MODEL_IDS.filter((id) => id !== model && relative(size, modelById(id)?.publishedParameters ?? 0) <= BARE_SIZE_TOLERANCE);
  const name = modelById(model)?.shape.name ?? model;
  return `${sizeAsWritten(asked)} taken as ${name} (${model})${others.length === 0 ? '' : `; also that size: ${others.join(', ')} (name one to plan it)`}`;
}

/**
 * How a family named without a size was read: "Llama 3 alone taken as its largest preset, Llama 3 70B (llama3-70b); also
 * Llama 3: llama3-8b (name one to plan it)".
 */
function familyAloneReading(label: string, model: string, ids: readonly string[]): string {
  const others = ids.filter((id) => id !== model);
  const name = modelById(model)?.shape.name ?? model;
  return `${label} alone taken as its largest preset, ${name} (${model})${others.length === 0 ? '' : `; also ${label}: ${others.join(', ')} (name one to plan it)`}`;
}

/** "30 billion" → "30B", "1.5t" → "1.5T", "350 million" → "350M": a size as a model's name writes it. */
const sizeAsWritten = (asked: string): string => compactSize(asked.replace(/million/, 'm').replace(/billion/, 'b').replace(/trillion/, 't'));

/**
 * Counts that are not a model's size, by the words after them: tokens, GPU-hours, sequences, steps, a batch
 * ("a 4M batch"), or by the words before them: a batch ("batch size 4m"), money ("$2M").
 */
// GPU-hours written with the GPU's name ("2M H100 hours", as normalize writes "2M gpu hours of h100"): a budget, never a 2M model
// (QA: planned as a 2M-parameter model, refused as too small).
// "per 1B output tokens" is a cost's unit, no model (lexicon/serving.ts PER_MILLION_TOKENS).
const NOT_A_SIZE_AFTER = String.raw`(?![\s-]*(?:(?:output|generated|completion|input|prompt)[\s-]+tok(?:en)?s?|tokens?|toks?|gpus?|sequences?|seqs?|samples?|steps?|iterations?|batch\w*|context|words?|dollars?|usd|[a-z]{1,3}\d{2,4}[a-z]*[\s-]*(?:gpu[\s-]*)?(?:hours?|hrs?|h))\b)`;
const NOT_A_SIZE_BEFORE = String.raw`(?<![\w.$€£])(?<!\bbatch(?:[\s-]*size)?\s*(?:of|=|:|is)?\s*-?)`;
/** A bare size in millions, billions or trillions of parameters (units' parseCount reads m, b, t). */
const BARE_SIZE = new RegExp(String.raw`${NOT_A_SIZE_BEFORE}(-?)(${DECIMAL})\s*(${SIZE_SCALE})\b${NOT_A_SIZE_AFTER}`);

/** Finds the model a question names; `unknownSize` when it names a size no preset has. */
export function matchModel(text: string): ModelMatch | undefined {
  for (const [id, pattern] of ID_PATTERNS) {
    const m = pattern.exec(text);
    if (m) return { model: id, index: m.index, length: m[0].length };
  }
  for (const family of FAMILIES) {
    const m = family.pattern.exec(text);
    if (!m) continue;
    const where = { index: m.index, length: m[0].length };
    const written = m.groups?.size ?? m.groups?.pre;
    const size = sizeOf(written);
    if (size === undefined) {
      // "gpt3-13", "llama3-70": a size without its unit, never the family alone (QA: "gpt3-13" was planned as GPT-3 175B).
      const unitless = family.numberIsVersion === true && m.groups?.version === undefined ? undefined
        : unitlessSize(m[0], text.slice(m.index + m[0].length), family.prefixes(m.groups?.version));
      if (unitless !== undefined) {
        const span = { index: m.index, length: unitless.length };
        return 'model' in unitless ? { ...span, model: unitless.model, assumed: unitless.assumed } : { ...span, unmodelled: unitless.problem };
      }
      if (family.alone !== undefined) return { ...where, model: family.alone };
      if (m.groups?.version === undefined) continue;
      // "Llama 3" alone: the family's largest preset, said with the others (QA: "llama3" was planned as 70B unsaid).
      const ids = family.prefixes(m.groups.version).flatMap((p) => MODEL_IDS.filter((id) => id.startsWith(p)));
      const largest = ids.at(-1) ?? 'llama3-70b';
      return { ...where, model: largest, assumed: family.alias?.(m.groups.version) ?? familyAloneReading(family.label(m.groups.version), largest, ids) };
    }
    const model = nearest(family.prefixes(m.groups?.version), size, FAMILY_SIZE_TOLERANCE);
    const label = family.label(m.groups?.version);
    // "llama3-71b", "gpt3-176b": a size the preset is not, said with the one planned (QA: taken unsaid).
    const offSize = model === undefined || ownSize(model, size) ? undefined : offSizeReading(`${label} ${compactSize(written)}`, compactSize(written), label, model);
    // "llama 70b": no version, and several Llamas of that size: the one taken said with the others, as a bare size's is.
    const sameSize = m.groups?.version === undefined && model !== undefined && family.prefixes(undefined).length > 1
      ? family.prefixes(undefined).flatMap((p) => MODEL_IDS.filter((id) => id !== model && id.startsWith(p) && relative(modelById(id)?.publishedParameters ?? 0, modelById(model)?.publishedParameters ?? 1) <= BARE_SIZE_TOLERANCE))
      : [];
    // "a 13B llama-like model" names a shape, not a model: the preset it is planned as is said, as a bare size's is.
    const style = m.groups?.style;
    if (model !== undefined && style !== undefined) {
      return { ...where, model, assumed: `${compactSize(written)} ${label}-${style.trim()} taken as ${modelById(model)?.shape.name ?? model} (${model})${offSize === undefined ? '' : `, the nearest: none has ${compactSize(written)}`}` };
    }
    if (model !== undefined && sameSize.length > 0) {
      const taken = offSize ?? `${family.label(undefined)} ${compactSize(written)} taken as ${modelById(model)?.shape.name ?? model} (${model})`;
      return { ...where, model, assumed: `${taken}; also that size: ${sameSize.join(', ')} (name one to plan it)` };
    }
    const assumed = offSize ?? family.alias?.(m.groups?.version);
    if (model !== undefined) return { ...where, model, ...(assumed !== undefined && { assumed }) };
    const renamed = family.renamed?.(m.groups?.version);
    const successor = renamed === undefined ? undefined : nearest([renamed.prefix], size, FAMILY_SIZE_TOLERANCE);
    if (renamed !== undefined && successor !== undefined) {
      // The paper's name is the preset's own size ("Llama 3 405B"), never the size asked ("Llama 3 400B": QA named it so).
      const asked = `${renamed.family} ${compactSize(written)}`;
      const name = modelById(successor)?.shape.name ?? successor;
      const papers = formatCountExact(namedSizeOf(successor) ?? modelById(successor)?.publishedParameters ?? size);
      const off = ownSize(successor, size) ? '' : `, the nearest: none has ${compactSize(written)}`;
      return { ...where, model: successor, assumed: `${asked} taken as ${name} (${successor}; ${renamed.why} ${papers})${off}` };
    }
    const declined = family.declined?.(m.groups?.version, size);
    if (declined !== undefined) return { ...where, unmodelled: declined };
    const shapeFamily = family.custom?.(m.groups?.version);
    const near = nearest(family.prefixes(m.groups?.version), size, NEAR_PRESET_TOLERANCE);
    return {
      ...where, unknownSize: size, askedSize: compactSize(written), family: label, ...(shapeFamily !== undefined && { shapeFamily }), ...(near !== undefined && { nearPreset: near }),
    };
  }
  // A family no preset has ("mistral 7b") is declined, never read as the preset of its size.
  const unmodelled = matchUnmodelledModel(text);
  if (unmodelled?.active !== undefined) return withActive(text, unmodelled, unmodelled.active);
  if (unmodelled !== undefined) return { index: unmodelled.index, length: unmodelled.length, unmodelled: unmodelled.problem };
  // A bare size: "175B", "70b model", "1T parameters", "a 350M model" (never "2T tokens" nor "1.7M GPU-hours").
  // A minus sign before it ("-5B") is kept, so that the answer refuses the size rather than read 5B.
  const bare = BARE_SIZE.exec(text);
  if (bare) {
    const magnitude = sizeOf(`${bare[2]}${bare[3]}`);
    if (magnitude === undefined) return undefined;
    const askedSize = sizeAsWritten(`${bare[2]}${bare[3]}`);
    if (bare[1] === '-') return { index: bare.index, length: bare[0].length, unknownSize: -magnitude, askedSize: `-${askedSize}` };
    const size = magnitude;
    const model = nearest(FAMILY_PREFERENCE, size, BARE_SIZE_TOLERANCE);
    const other = otherNameBefore(text, bare.index, askedSize);
    const start = other?.index ?? bare.index;
    const where = { index: start, length: bare.index + bare[0].length - start, ...(other !== undefined && { namedAs: other.said }) };
    // A Llama-architecture family ("Code Llama 34B", "Yi 34B") is shaped as Llama is, its nearest Llama preset or Llama-style.
    const llama = other?.llama === true;
    const llamaPrefixes = FAMILY_PREFERENCE.filter((p) => p.startsWith('llama'));
    const preset = llama ? nearest(llamaPrefixes, size, BARE_SIZE_TOLERANCE) : model;
    const reading = preset === undefined ? undefined : bareSizeReading(`${bare[2]}${bare[3]}`, size, preset);
    return preset === undefined || reading === undefined ? { ...where, unknownSize: size, askedSize, shapeFamily: llama ? llamaStyle('Llama', llamaPrefixes) : GPT_STYLE }
      : { ...where, model: preset, assumed: other === undefined ? reading : `${other.said}: ${reading}` };
  }
  return undefined;
}

/** Active parameters within this share of the model's total are all of it: a dense model, as every preset is. */
const DENSE_ACTIVE_TOLERANCE = 0.05;

/** The parameters a match plans: a preset's published count, or the size asked; undefined where it plans none. */
const plannedSize = (m: ModelMatch): number | undefined => (m.model !== undefined ? modelById(m.model)?.publishedParameters : m.unknownSize);

/**
 * A model declined for its active parameters (unmodelled-moe.ts), weighed against its total: the total written with them, or
 * the model named apart ("a 7B model on 1T tokens … with 7B active parameters"). Active equal to total (within 5%) is a dense
 * model, every parameter used by every token, and is planned, said (QA: "a 7B model … with 7B active parameters" was declined
 * as an MoE); apart from it, the MoE refusal states both sizes; with no total anywhere, the refusal as it was.
 */
function withActive(text: string, declined: UnmodelledModel, active: ActiveParameters): ModelMatch {
  const refused: ModelMatch = { index: declined.index, length: declined.length, unmodelled: declined.problem };
  const { span } = active;
  const rest = matchModel(text.slice(0, span.index) + ' '.repeat(span.length) + text.slice(span.index + span.length));
  if (rest === undefined) return refused;
  const size = plannedSize(rest);
  if (rest.unmodelled !== undefined || size === undefined) return active.totalB === undefined ? { ...rest, active: { span } } : refused;
  const activeCount = billion(active.activeB);
  if (relative(activeCount, size) > DENSE_ACTIVE_TOLERANCE) {
    return active.totalB === undefined ? { index: rest.index, length: rest.length, unmodelled: activeProblem(size / billion(1), active.activeB), active: { span } } : refused;
  }
  const phrase = text.slice(span.index, span.index + span.length).trim();
  const reading = `"${phrase}" read as a dense model's: ${compactSize(formatCountExact(activeCount))} active of ${compactSize(formatCountExact(size))} is every parameter, `
    + 'each used by every token, as in every preset (a mixture of experts activates a share of its total)';
  return { ...rest, active: { span, reading } };
}
