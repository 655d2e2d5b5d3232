import type { Match } from './match.ts';
import { DECIMAL } from './numbers.ts';
import type { Scanner } from './quantities.ts';

/**
 * Mixture-of-experts models, named back and declined, never planned dense: by family ("DeepSeek-V3", "Mixtral 8x7B"), by a
 * name that states the activated size ("Qwen3-235B-A22B"), by their active parameters ("671B with 37B active"), by their
 * kind ("a 671B MoE", "8 experts top-2"); and expert parallelism ("EP=8"), which only such a model has. Every preset is a
 * dense decoder: planned dense at its total size, every expert counts in every token's FLOPs, where a token runs only the
 * experts routed to it, so each token's compute is overstated about total/activated times. QA: "a 671B model with 37B
 * active parameters" was planned as a dense 671B model, "DeepSeek-V3" pointed at "a 70B model", and "64 H100 nodes with
 * 8-way expert parallelism" read as 64 GPUs of 8 a node.
 */

/** An MoE's published total and activated parameters per token, in billions, and where they are published. */
interface Sizes {
  totalB: number;
  activeB: number;
  source: string;
}

const V3: Sizes = { totalB: 671, activeB: 37, source: 'DeepSeek-AI 2024, arXiv:2412.19437' };

/** What a dense plan of an MoE gets wrong, with DeepSeek-V3's published figures for scale, where the model's own are not known. */
const DENSE_OF_TOTAL = 'planned as a dense model of its total size, each token\'s compute would be overstated about total/activated times '
  + '(DeepSeek-V3: 671B total, 37B activated per token, ~18×: arXiv:2412.19437)';
const NOT_MODELLED = 'MoE and expert parallelism are not modelled (every preset is a dense decoder)';

/** A family's size and version written after its name ("grok-1 314b", "deepseek v3 671b"): one span with the name. */
const AFTER = String.raw`(?:[\s-]*v?\d+(?:\.\d+)?(?![\d.]*\s*[bt]\b))?(?:[\s-]*${DECIMAL}\s*[bt]\b)?`;

/**
 * Llama 4 and a variant ("llama4 scout", "Llama-4-Maverick-17B-128E-Instruct", as Meta's checkpoints are named): the
 * active size and expert count after the name are in the span, never read again as a dense 17B.
 */
const llama4 = (variant: string): RegExp => new RegExp(String.raw`\bllama[\s-]*4(?![\d.])${variant === '' ? '' : String.raw`[\s-]*${variant}`}\b`
  + String.raw`(?:[\s-]*${DECIMAL}\s*b\b)?(?:[\s-]*\d+\s*e\b)?(?:[\s-]*instruct\b)?`);

