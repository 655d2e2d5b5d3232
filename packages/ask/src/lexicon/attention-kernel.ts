import type { Scanner } from './quantities.ts';
import { NEGATION, switchPattern, takeSwitchReading, type SwitchReading } from './switch-words.ts';

/**
 * The attention kernel a question states: the scenario's training.attentionKernel, fused flash attention (Dao et al. 2022)
 * or Megatron 2021–22's unfused softmax attention, whose scores matrix is written to memory and read back. QA: "without
 * flash attention" was said not read ("the plans take flash attention") while the planner models the unfused kernel (21.1 s
 * → 28.9 s a step for Llama 3 70B on 64 GPUs), and the bot's own V100 links plan it.
 */

/** Flash attention's names: "flash attention (2)", "flash-attn", "FA2" (the last with a word that turns it on or off). */
const FLASH = String.raw`\bflash[\s-]*(?:attn|attention)\w*(?:[\s-]*[1-4](?![\w.]))?`;
const FA = String.raw`\bfa[1-4]\b`;
/**
 * The unfused kernel's names: "unfused attention", and eager, naive, vanilla or standard attention (PyTorch's eager path).
 * Never the heads' layout: "vanilla attention instead of GQA" and "standard attention heads" are multi-head attention (QA:
 * both planned the unfused kernel), a model's shape, not a kernel.
 */
const UNFUSED_NAME = String.raw`\b(?:unfused|non[\s-]*fused|eager|naive|vanilla|standard|math)\s+(?:softmax\s+)?attention(?:\s+kernel)?\b`
  + String.raw`(?!\s+(?:heads?|instead\s+of|rather\s+than|vs\.?|versus|over|not)\b|\s+\(?(?:mha|gqa|mqa)\b|\s+(?:with|and)\s+(?:no\s+)?(?:gqa|mqa|grouped))`;
const UNFUSED = new RegExp(String.raw`(?:(?<off>${NEGATION})|(?:\b(?:with|using|use)\s)?(?:an?\s|the\s)?)${UNFUSED_NAME}`);

const FLASH_SWITCH = switchPattern(FLASH);
/** "FA2" alone may name anything: only with a word that turns it on or off ("with fa2", "no fa3", "FA2 disabled"). */
const FA_SWITCH = switchPattern(FA);

/** The kernel read, and the words it was read from; or the words that ask it both ways, or contradict the one read. */
interface AttentionKernelRead {
  kernel?: 'flash' | 'unfused';
  written: string;
  other?: string;
  both?: string;
}

/** Flash attention's reading as the kernel: off is the unfused kernel. */
function kernelOf(reading: SwitchReading): AttentionKernelRead {
  if (reading.both !== undefined) return { written: reading.both, both: reading.both };
  const read = reading.read!;
  return { kernel: read.on ? 'flash' : 'unfused', written: read.written, ...(reading.other !== undefined && { other: reading.other }) };
}

/** The attention kernel the text states, taken out of it; undefined where it states none. */
export function takeAttentionKernel(s: Scanner): AttentionKernelRead | undefined {
  const unfused = s.take(UNFUSED);
  // "No eager attention" turns the unfused kernel off: flash, the default.
  if (unfused !== undefined) return { kernel: unfused.groups?.off === undefined ? 'unfused' : 'flash', written: unfused[0].trim() };
  const flash = takeSwitchReading(s, FLASH_SWITCH);
  if (flash !== undefined) return kernelOf(flash);
  // "fa2" with no word turning it on or off is left in the text (for the numbers not read to say).
  const fa = takeSwitchReading(s, FA_SWITCH, { bare: false });
  return fa === undefined ? undefined : kernelOf(fa);
}
