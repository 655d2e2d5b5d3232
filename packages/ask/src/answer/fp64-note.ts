import { FP64_NOT_KEPT } from '../lexicon/gpu-facts.ts';

/**
 * FP64 asked of a GPU ("FP64 peak of H100", "double precision flops of the A100"): the presets keep no FP64 rate, by
 * design (the widget's bundle has no room for figures no plan uses), so the answer says so rather than showing the other
 * peaks as if they were the one asked. LLM training runs its matrix multiplies in BF16 or FP8 with FP32 accumulation and
 * master weights (Micikevicius et al. 2018, "Mixed Precision Training"; NVIDIA Transformer Engine for FP8); FP64 is the
 * precision of HPC codes (simulation, linear solvers), which datasheets quote it for. QA: the BF16/FP8 table came back with
 * no word of FP64. Asked as lexicon/gpu-facts.ts ASKS_FP64 reads it. A plan asked in FP64 says the same as not read (parse.ts).
 */

/** Said once FP64 is asked: no figure kept, why, and where it is quoted. */
export const FP64_NOTE = `${FP64_NOT_KEPT}, as the datasheets cited below quote it.`;