const FAMILIES: readonly { pattern: RegExp; name: string; sizes?: Sizes }[] = [
  // Jiang et al. 2024 (arXiv:2401.04088): "47B parameters, but only uses 13B active parameters during inference".
  { pattern: /\bmixtral[\s-]*8\s*x\s*7\s*b\b/, name: 'Mixtral 8x7B', sizes: { totalB: 47, activeB: 13, source: 'Jiang et al. 2024, arXiv:2401.04088' } },
  // Mistral AI's Mixtral 8x22B release (April 2024): "39B active parameters out of 141B".
  { pattern: /\bmixtral[\s-]*8\s*x\s*22\s*b\b/, name: 'Mixtral 8x22B', sizes: { totalB: 141, activeB: 39, source: 'Mistral AI\'s release, 2024' } },
  { pattern: new RegExp(String.raw`\bmixtral\b${AFTER}`), name: 'Mixtral' },
  { pattern: new RegExp(String.raw`\bdeepseek[\s-]*v3(?:\.\d+)?\b(?:[\s-]*${DECIMAL}\s*b\b)?`), name: 'DeepSeek-V3', sizes: V3 },
  // DeepSeek-R1 is DeepSeek-V3-Base trained further (DeepSeek-AI 2025, arXiv:2501.12948): V3's sizes. Not the dense models
  // distilled from it ("deepseek-r1-distill-llama-70b", a Llama).
  { pattern: /\bdeepseek[\s-]*r1\b(?![\s-]*distill)/, name: 'DeepSeek-R1', sizes: { ...V3, source: 'built on DeepSeek-V3, arXiv:2501.12948 and 2412.19437' } },
  // DeepSeek-AI 2024 (arXiv:2405.04434): V2 236B total, 21B activated; V2-Lite 15.7B, 2.4B.
  { pattern: /\bdeepseek[\s-]*v2[\s-]*lite\b/, name: 'DeepSeek-V2-Lite', sizes: { totalB: 15.7, activeB: 2.4, source: 'DeepSeek-AI 2024, arXiv:2405.04434' } },
  { pattern: /\bdeepseek[\s-]*v2(?:\.5)?\b/, name: 'DeepSeek-V2', sizes: { totalB: 236, activeB: 21, source: 'DeepSeek-AI 2024, arXiv:2405.04434' } },
  // Dai et al. 2024 (arXiv:2401.06066).
  { pattern: /\bdeepseek[\s-]*moe\b/, name: 'DeepSeekMoE' },
  // Muennighoff et al. 2024 (arXiv:2409.02060): "7 billion (B) parameters but uses only 1B per input token". Before OLMo (dense).
  { pattern: /\bolmoe\b(?:[\s-]*1b[\s-]*7b\b)?/, name: 'OLMoE', sizes: { totalB: 7, activeB: 1, source: 'Muennighoff et al. 2024, arXiv:2409.02060' } },
  // Kimi Team 2025 (arXiv:2507.20534): 1T total parameters, 32B activated.
  { pattern: /\bkimi[\s-]*k2\b/, name: 'Kimi K2', sizes: { totalB: 1000, activeB: 32, source: 'Kimi Team 2025, arXiv:2507.20534' } },
  // Snowflake's Arctic release (April 2024): 480B total, 17B active. "Arctic" alone is a word: with Snowflake, or a variant.
  { pattern: /\bsnowflake[\s-]*arctic\b|\barctic[\s-]*(?:instruct|base)\b/, name: 'Snowflake Arctic', sizes: { totalB: 480, activeB: 17, source: 'Snowflake\'s release, 2024' } },
  // Du et al. 2022 (arXiv:2112.06905): 1.2T total, 96.6B activated per token.
  { pattern: /\bglam\b/, name: 'GLaM', sizes: { totalB: 1200, activeB: 96.6, source: 'Du et al. 2022, arXiv:2112.06905' } },
  // Fedus et al. 2022 (arXiv:2101.03961): one expert a token. "Switch" alone is a network's: with "transformer".
  { pattern: /\bswitch[\s-]*transformers?\b/, name: 'Switch Transformer' },
  // Lepikhin et al. 2021 (arXiv:2006.16668).
  { pattern: /\bgshard\b/, name: 'GShard' },
  // Databricks' DBRX release (March 2024): "132B total parameters of which 36B are active on any input".
  { pattern: new RegExp(String.raw`\bdbrx\b${AFTER}`), name: 'DBRX', sizes: { totalB: 132, activeB: 36, source: 'Databricks\' release, 2024' } },
  // xAI's Grok-1 release (March 2024): 314B, a mixture of 8 experts.
  { pattern: new RegExp(String.raw`\bgrok\b${AFTER}`), name: 'Grok' },
  // Meta's Llama 4 model card (2025-04-05): Scout 109B total, 17B active, 16 experts; Maverick 400B total, 17B active, 128
  // experts. Every Llama 4 is an MoE, so one named without its variant is too (QA: "llama4 scout" was "not a known model").
  { pattern: llama4('scout'), name: 'Llama 4 Scout', sizes: { totalB: 109, activeB: 17, source: 'Meta\'s Llama 4 model card, 2025-04-05, 16 experts' } },
  { pattern: llama4('maverick'), name: 'Llama 4 Maverick', sizes: { totalB: 400, activeB: 17, source: 'Meta\'s Llama 4 model card, 2025-04-05, 128 experts' } },
  // Behemoth, announced beside them, is in no model card: its sizes are not stated here.
  { pattern: llama4('behemoth'), name: 'Llama 4 Behemoth' },
  { pattern: llama4(''), name: 'Llama 4' },
];

