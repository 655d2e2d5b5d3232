import type { Scanner } from './quantities.ts';
import { switchPattern, takeSwitch } from './switch-words.ts';

/**
 * The attention kernel a question states: the scenario's training.attentionKernel, fused flash attention (Dao et al. 2022)
 * or Megatron 2021–22's unfused softmax attention, whose scores matrix is written to memory and read back. QA: "without
 * flash attention" was said not read ("the plans take flash attention") while the planner models the unfused kernel (21.1 s
 * → 28.9 s a step for Llama 3 70B on 64 GPUs), and the bot's own V100 links plan it.
 */

/** Flash attention's names: "flash attention (2)", "flash-attn", "FA2" (the last after a word that turns it on or off). */
const FLASH = String.raw`\bflash[\s-]*(?:attn|attention)\w*(?:[\s-]*[1-4](?![\w.]))?`;
const FA = String.raw`\bfa[1-4]\b`;
/** The unfused kernel's names: "unfused attention", and eager, naive, vanilla or standard attention (PyTorch's eager path). */
const UNFUSED = /(?:\b(?:with|using|use)\s+)?(?:an?\s+|the\s+)?\b(?:unfused|non[\s-]*fused|eager|naive|vanilla|standard|math)\s+(?:softmax\s+)?attention(?:\s+kernel)?\b/;

const FLASH_SWITCH = switchPattern(FLASH);
/** "FA2" alone may name anything: only with a word that turns it on or off ("with fa2", "no fa3"). */
const FA_SWITCH = new RegExp(String.raw`(?:(?<off>\b(?:no|without)|\bw\/o)|\b(?:with|using))\s+${FA}`);

/** The kernel read, and the words it was read from. */
export interface AttentionKernelRead {
  kernel: 'flash' | 'unfused';
  written: string;
}

/** The attention kernel the text states, taken out of it; undefined where it states none. */
export function takeAttentionKernel(s: Scanner): AttentionKernelRead | undefined {
  const unfused = s.take(UNFUSED);
  if (unfused !== undefined) return { kernel: 'unfused', written: unfused[0].trim() };
  const flash = takeSwitch(s, FLASH_SWITCH);
  if (flash !== undefined) return { kernel: flash.on ? 'flash' : 'unfused', written: flash.written };
  const fa = s.take(FA_SWITCH);
  // "fa2" with neither word before it is left in the text (for the numbers not read to say).
  if (fa === undefined) return undefined;
  return { kernel: fa.groups?.off === undefined ? 'flash' : 'unfused', written: fa[0].trim() };
}
