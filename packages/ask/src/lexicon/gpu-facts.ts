import type { Precision } from '@trainplan/hardware';

/**
 * A GPU's own figures asked of it, with no model to plan: "what is the peak bf16 of the b200", "how much memory does an h200
 * have", "what is the nvlink bandwidth of an h100", "h100 specs" (answer/gpu-facts.ts). Read on the normalised text.
 */

/** The figures a question may ask of a GPU, in the order an answer leads with them. */
export type GpuFact = 'peak' | 'memory' | 'memoryBandwidth' | 'nvlink' | 'power';

/** NVLink by its name ("nvlink", "nv-link", "nvlinks"). */
const NVLINK = /\bnv[\s-]*links?\b/;
/** Memory's bandwidth: "memory bandwidth", "hbm bw", "bandwidth of the memory". */
const MEMORY_BANDWIDTH = /\b(?:memory|mem|hbm\w*|vram|dram)[\s-]*(?:bandwidth|bw|speed)\b|\bbandwidth of (?:the |its )?(?:memory|hbm\w*|vram)\b/;
/** A bandwidth with no link or memory named ("what bandwidth does an h100 have"): both are said. */
const BANDWIDTH = /\bbandwidth\b|\bbw\b/;
/** Memory itself: "memory", "hbm", "vram", "gpu ram", "how much ram". */
const MEMORY = /\b(?:memory|mem|hbm\w*|vram|ram)\b/;
/** A peak rate: "peak", "flops", "tflops", "tflop/s", "teraflops", or a precision named alone ("the bf16 of the b200"). */
const PEAK = /\b(?:peak|[tpe]?flops?(?:\/s)?|(?:tera|peta)[\s-]*flops|fp8|fp16|bf16|tf32|fp32)\b/;
/** Power: "tdp", "power", "watts", "how many w". */
const POWER = /\b(?:tdp|power|watts?|wattage)\b/;
/** Every figure: "specs", "spec sheet", "datasheet", "tell me about the h100". */
const ALL = /\b(?:specs?|spec[\s-]*sheet|specifications?|datasheet|data[\s-]*sheet)\b|^(?:tell me about|describe)\b/;

/** The figures the (normalised) question asks of a GPU, each once, in GpuFact's order; none when it asks none. */
export function gpuFactsAsked(normal: string): GpuFact[] {
  if (ALL.test(normal)) return ['peak', 'memory', 'memoryBandwidth', 'nvlink', 'power'];
  const nvlink = NVLINK.test(normal);
  const memoryBandwidth = MEMORY_BANDWIDTH.test(normal);
  // "Bandwidth" alone names neither link: the memory's and NVLink's both said.
  const bandwidth = !nvlink && !memoryBandwidth && BANDWIDTH.test(normal);
  const facts: GpuFact[] = [];
  if (PEAK.test(normal)) facts.push('peak');
  if (!memoryBandwidth && MEMORY.test(normal)) facts.push('memory');
  if (memoryBandwidth || bandwidth) facts.push('memoryBandwidth');
  if (nvlink || bandwidth) facts.push('nvlink');
  if (POWER.test(normal)) facts.push('power');
  return facts;
}

/** The precisions a question names, in its order: "peak bf16 and fp8" → bf16, fp8. */
export function precisionsAsked(normal: string): Precision[] {
  const named = [...normal.matchAll(/\b(fp8|fp16|bf16|tf32|fp32)\b/g)].map((m) => m[1] as Precision);
  return named.filter((p, i) => named.indexOf(p) === i);
}

/**
 * Asking how many of something ("how many h100 for 1 TB of memory") is a cluster question, never a GPU's figure; how
 * many NVLinks a GPU has is one.
 */
export const ASKS_HOW_MANY = /\bhow many\b(?!\s+(?:nv[\s-]*)?links?\b)/;
