import { networkById } from '@trainplan/presets';
import type { Scanner } from './quantities.ts';

/**
 * The network between nodes a question names: a preset id ("edr-ib-4x"), or a fabric by its common name ("HDR InfiniBand",
 * "RoCE"), read as the preset of that fabric where one models it, its NICs and speed said back. A network no preset
 * models ("200Gbps ethernet", "1 NIC per node", "100 Gbps networking per node") is said not read, never dropped unsaid
 * (parse.ts then says the network assumed).
 */

/** Fabrics by common name → the preset modelling them, with the speed of one of its NICs (Gb/s) a stated speed must match. */
const FABRICS: readonly { name: RegExp; preset: string; nicGbps: number }[] = [
  { name: /\bedr(?=\d|\b)/, preset: 'edr-ib-4x', nicGbps: 100 },
  { name: /\bhdr(?=\d|\b)/, preset: 'hdr-ib-8x', nicGbps: 200 },
  { name: /\bndr(?=\d|\b)/, preset: 'ndr-ib-8x', nicGbps: 400 },
  { name: /\bomni[\s-]*path\b/, preset: 'omnipath-4x', nicGbps: 100 },
  { name: /\broce(?:v2)?\b/, preset: 'roce-400g-8x', nicGbps: 400 },
];

/** The inter-node presets a question may name by id (nvl72 is GB200's NVLink domain, named with its system: hardware.ts). */
const PRESET_IDS = ['edr-ib-4x', 'hdr-ib-8x', 'ndr-ib-8x', 'omnipath-4x', 'roce-400g-8x'] as const;

/** A link speed: "100 Gbps", "200gbps", "400 Gb/s", "400G". */
const SPEED = String.raw`(\d+(?:\.\d+)?)\s*(?:gbps|gb\/s|gbit(?:\/s)?|g)\b`;
// "NDR400 x8": the speed fused to the generation, the NICs a node after it (read from the phrase). "25GbE", "Spectrum-X": no preset.
// The generation after the name too ("InfiniBand NDR": QA read "infiniband" alone, "which generation … is not said"), and AWS's
// EFA ("with EFA", "8x400G EFA": QA dropped it unsaid, "no network named").
const FABRIC_WORD = String.raw`(?:(?:hdr|ndr|edr|xdr)(?:\d+)?[\s-]*(?:infiniband|ib)?(?:\s*x\s*\d+\b)?|(?:infiniband|ib)[\s-]*(?:hdr|ndr|edr|xdr)\d*|infiniband|ib|(?:aws[\s-]*)?efa(?:[\s-]*v?\d)?|ethernet|\d+(?:\.\d+)?\s*gbe|gige|spectrum[\s-]*x(?:\s+ethernet)?|roce(?:v2)?|omni[\s-]*path)`;
const NETWORK_WORD = String.raw`(?:networking|network|interconnect|fabric|nics?|links?)`;
const PER = String.raw`(?:\s+(?:per|a|each|\/)\s*(?:node|server|machine|box|gpu|HW))?`;
const LEAD = String.raw`(?:\b(?:over|with|on|using|via|across)\s+)?(?:only\s+)?(?:an?\s+)?`;

/** A network by preset id, by fabric (a speed before it or not), by speed alone, or by NICs a node. */
const NETWORK_PHRASE = new RegExp([
  String.raw`${LEAD}\b(?:${PRESET_IDS.join('|')})\b(?:\s+${NETWORK_WORD})?`,
  // "4x HDR 200G IB per node": NICs a node before the fabric, its speed before or after it.
  String.raw`${LEAD}(?:(\d+)\s*x\s*)?(?:${SPEED}\s*)?\b${FABRIC_WORD}\b(?:\s*${SPEED}(?:\s*(?:infiniband|ib)\b)?)?(?:\s+${NETWORK_WORD})?${PER}`,
  String.raw`${LEAD}${SPEED}\s*${NETWORK_WORD}${PER}`,
  String.raw`${LEAD}\b\d+\s*nics?${PER}`,
].join('|'));

/** The network a question names: a preset and how it was read, or the phrase no preset models. */
type NetworkRead = { network: string; reading: string } | { unread: string; why: string };

/** Why "infiniband" alone is not read as a preset; a question of a node's own network needs none (answer/gpu-facts.ts). */
export const WHICH_INFINIBAND = 'which InfiniBand generation (EDR, HDR, NDR) is not said';

const describe = (id: string): string => networkById(id)?.name ?? id;

