import type { Precision } from '@trainplan/hardware';

/**
 * A GPU's own figures asked of it, with no model to plan: "what is the peak bf16 of the b200", "how much memory does an h200
 * have", "what is the nvlink bandwidth of an h100", "h100 specs" (answer/gpu-facts.ts). Read on the normalised text.
 */

/**
 * The figures a question may ask of a GPU, in the order an answer leads with them; `network` is its node's (the system
 * named, or the GPU's usual one): the NICs between nodes, their fabric and SHARP (answer/system-network.ts).
 */
export type GpuFact = 'peak' | 'memory' | 'memoryBandwidth' | 'nvlink' | 'network' | 'power';

/** NVLink by its name ("nvlink", "nv-link", "nvlinks"), or the node's inside by its switch or its name ("nvswitch", "intra-node"). */
const NVLINK = /\bnv[\s-]*links?\b|\bnv[\s-]*switch(?:es)?\b|\bintra[\s-]*node\b/;
/**
 * The network between nodes: "network", "interconnect", "fabric", a fabric's name, "NICs", "inter-node", "scale-out", and
 * in-network reduction ("SHARP", "CollNet"). "NVLink SHARP" is the NVSwitch's reduction, which the answer says beside it.
 */
const NETWORK = /\b(?:network(?:ing)?|interconnects?|fabrics?|infiniband|ib|roce|ethernet|nics?|hcas?|rails?|inter[\s-]*node|scale[\s-]*out|sharp|collnet)\b|\bbetween (?:the )?nodes\b|\bacross (?:the )?nodes\b/;
/** In-network reduction asked by name: "SHARP", "CollNet", "in-network reduction"; the answer leads with it. */
const SHARP = /\b(?:sharp|collnet|in[\s-]*network[\s-]*(?:reduction|reduce|compute|computing))\b/;
/** Memory's bandwidth: "memory bandwidth", "hbm bw", "bandwidth of the memory". */
const MEMORY_BANDWIDTH = /\b(?:memory|mem|hbm\w*|vram|dram)[\s-]*(?:bandwidth|bw|speed)\b|\bbandwidth of (?:the |its )?(?:memory|hbm\w*|vram)\b/;
/** A bandwidth with no link or memory named ("what bandwidth does an h100 have"): both are said. */
const BANDWIDTH = /\bbandwidth\b|\bbw\b/;
/** Memory itself: "memory", "hbm", "vram", "gpu ram", "how much ram". */
const MEMORY = /\b(?:memory|mem|hbm\w*|vram|ram)\b/;
/**
 * A peak rate: "peak", "flops", "tflops", "tflop/s", "teraflops", "throughput", a precision named alone ("the bf16 of the
 * b200"), an integer one ("int8", "tops"), or sparsity ("h100 sparse fp8", "with 2:4 sparsity").
 */
const PEAK = /\b(?:peak|[tpe]?flops?(?:\/s)?|(?:tera|peta)[\s-]*flops|throughput|fp8|fp16|bf16|tf32|fp32|int8|tops|sparse|sparsity)\b/;
/** FP64 by its names ("fp64", "float64", "double precision"): no preset keeps it, said so (answer/fp64-note.ts). */
export const ASKS_FP64 = /\b(?:fp64|float64|f64|double[\s-]*precision)\b/;
/**
 * Why no FP64 is kept, said of a GPU (answer/fp64-note.ts) and of a plan asked in it (parse.ts): LLM training runs its
 * matrix multiplies in BF16 or FP8 with FP32 accumulation and master weights (Micikevicius et al. 2018, "Mixed Precision
 * Training"); FP64 is the precision of HPC codes.
 */
export const FP64_NOT_KEPT = 'FP64 (double precision) is not kept: the GPU presets hold the precisions LLM training runs in (BF16 or FP8 matrix math, '
  + 'FP32 accumulation and master weights); FP64 matters for HPC codes such as simulation and linear solvers';
/** Structured sparsity asked: "sparse", "sparsity", "2:4". */
const SPARSE = /\b(?:sparse|sparsity)\b|(?<![\d:])2:4(?![\d:])/;
/** INT8 asked: by name, or as TOPS (tera-operations a second, the unit datasheets give integer rates in). */
const INT8 = /\b(?:int8|tops)\b/;
/** Power: "tdp", "power", "watts", "how many w". */
const POWER = /\b(?:tdp|power|watts?|wattage)\b/;
/** Every figure: "specs", "spec sheet", "datasheet", "tell me about the h100". */
const ALL = /\b(?:specs?|spec[\s-]*sheet|specifications?|datasheet|data[\s-]*sheet)\b|^(?:tell me about|describe)\b/;

/** The figures the (normalised) question asks of a GPU, each once, in GpuFact's order; none when it asks none. */
export function gpuFactsAsked(normal: string): GpuFact[] {
  if (ALL.test(normal)) return ['peak', 'memory', 'memoryBandwidth', 'nvlink', 'power'];
  const nvlink = NVLINK.test(normal);
  const memoryBandwidth = MEMORY_BANDWIDTH.test(normal);
  // "NVLink SHARP" is the NVSwitch's own reduction: NVLink asked, not the network between nodes.
  const network = NETWORK.test(normal.replace(/\bnv[\s-]*links?[\s-]+sharp\b/g, ' '));
  // "Bandwidth" alone names neither link: the memory's and NVLink's both said ("inter-node bandwidth" is the network's).
  const bandwidth = !nvlink && !memoryBandwidth && !network && BANDWIDTH.test(normal);
  const facts: GpuFact[] = [];
  // "FP64 of the H100" asks a peak too: the peaks held are answered, FP64 said not kept (answer/fp64-note.ts).
  if (PEAK.test(normal) || ASKS_FP64.test(normal)) facts.push('peak');
  if (!memoryBandwidth && MEMORY.test(normal)) facts.push('memory');
  if (memoryBandwidth || bandwidth) facts.push('memoryBandwidth');
  if (nvlink || bandwidth) facts.push('nvlink');
  if (network) facts.push('network');
  if (POWER.test(normal)) facts.push('power');
  return facts;
}

/** The precisions a question names, in its order: "peak bf16 and fp8" → bf16, fp8. */
export function precisionsAsked(normal: string): Precision[] {
  const named = [...normal.matchAll(/\b(fp8|fp16|bf16|tf32|fp32)\b/g)].map((m) => m[1] as Precision);
  return named.filter((p, i) => named.indexOf(p) === i);
}

/** Whether the question asks the rate with 2:4 structured sparsity ("h100 sparse fp8", "bf16 with sparsity"). */
export const asksSparsity = (normal: string): boolean => SPARSE.test(normal);

/** Whether the question asks an INT8 rate ("int8 throughput", "int8 tops"), which no GPU preset holds. */
export const asksInt8 = (normal: string): boolean => INT8.test(normal);

/** Whether the question asks of in-network reduction by name ("is there SHARP", "does it support collnet"). */
export const asksSharp = (normal: string): boolean => SHARP.test(normal.replace(/\bnv[\s-]*links?[\s-]+sharp\b/g, ' '));

/**
 * Asking how many of something ("how many h100 for 1 TB of memory") is a cluster question, never a GPU's figure; how
 * many NVLinks, NVSwitches or NICs a GPU or its node has is one.
 */
export const ASKS_HOW_MANY = /\bhow many\b(?!\s+(?:(?:nv[\s-]*)?links?|nv[\s-]*switch(?:es)?|nics?|hcas?|rails?)\b)/;