/**
 * "Qwen3-235B-A22B", "qwen2-57b-a14b": a name that states the total and the activated size ("A22B"), as Qwen names its MoE
 * models (Qwen Team 2025, arXiv:2505.09388). Before the families, whose Qwen is dense.
 */
const ACTIVE_IN_NAME = new RegExp(String.raw`(?<![\w.])(?:(?<family>[a-z][a-z\d.]*)-)?(?<total>${DECIMAL})b[\s-]*a(?<active>${DECIMAL})b\b`);

const SIZE = String.raw`${DECIMAL}\s*[bt]`;
const PARAMS = String.raw`(?:\s+param(?:eter)?s?)?`;
/**
 * A model given by its active parameters: "a 671B model with 37B active parameters", "671B total and 37B activated params",
 * "37B active of 671B", "activated parameters: 37B". The total written with it is part of the span, never read again as a
 * dense model of that size. Billions only, and never users or requests counted ("1M active users", "64 active requests": a serving question's).
 */
const NOT_A_LOAD = String.raw`(?!\s+(?:users?|requests?|sessions?|sequences?|conversations?|connections?|clients?|customers?|streams?|chats?)\b)`;
const ACTIVE = new RegExp([
  String.raw`(?:(?<![\w.])(?<total>${SIZE})(?:\s+\S+){0,3}?\s+)?(?<![\w.])(?<active>${DECIMAL}\s*b)${PARAMS}\s+(?:active|activated)\b${NOT_A_LOAD}${PARAMS}(?:\s+(?:per|a)\s+token)?(?:\s*(?:\/|of|out\s+of|,)\s*(?<totalAfter>${SIZE})(?:\s+total)?${PARAMS})?`,
  String.raw`\b(?:active|activated)\s+param(?:eter)?s?\s*(?:of|:|=|is|are)?\s*(?<activeAfter>${DECIMAL}\s*b)\b`,
].join('|'), 'd');

/** "with 8 experts", "8 experts top-2", "top-2 routing" after the kind's name: the same model, in the same span. */
const EXPERTS_AFTER = String.raw`(?:[\s,]+(?:with\s+)?\d+\s+(?:routed\s+)?experts\b)?(?:[\s,]+(?:and\s+)?top[\s-]*\d+(?:\s+routing)?\b)?`;
const moeSize = (group: string): string => String.raw`(?<![\w.])(?<${group}>${DECIMAL}\s*[bt])[\s-]*(?:param(?:eter)?s?[\s-]+)?`;
/**
 * A mixture-of-experts model named by its kind, not its family: "a 671B MoE", "a mixture of experts 8x22B model", "47B with 8
 * experts", "8x7B" (experts × each one's size). QA: "a 671b moe model" and "a 47B MoE with 8 experts top-2" were planned dense,
 * unsaid. The size written before it is part of the span, so it is never read again as a dense model of that size.
 */
const KIND = new RegExp([
  String.raw`(?:${moeSize('size')})?(?:sparse[\s-]*)?(?:\bmoe\b|\bmixture[\s-]*of[\s-]*experts?\b)(?:[\s-]*(?<experts>\d+\s*x\s*${DECIMAL}\s*[bt])\b)?${EXPERTS_AFTER}`,
  String.raw`(?<![\w.])(?<grid>\d+\s*x\s*${DECIMAL}\s*b)\b(?:[\s-]*(?:sparse[\s-]*)?(?:moe|mixture[\s-]*of[\s-]*experts?)\b)?${EXPERTS_AFTER}`,
  String.raw`(?:${moeSize('total')}(?:\s+\S+){0,3}?\s+)?\b\d+\s+(?:routed\s+)?experts\b`,
].join('|'));

