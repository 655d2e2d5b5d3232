import { gpuById } from '@trainplan/presets';
import type { Match } from './match.ts';

/**
 * GPU and node names as people type them: "H100", "A100 80GB", "a100-40gb", "DGX A100", "GB200 NVL72".
 * A node type (system preset) also fixes the GPU, the GPUs per node and the fabric.
 */

export type HardwareMatch = Match & { gpu: string; system?: string; assumed?: string };

// Longest names first: "dgx a100 40gb" before "dgx a100", "gb200" before "b200".
const SYSTEMS: readonly { pattern: RegExp; system: string; gpu: string; assumed?: string }[] = [
  // A named supercomputer is its node type: Selene, on which Megatron-LM's papers ran (Narayanan et al. 2021), is DGX A100s;
  // its size is not taken, so a question gives the nodes it means (or the default is said).
  { pattern: /\bselene\b/, system: 'dgx-a100-80gb', gpu: 'a100-80gb', assumed: "Selene read as its node type, DGX A100 80GB (NVIDIA's Selene, on which Narayanan et al. 2021 ran, is built of them)" },
  // IDRIS's Jean Zay, on which BLOOM trained (BigScience 2022): its A100 partition's node, by the preset's id ("48 jean-zay-a100
  // nodes") or by the machine's name ("48 Jean Zay nodes"), never its "a100" alone (QA: "48 jean-zay-" was left unread, and 128
  // nodes of DGX A100 planned). The name alone is said: Jean Zay has V100 and H100 partitions too.
  { pattern: /\bjean[\s-]*zay[\s-]*a100(?:[\s-]*80\s*gb)?\b/, system: 'jean-zay-a100', gpu: 'a100-80gb' },
  {
    pattern: /\bjean[\s-]*zay(?:'s)?\b/, system: 'jean-zay-a100', gpu: 'a100-80gb',
    assumed: 'Jean Zay read as its A100 partition\'s node, jean-zay-a100 (8 × A100 SXM4 80GB, 4 Omni-Path 100 Gb/s links a node), on which BLOOM trained (BigScience 2022)',
  },
  // JSC's JUPITER Booster, whose node is the quad GH200 preset ("gh200-quad", "JUPITER"); the size is not taken, as Selene's.
  { pattern: /\bgh[\s-]*200[\s-]*quad\b/, system: 'gh200-quad', gpu: 'gh200' },
  { pattern: /\bjupiter(?:[\s-]*booster)?\b/, system: 'gh200-quad', gpu: 'gh200', assumed: 'JUPITER read as its Booster node type, gh200-quad (4 × GH200, an NVLink full mesh, 4 × NDR200 InfiniBand a node)' },
  // 8-GPU PCIe servers (hardware systems.ts): by the preset's id ("h100-pcie-8x") or as a server of the cards ("H100 PCIe
  // nodes"), before the card alone, which takes the same server as its usual node anyway.
  { pattern: /\bh100[\s-]*(?:80\s*gb[\s-]*)?pcie[\s-]*(?:8x\b|(?:servers?|nodes?|systems?|machines?|boxes)\b)/, system: 'h100-pcie-8x', gpu: 'h100-pcie' },
  { pattern: /\ba100[\s-]*(?:80\s*gb[\s-]*)?pcie[\s-]*(?:8x\b|(?:servers?|nodes?|systems?|machines?|boxes)\b)/, system: 'a100-80gb-pcie-8x', gpu: 'a100-80gb-pcie' },
  { pattern: /\bdgx[\s-]*a100[\s-]*(?:40\s*gb|320\s*gb)\b/, system: 'dgx-a100-40gb', gpu: 'a100-40gb' },
  { pattern: /\bdgx[\s-]*a100(?:[\s-]*(?:80\s*gb|640\s*gb))?\b/, system: 'dgx-a100-80gb', gpu: 'a100-80gb' },
  { pattern: /\bdgx[\s-]*h100\b/, system: 'dgx-h100', gpu: 'h100-sxm' },
  { pattern: /\bdgx[\s-]*h200\b/, system: 'dgx-h200', gpu: 'h200' },
  { pattern: /\bdgx[\s-]*b200\b/, system: 'dgx-b200', gpu: 'b200' },
  { pattern: /\bdgx[\s-]*(?:1|v100)\b/, system: 'dgx-1-v100', gpu: 'v100-32gb' },
  // "GB200s" too (QA: plurals slipped past the names and were planned on the default H100).
  { pattern: /\b(?:dgx[\s-]*)?gb200(?:[\s-]*nvl[\s-]*72)?(?=s?\b)|\bnvl[\s-]*72(?=s?\b)/, system: 'gb200-nvl72', gpu: 'gb200' },
  // NDm A100 v4 (A100 80GB); ND A100 v4 has the 40GB part. parse.ts reads Azure's instance names first (instances.ts).
  { pattern: /\b(?:azure[\s-]*)?ndm[\s-]*a100[\s-]*v4\b/, system: 'azure-ndm-a100-v4', gpu: 'a100-80gb' },
];

/** A bare "A100 40" is the 40GB part unless a count or unit follows ("A100 40 nodes", "A100 40 days"). */
const NOT_A_COUNT = String.raw`(?![\s-]*(?:[\d.%]|x\b|[kmbt]\b|nodes?|gpus?|machines?|servers?|boxes|hosts?|systems?|trays?|cards?|days?|d\b|hours?|hrs?|h\b|weeks?|wks?|w\b|months?|mo\b|tokens?|toks?|thousand|million|billion|trillion|percent))`;
const GB_SIZE = (size: number): string => String.raw`(?:${size}\s*g(?:i?b)?s?\b|${size}\b${NOT_A_COUNT})`;

/** The memory size written before the name: "a single 80GB A100", "8 40GB A100s". */
const GB_BEFORE = (size: number): string => String.raw`\b${size}\s*g(?:i?b)?[\s-]*`;

/** "80GB GPUs", "a 141 GB card": a GPU named by its memory alone (not "64 GB gpu buffers", a size of data). */
const GPU_BY_SIZE = (sizes: string): string =>
  String.raw`\b(?:${sizes})\s*gi?b[\s-]*(?:gpus?|cards?|accelerators?)\b(?![\s-]*(?:buffers?|memory|tensors?|messages?|payloads?)\b)`;

/** A GPU named by a size a modelled part has ("a single 80GB GPU"): that part, said so, and the other of the size where there is one. */
const bySize = (sizes: string, gpu: string, part: string, other?: string) => ({
  pattern: new RegExp(GPU_BY_SIZE(sizes)),
  gpu,
  assumed: (written: string) => `${/^8/.test(written) ? 'an' : 'a'} ${written.match(/\d+/)?.[0] ?? sizes} GB GPU taken as the ${part}${other === undefined ? ', the modelled part of that size' : ` (say "${other}" for the other)`}`,
});

/** "Hopper" → "Hopper taken as H100 SXM5 80GB (h100-sxm); also Hopper: h100-pcie, h200, gh200 (name one to plan it)". */
const generation = (word: string, gpu: string, others?: string) => ({
  pattern: new RegExp(String.raw`\b${word}(?=s?\b)`),
  gpu,
  assumed: (written: string) => {
    const name = written.replace(/s$/, '').replace(/^./, (c) => c.toUpperCase());
    return `${name} taken as ${gpuById(gpu)?.name.replace(/^NVIDIA | \(.*/g, '') ?? gpu} (${gpu})${others === undefined ? '' : `; also ${name}: ${others} (name one to plan it)`}`;
  },
});

const GPUS: readonly { pattern: RegExp; gpu: string; assumed?: (written: string) => string }[] = [
  // The PCIe cards before the SXM parts whose names they begin with ("a100-80gb-pcie" is not the a100-80gb).
  { pattern: /\bh100[\s-]*(?:80\s*gb[\s-]*)?pcie(?:[\s-]*80\s*gb)?s?\b/, gpu: 'h100-pcie' },
  { pattern: /\ba100[\s-]*(?:80\s*gb[\s-]*)?pcie(?:[\s-]*80\s*gb)?s?\b/, gpu: 'a100-80gb-pcie' },
  { pattern: new RegExp(String.raw`${GB_BEFORE(40)}a100s?\b|\ba100[\s-]*(?:sxm4?[\s-]*)?${GB_SIZE(40)}`), gpu: 'a100-40gb' },
  { pattern: new RegExp(String.raw`(?:${GB_BEFORE(80)})?\ba100(?:[\s-]*(?:sxm4?[\s-]*)?${GB_SIZE(80)})?s?\b`), gpu: 'a100-80gb' },
  { pattern: new RegExp(String.raw`(?:${GB_BEFORE(80)})?\bh100(?:[\s-]*(?:sxm5?|80\s*gb))*s?\b`), gpu: 'h100-sxm' },
  { pattern: /\bgh[\s-]*200s?\b/, gpu: 'gh200' },
  { pattern: /\bh200s?\b/, gpu: 'h200' },
  { pattern: /\bb200s?\b/, gpu: 'b200' },
  { pattern: new RegExp(String.raw`(?:${GB_BEFORE(32)})?\bv100(?:[\s-]*32\s*gb)?s?\b`), gpu: 'v100-32gb' },
  // By memory alone, last: the sizes the presets have (the default H100 for 80 GB, as for no GPU named).
  bySize('80', 'h100-sxm', 'H100 SXM 80GB', 'A100 80GB'),
  bySize('40', 'a100-40gb', 'A100 SXM4 40GB'),
  bySize('32', 'v100-32gb', 'V100 SXM2 32GB'),
  bySize('96', 'gh200', 'GH200 96GB'),
  bySize('141', 'h200', 'H200 SXM 141GB'),
  bySize('180|192', 'b200', 'B200'),
  bySize('186', 'gb200', 'GB200'),
  // The superchips by their product names: "512 Grace Hopper superchips" is 512 GH200 (QA: planned on the default H100).
  { pattern: /\bgrace[\s-]*hopper(?:[\s-]*superchips?)?\b/, gpu: 'gh200' },
  { pattern: /\bgrace[\s-]*blackwell(?:[\s-]*superchips?)?\b/, gpu: 'gb200' },
  // An architecture's name ("512 Blackwell GPUs"): its flagship preset, said with the others of the name, as a bare "A100" is
  // its 80GB part (QA: "Blackwell GPUs", "Hopper GPUs", "Ampere GPUs" were planned on the default H100, "no GPU named").
  generation('hopper', 'h100-sxm', 'h100-pcie, h200, gh200'),
  generation('ampere(?![\\s-]*altra)', 'a100-80gb', 'a100-40gb, a100-80gb-pcie'),
  generation('blackwell', 'b200', 'gb200'),
  generation('volta', 'v100-32gb'),
];

/**
 * Every GPU preset a name above reads as, by a GPU's name or a node type's, each once: the help lists these
 * (help-answer.ts), so that a GPU the lexicon learns is named there too (QA: the list left out H100 PCIe, A100 PCIe and GH200).
 */
export const HARDWARE_GPU_IDS: readonly string[] = [...new Set([...GPUS, ...SYSTEMS].map((h) => h.gpu))];

/** GeForce numbers: GTX 1050–1080, RTX 2050–5090 ("ti", "super" after). */
const CONSUMER_NUMBER = String.raw`(?:10[5-8]0|[2-5]0[5-9]0)(?:[\s-]*(?:ti|super))?`;
/** Words before a card's number that make it a card: "a", "one", "my", a count of cards ("8 4090s", "8x 4090"). */
const CARD_BEFORE = String.raw`(?:\b(?:a|an|one|single|my|our|two|four|eight)|\d+\s*x?)\s+|\d+x`;
/** After "on", "with", "using" a number is a card unless "GPUs" follows: "on 4090 GPUs" counts them. */
const PLACE_BEFORE = String.raw`\b(?:on|onto|with|using)\s+`;
/** Words after a number that make it a count, not a card: "4090 tokens", "4090 steps", "4090 H100". */
const COUNTED_AFTER = String.raw`(?![\s-]*(?:tokens?|toks?|nodes?|steps?|sequences?|seqs?|samples?|days?|hours?|weeks?|params?|parameters?|[kmbt]\b|[a-z]{1,3}\d{2,4}))`;
const CONSUMER_CARD = new RegExp(String.raw`(?<=${CARD_BEFORE})${CONSUMER_NUMBER}(?:s\b|\b(?:[\s-]*(?:cards?|gpus?)\b)?)${COUNTED_AFTER}`
  + String.raw`|(?<=${PLACE_BEFORE})${CONSUMER_NUMBER}(?:s\b|\b(?:[\s-]*cards?\b)?)(?![\s-]*gpus?\b)${COUNTED_AFTER}`);

/** A consumer card as NVIDIA names it: "GTX 1080 Ti", "RTX 4090", "RTX 4080 Super". */
function consumerCardName(written: string): string {
  const [number = '', suffix] = written.replace(/[\s-]*(?:cards?|gpus?)$|s$/, '').split(/[\s-]+|(?<=\d)(?=[a-z])/);
  const named = suffix === undefined ? '' : ` ${suffix === 'ti' ? 'Ti' : 'Super'}`;
  return `${number.startsWith('10') ? 'GTX' : 'RTX'} ${number}${named}`;
}

/** The memory sizes each GPU's presets have (hardware gpus.ts; GH200 96GB is 576 GB with its Grace's 480 GB LPDDR5X). */
const PRESET_SIZES: Readonly<Record<string, string>> = { v100: '32', a100: '40|80', h100: '80', h200: '141', gh200: '96|576', b200: '180|192', gb200: '186|192' };
/** A GPU's name with a size in GB none of its presets has, after the name ("H100 SXM 94GB") or before it ("40GB H100s"). */
const OFF_SIZE = new RegExp(Object.entries(PRESET_SIZES).map(([gpu, sizes]) => {
  const off = String.raw`(?!(?:${sizes})\s*g)\d{2,3}\s*g(?:i?b)?`;
  return String.raw`\b${gpu}[\s-]*(?:(?:sxm\d?|pcie)[\s-]*)?${off}s?\b(?![\s-]*(?:buffers?|tensors?|messages?|payloads?|of)\b)|\b${off}\b[\s-]*${gpu}(?=s?\b)`;
}).join('|'));

/**
 * A name shaped as a GPU's (letters and 2–4 digits: "H300", "A1000", "X100", "h100e"), none of the presets' nor a setting's
 * ("tp16", "bf16") nor a percentile's ("p99 ttft").
 */
const GPU_TOKEN = String.raw`(?!(?:${[...new Set(HARDWARE_GPU_IDS.map((id) => id.split('-')[0]))].join('|')})s?\b)(?!(?:fp|bf|tf|tp|pp|dp|ep|cp|sp|vp|mp|mb|bs|fy|sm)\d|p\d\d\b|x86\b)[a-z]{1,2}\d{2,4}(?:(?![bgkmst])[a-z])?`;
/** Such a name where a GPU stands: after a count, "one", "on", "of", "DGX", "vs"; or before "GPUs", "nodes", "vs". */
const GPU_SHAPED = new RegExp(String.raw`(?:(?<=(?:(?<![\w.])\d+k?\s*(?:x\s*)?|\b(?:an?|one|single|on|onto|of|with|using|the|per|each|vs|versus|or|and|than)\s+))(?:[hd]gx[\s-]*)?|\b[hd]gx[\s-]*)\b${GPU_TOKEN}(?=s?\b)`
  + String.raw`|\b${GPU_TOKEN}(?=s?[\s-]*(?:gpus?|nodes?|cards?|servers?|accelerators?|boxes|chips?|vs|versus|or)\b)`);

/** The GPU an OFF_SIZE match names ("h100" of "40gb h100s"). */
const offSizeGpu = (m: string): string => /[a-z]+\d+/.exec(m.replace(/^\d+\s*g\w*[\s-]*/, ''))?.[0] ?? '';

/**
 * Accelerators no preset models, and variants of modelled ones that differ from the preset (PCIe and NVL
 * cards have other clocks, power and links than the SXM parts): named back and declined, never read as
 * the nearest preset. Checked before the presets, so "H100 NVL" is never the H100 SXM.
 */
const UNMODELLED: readonly { pattern: RegExp; name: (m: string) => string; modelled?: string | ((m: string) => string); unknown?: true }[] = [
  // Each name ends where a plural "s" may follow ("1024 H100 NVLs", "512 B100s", "1024 MI300Xs"): QA: the plurals slipped
  // past and were planned on the default H100, as "2048 H800s" no longer was.
  // Never "nvls" beside a collective ("all-reduce … on 8 h100 nvls"): NCCL's NVLS algorithm (collective-words.ts).
  { pattern: /\bh100[\s-]*(?:(?:80|94)\s*gb[\s-]*)?nvl(?:s(?<!\b(?:all\w*|reduce|gather|scatter|broadcast|nccl)\b.*))?\b/, name: () => 'H100 NVL', modelled: 'the H100 SXM (h100-sxm) and PCIe (h100-pcie) parts are modelled' },
  { pattern: /\ba100[\s-]*40\s*gb[\s-]*pcie\b|\ba100[\s-]*pcie[\s-]*40\s*gb\b/, name: () => 'A100 40GB PCIe', modelled: 'the A100 80GB PCIe (a100-80gb-pcie) and the SXM4 parts (a100-40gb, a100-80gb) are modelled' },
  { pattern: /\bv100[\s-]*(?:(?:sxm2?|pcie)[\s-]*)?16\s*g(?:i?b)?\b/, name: () => 'V100 16GB', modelled: 'only the 32 GB V100 (v100-32gb) is modelled' },
  { pattern: /\bv100[\s-]*(?:32\s*gb[\s-]*)?pcie\b/, name: () => 'V100 PCIe', modelled: 'only the V100 SXM2 32GB part (v100-32gb) is modelled' },
  // QA: "H200 NVL", "H200 PCIe" were planned as the H200 SXM, "B200 NVL" as the B200; a GB200 NVL36 as the NVL72 rack.
  {
    pattern: /\b[hb]200[\s-]*(?:\d+\s*gb[\s-]*)?(?:pcie(?=s?\b)|nvl(?:s(?<!\b(?:all\w*|reduce|gather|scatter|broadcast|nccl)\b.*))?\b)|\bgb200[\s-]*nvl[\s-]*(?!72\b)\d+\b/,
    name: (m) => m.replace(/[\s-]+/g, ' ').replace(/nvls$/, 'nvl').toUpperCase().replace('PCIE', 'PCIe'), modelled: 'the SXM parts (h200, b200) and the GB200 NVL72 are modelled',
  },
  // A memory size no preset of the GPU has, after its name or before it ("H100 40GB", "H100 SXM 94GB", "A100 120GB", "a 40GB
  // H100"): QA: each was planned as the preset of the name (80 GB H100 SXM, A100 80GB), the size asked dropped unsaid.
  { pattern: OFF_SIZE, name: (m) => `${offSizeGpu(m).toUpperCase()} ${/\d+(?=\s*g)/.exec(m)?.[0] ?? ''}GB`, modelled: (m) => `its presets have ${PRESET_SIZES[offSizeGpu(m)]?.replace('|', ' or ')} GB` },
  // A GPU named only by a memory size none of the modelled parts has ("a 24GB GPU"; not "1 GB GPU buffers"): V100 32 GB,
  // A100 40 and 80 GB, H100 80 GB, GH200 96 GB, H200 141 GB, B200 180 and 192 GB, GB200 186 GB.
  { pattern: new RegExp(String.raw`\b(?!(?:32|40|80|96|141|180|186|192)\s*g)${GPU_BY_SIZE(String.raw`\d+`).slice(2)}`), name: (m) => `a ${m.match(/\d+/)?.[0] ?? ''} GB GPU` },
  { pattern: /\bg?b[13]00(?=s?\b)|\bblackwell[\s-]*ultra\b/, name: (m) => (/ultra/.test(m) ? 'Blackwell Ultra (B300)' : m.toUpperCase()) },
  // "2048 H800s": the plural too (the refusal named the model alone).
  { pattern: /\b[ah]800(?=s?\b)|\bh20(?=s?\b)/, name: (m) => m.toUpperCase() },
  { pattern: /\b(?:amd[\s-]*)?(?:instinct[\s-]*)?mi[\s-]*[1-4]\d{2}[a-rt-z]?(?=s?\b)/, name: (m) => m.replace(/^(?:amd[\s-]*)?(?:instinct[\s-]*)?/, '').replace(/[\s-]/g, '').toUpperCase() },
  { pattern: /\b(?:google[\s-]*)?(?:cloud[\s-]*)?tpus?(?:[\s-]*v\d+[a-z]?)?\b/, name: (m) => m.replace(/^.*?tpus?/, 'TPU').replace(/[\s-]*v(\d)/, ' v$1') },
  { pattern: /\b(?:intel[\s-]*)?(?:habana[\s-]*)?gaudi[\s-]*\d?(?=s?\b)/, name: (m) => `Gaudi${m.match(/\d/)?.[0] ?? ''}`.replace(/(\d)$/, ' $1') },
  { pattern: /\b(?:aws[\s-]*)?(?:trainium\d?|trn[12])(?=s?\b)/, name: () => 'Trainium' },
  { pattern: /\b(?:nvidia[\s-]*)?(?:geforce[\s-]*)?rtx[\s-]*(?:a?\d{4}(?:[\s-]*ti)?|pro[\s-]*\d{4})?(?=s?\b)/, name: (m) => m.replace(/^.*?rtx/, 'RTX').replace(/[\s-]+/g, ' ').trim().toUpperCase() },
  { pattern: /\b(?:l40s?|l4|a10g?|a40|a[2-6]000|t4|p100|k80)(?=s?\b)/, name: (m) => m.toUpperCase() },
  // A consumer card by its number alone: "on one 4090", "a 3090", "8x 4090s", "two 5090 cards" (QA: "can I fit a 13B model on one
  // 4090" was planned on H100s). Only where a card stands, never a count ("4090 tokens", "on 4090 GPUs" count tokens and GPUs).
  { pattern: CONSUMER_CARD, name: consumerCardName },
  // Last: any other GPU-shaped name where a GPU stands ("one H300", "128 DGX H300", "H300 nodes", "an A1000", "h100e"), named
  // as no known GPU (QA: each was planned on the default H100, "no GPU named", as if none had been written).
  { pattern: GPU_SHAPED, name: (m) => m.replace(/^[hd]gx[\s-]*/, '').toUpperCase(), unknown: true },
];

type UnmodelledHardware = Match & { name: string; modelled?: string; unknown?: true };

/** An accelerator the presets do not model, named as the question wrote it ("MI300X", "H100 PCIe"). */
export function matchUnmodelledHardware(text: string): UnmodelledHardware | undefined {
  for (const u of UNMODELLED) {
    const m = u.pattern.exec(text);
    if (!m) continue;
    const modelled = typeof u.modelled === 'function' ? u.modelled(m[0]) : u.modelled;
    return { index: m.index, length: m[0].length, name: u.name(m[0]), ...(modelled !== undefined && { modelled }), ...(u.unknown && { unknown: true }) };
  }
  return undefined;
}

/** The node type or GPU a question names, with a note when a variant was assumed ("A100" → 80GB). */
export function matchHardware(text: string): HardwareMatch | undefined {
  for (const s of SYSTEMS) {
    const m = s.pattern.exec(text);
    if (m) return { index: m.index, length: m[0].length, gpu: s.gpu, system: s.system, ...(s.assumed !== undefined && { assumed: s.assumed }) };
  }
  for (const g of GPUS) {
    const m = g.pattern.exec(text);
    if (!m) continue;
    const where = { index: m.index, length: m[0].length, gpu: g.gpu, ...(g.assumed !== undefined && { assumed: g.assumed(m[0]) }) };
    // A bare "A100" is taken as the 80GB part (DGX A100 640GB, the Selene node of Narayanan et al. 2021).
    if (g.gpu === 'a100-80gb' && /a100/.test(m[0]) && !/80/.test(m[0].replace('a100', ''))) return { ...where, assumed: 'A100 taken as the 80GB part (say "A100 40GB" for the other)' };
    return where;
  }
  return undefined;
}