/** The presets, for a network not read: "edr-ib-4x (4 × EDR InfiniBand 100 Gb/s (DGX-1)), …". */
const NETWORK_PRESETS_TEXT = PRESET_IDS.map((id) => `${id} (${describe(id)})`).join(', ');

/** The network the (normalised, hardware-blanked) text names, taken out of it; undefined when it names none. */
export function takeNetwork(s: Scanner): NetworkRead | undefined {
  const m = s.take(NETWORK_PHRASE);
  if (m === undefined) return undefined;
  // The network as named, less the "over", "with only" before it.
  const phrase = m[0].trim().replace(new RegExp(`^${LEAD}`), '');
  const id = PRESET_IDS.find((p) => new RegExp(String.raw`\b${p}\b`).test(phrase));
  if (id !== undefined) return { network: id, reading: `the network between nodes read as ${id}: ${describe(id)}` };
  const [, nicsBefore, speedBefore, speedAfter, speedAlone] = m;
  const fused = /\b(?:hdr|ndr|edr|xdr)(\d+)/.exec(phrase);
  const speed = speedBefore ?? speedAfter ?? speedAlone ?? fused?.[1];
  const nicsAsked = nicsBefore ?? /\bx\s*(\d+)\b/.exec(phrase)?.[1];
  const fabric = FABRICS.find((f) => f.name.test(phrase));
  // A fabric named at its preset's speed, or with none: the preset ("HDR InfiniBand" is hdr-ib-8x, 8 NICs of 200 Gb/s a node).
  if (fabric !== undefined && !/\bnics?\b/.test(phrase) && (speed === undefined || Number(speed) === fabric.nicGbps)) {
    const nics = networkById(fabric.preset)?.nicsPerNode;
    // "4x HDR": a NIC count the preset does not have is said, never the preset's 8 taken unsaid (its bandwidth is twice 4's).
    const count = nicsAsked === undefined || Number(nicsAsked) === nics ? `${nics ?? 'its'} NICs a node, the preset's`
      : `${nicsAsked} NICs a node asked, the preset has ${nics ?? 'its own'}: the bandwidth between nodes is the preset's`;
    return { network: fabric.preset, reading: `"${phrase}" read as ${fabric.preset}: ${describe(fabric.preset)} (${count})` };
  }
  const why = fabric !== undefined ? `no network preset is ${fabric.preset.split('-')[0]?.toUpperCase()} at that speed or NIC count`
    // XDR (800 Gb/s, ConnectX-8) and AWS's EFA (SRD over its own NICs) are named, not left unsaid: no preset models them.
    : /\bxdr\b/.test(phrase) ? 'XDR InfiniBand is not modelled'
    : /\befa\b/.test(phrase) ? 'EFA is not modelled'
    : /\b(?:infiniband|ib)\b/.test(phrase) ? WHICH_INFINIBAND
      : 'no network preset models it';
  return { unread: phrase, why: `${why}; the presets are ${NETWORK_PRESETS_TEXT}` };
}

/**
 * In-network reduction asked for a collective: "with SHARP", "using CollNet", "NCCL_COLLNET_ENABLE=1" (normalised: "nccl
 * collnet enable=1"), "in-network reduction"; "without SHARP", "collnet enable=0" turn it off, as NCCL leaves it. Never
 * "NVLink SHARP" (NVLS), the NVSwitch's own reduction inside a node, which NCCL runs with CollNet off.
 */
const NOT_NVLINK = String.raw`(?<!\bnv[\s-]*links?[\s-]*)`;
const REDUCTION = String.raw`(?:(?:infiniband|ib)\s+)?(?:sharp(?:\s*v\d)?|(?:nccl\s+)?collnet(?:[\s-]*(?:direct|chain))?|in[\s-]*network\s+(?:reduction|reduce))`;
const REDUCTION_OFF = new RegExp(String.raw`${NOT_NVLINK}\b(?:without|no)\s+${REDUCTION}\b|${NOT_NVLINK}\b${REDUCTION}(?:\s+enable\s*=\s*0|\s+(?:off|disabled))(?![\w.])`);
const REDUCTION_ON = new RegExp(String.raw`${NOT_NVLINK}\b(?:(?:with|using|via|and|enable|enabling|enabled)\s+)?${REDUCTION}(?:\s+enable\s*=\s*1|\s+(?:on|enabled))?(?![\w.])`);

/** Whether a collective is asked with in-network reduction (CollNet, SHARP) on, or off; undefined when not said. Taken out of the text. */
export function takeInNetworkReduction(s: Scanner): boolean | undefined {
  if (s.take(REDUCTION_OFF) !== undefined) return false;
  return s.take(REDUCTION_ON) === undefined ? undefined : true;
}