/** "671B", "1T", "96.6B": billions as a model's size is written. */
const billions = (b: number): string => (b >= 1000 ? `${b / 1000}T` : `${b}B`);
/** "~18×", "~3.6×": total over activated, to two figures. */
const ratio = (totalB: number, activeB: number): string => {
  const r = totalB / activeB;
  return `~${r < 10 ? Number(r.toFixed(1)) : Math.round(r)}×`;
};
/** A size as written ("671 b" → "671B", "37b" → "37B"). */
const written = (size: string): string => size.replace(/\s+/g, '').toUpperCase().replace('X', 'x');
/** Billions in a size written in B or T ("1t" → 1000), for the ratio. */
const inBillions = (size: string): number => parseFloat(size) * (/t$/i.test(size.trim()) ? 1000 : 1);

/** Why an MoE named with its sizes is declined: what it is, and how far a dense plan of it would be out. */
function withSizes(subject: string, totalB: number, activeB: number, source?: string): string {
  const total = billions(totalB);
  return `${subject} is a mixture-of-experts model (${total} total, ${billions(activeB)} activated per token${source === undefined ? '' : `: ${source}`}): `
    + `${NOT_MODELLED}, and planned as a dense ${total} model each token's compute would be overstated ${ratio(totalB, activeB)} (${total}/${billions(activeB)})`;
}

/** Why a family no preset has is declined as a mixture of experts. */
function familyProblem(name: string, sizes: Sizes | undefined): string {
  return sizes === undefined ? `${name} is a mixture-of-experts model: ${NOT_MODELLED}, and ${DENSE_OF_TOTAL}` : withSizes(name, sizes.totalB, sizes.activeB, sizes.source);
}

/** "Qwen3-235B-A22B" from "qwen3-235b-a22b". */
const aName = (m: RegExpExecArray): string => {
  const family = m.groups?.family;
  const sizes = `${m.groups?.total ?? ''}B-A${m.groups?.active ?? ''}B`;
  return family === undefined ? sizes : `${family.charAt(0).toUpperCase()}${family.slice(1)}-${sizes}`;
};

/**
 * Active parameters stated ("with 7B active parameters"): the activated size, the total where written with it, and the span
 * of the active phrase alone (the total left out), so that a model whose total is written apart can be weighed against it
 * (models.ts: active equal to total is a dense model, planned).
 */
export interface ActiveParameters {
  activeB: number;
  totalB?: number;
  /** The active phrase ("7b active parameters"), without the total written with it. */
  span: Match;
}

type MoeMatch = Match & { problem: string; active?: ActiveParameters };

/**
 * Why a model given by its total and active parameters is declined as an MoE (`totalB`, `activeB` in billions): what it is, and
 * how far a dense plan of its total would overstate each token's compute.
 */
export const activeProblem = (totalB: number, activeB: number): string => withSizes('the model asked', totalB, activeB);

/** The active phrase of an ACTIVE match, the total written after it left out ("37b active of 671b" → "37b active of "). */
function activeSpan(m: RegExpExecArray): Match {
  const groups = m.indices?.groups;
  const start = groups?.active?.[0] ?? m.index;
  const end = groups?.totalAfter?.[0] ?? m.index + m[0].length;
  return { index: start, length: end - start };
}

