import type { Match } from './match.ts';

/**
 * GPU and node names as people type them: "H100", "A100 80GB", "a100-40gb", "DGX A100", "GB200 NVL72".
 * A node type (system preset) also fixes the GPU, the GPUs per node and the fabric.
 */

export type HardwareMatch = Match & { gpu: string; system?: string; assumed?: string };

// Longest names first: "dgx a100 40gb" before "dgx a100", "gb200" before "b200".
const SYSTEMS: readonly { pattern: RegExp; system: string; gpu: string }[] = [
  { pattern: /\bdgx[\s-]*a100[\s-]*(?:40\s*gb|320\s*gb)\b/, system: 'dgx-a100-40gb', gpu: 'a100-40gb' },
  { pattern: /\bdgx[\s-]*a100(?:[\s-]*(?:80\s*gb|640\s*gb))?\b/, system: 'dgx-a100-80gb', gpu: 'a100-80gb' },
  { pattern: /\bdgx[\s-]*h100\b/, system: 'dgx-h100', gpu: 'h100-sxm' },
  { pattern: /\bdgx[\s-]*h200\b/, system: 'dgx-h200', gpu: 'h200' },
  { pattern: /\bdgx[\s-]*b200\b/, system: 'dgx-b200', gpu: 'b200' },
  { pattern: /\bdgx[\s-]*(?:1|v100)\b/, system: 'dgx-1-v100', gpu: 'v100-32gb' },
  { pattern: /\b(?:dgx[\s-]*)?gb200(?:[\s-]*nvl[\s-]*72)?\b|\bnvl[\s-]*72\b/, system: 'gb200-nvl72', gpu: 'gb200' },
  { pattern: /\b(?:azure[\s-]*)?nd[\s-]*m?[\s-]*a100[\s-]*v4\b/, system: 'azure-ndm-a100-v4', gpu: 'a100-80gb' },
];

const GPUS: readonly { pattern: RegExp; gpu: string }[] = [
  { pattern: /\ba100[\s-]*40\s*gb\b/, gpu: 'a100-40gb' },
  { pattern: /\ba100(?:[\s-]*(?:sxm4?[\s-]*)?80\s*gb)?s?\b/, gpu: 'a100-80gb' },
  { pattern: /\bh100(?:[\s-]*(?:sxm5?|80\s*gb))*s?\b/, gpu: 'h100-sxm' },
  { pattern: /\bh200s?\b/, gpu: 'h200' },
  { pattern: /\bb200s?\b/, gpu: 'b200' },
  { pattern: /\bv100(?:[\s-]*32\s*gb)?s?\b/, gpu: 'v100-32gb' },
];

/** The node type or GPU a question names, with a note when a variant was assumed ("A100" → 80GB). */
export function matchHardware(text: string): HardwareMatch | undefined {
  for (const s of SYSTEMS) {
    const m = s.pattern.exec(text);
    if (m) return { index: m.index, length: m[0].length, gpu: s.gpu, system: s.system };
  }
  for (const g of GPUS) {
    const m = g.pattern.exec(text);
    if (!m) continue;
    const where = { index: m.index, length: m[0].length, gpu: g.gpu };
    // A bare "A100" is taken as the 80GB part (DGX A100 640GB, the Selene node of Narayanan et al. 2021).
    if (g.gpu === 'a100-80gb' && !/80\s*gb/.test(m[0])) return { ...where, assumed: 'A100 taken as the 80GB part (say "A100 40GB" for the other)' };
    return where;
  }
  return undefined;
}