/** A mixture-of-experts model the text names, with why it is declined; its span covers the sizes written with it. */
export function matchMoeModel(text: string): MoeMatch | undefined {
  const at = (m: RegExpExecArray, problem: string): MoeMatch => ({ index: m.index, length: m[0].length, problem });
  const named = ACTIVE_IN_NAME.exec(text);
  if (named) return at(named, withSizes(aName(named), Number(named.groups?.total), Number(named.groups?.active), 'as its name states'));
  for (const f of FAMILIES) {
    const m = f.pattern.exec(text);
    if (m) return at(m, familyProblem(f.name, f.sizes));
  }
  const active = ACTIVE.exec(text);
  if (active) {
    const total = active.groups?.total ?? active.groups?.totalAfter;
    const activeSize = active.groups?.active ?? active.groups?.activeAfter ?? '';
    const sizes = { activeB: inBillions(activeSize), ...(total !== undefined && { totalB: inBillions(total) }), span: activeSpan(active) };
    return {
      ...at(active, total === undefined
        ? `the model asked is a mixture-of-experts model (${written(activeSize)} active): ${NOT_MODELLED}, and ${DENSE_OF_TOTAL}`
        : withSizes('the model asked', inBillions(total), inBillions(activeSize))),
      active: sizes,
    };
  }
  const kind = KIND.exec(text);
  if (kind) {
    const size = kind.groups?.size ?? kind.groups?.experts ?? kind.groups?.grid ?? kind.groups?.total;
    return at(kind, `the model asked is a mixture-of-experts model${size === undefined ? '' : ` (${written(size)})`}: ${NOT_MODELLED}, and ${DENSE_OF_TOTAL}`);
  }
  return undefined;
}

/**
 * "8-way expert parallelism", "expert parallel size 8", "EP=8", "EP 8", "ep8": taken out of the text, so that its count is never
 * a cluster size (QA: "64 H100 nodes with 8-way expert parallelism" planned 64 GPUs of 8 a node), and declined as an MoE's.
 */
const EXPERT_PARALLEL = new RegExp(String.raw`(?:\b(?:with|using|and)\s+)?(?<phrase>(?:(?<![\w.])\d+[\s-]*(?:way|x)[\s-]*)?\bexpert[\s-]*parallel\w*(?:[\s-]*(?:size|degree))?(?:\s*(?:of|=|:)?\s*\d+(?![\w.]))?|\bep\s*(?<set>=|:)?\s*\d+(?![\w.]))`, 'g');

/** Other parallel degrees written as "tp 8", "pp=4": a layout, in which "ep 8" is expert parallelism's degree. */
const OTHER_DEGREES = /\b(?:tp|pp|dp|cp|vp)\s*[=:]?\s*\d+(?![\w.])/;

/**
 * Whether "ep 3" is expert parallelism: "ep" is also how an epoch is shortened ("at ep 3", QA: declined as an MoE). It is read
 * so where written as a setting ("ep=8", "EP: 8", as "tp=8" is), typed in capitals as a parallel degree is ("EP 8", Megatron's
 * and DeepSpeed's "EP"), beside other degrees written so ("tp 8 pp 4 ep 8", a layout), or with experts or an MoE named in the
 * question; otherwise it is left, and said not read as epochs (unmodelled-settings.ts).
 */
function isExpertParallel(m: RegExpExecArray, text: string, question: string): boolean {
  const phrase = m.groups?.phrase ?? '';
  if (!/^ep/.test(phrase) || m.groups?.set !== undefined) return true;
  const degree = /\d+$/.exec(phrase)?.[0] ?? '';
  const capitals = new RegExp(String.raw`(?<![A-Za-z])EP\s*${degree}(?![\w.])`).test(question);
  return capitals || OTHER_DEGREES.test(text) || /\bexperts?\b|\bmoe\b|\bmixture[\s-]*of[\s-]*experts?\b/.test(text);
}

/**
 * Expert parallelism as written ("8-way expert parallelism", without the "with" before it, taken too); undefined when none is
 * named. `question` is the question as typed, whose capitals tell "EP 8" from "ep 3".
 */
export function takeExpertParallel(s: Scanner, question: string): string | undefined {
  EXPERT_PARALLEL.lastIndex = 0;
  for (let m = EXPERT_PARALLEL.exec(s.text); m !== null; m = EXPERT_PARALLEL.exec(s.text)) {
    if (!isExpertParallel(m, s.text, question)) continue;
    s.blank({ index: m.index, length: m[0].length });
    return m.groups?.phrase?.trim();
  }
  return undefined;
}

/** Why a question that names expert parallelism is declined. */
export const expertParallelProblem = (phrase: string): string =>
  `expert parallelism ("${phrase}") splits a mixture-of-experts model's experts over GPUs: ${NOT_MODELLED}, and ${DENSE_OF_TOTAL}`;
