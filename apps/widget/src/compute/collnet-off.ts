/**
 * The widget's stand-in for @trainplan/collectives' nccl-collnet-model.ts, swapped in by the bundle (build.ts): CollNet
 * (SHARP through NCCL's CollNet plugin, and the NVLS across nodes it enables) is an opt-in the widget never sets
 * (Fabric.collnet), and NCCL leaves it off by default, so every CollNet candidate is unavailable here, as the module
 * itself answers for a fabric without the opt-in. Its models and constants cost about 1 kB of the 80 kB gzip budget.
 */
const OFF = 'CollNet is off';
export const collnetUnavailable = (): string => OFF;
export const nvlsAcrossNodesUnavailable = collnetUnavailable;
export const ncclCollnetModel = (): [] => [];
/** Never called here: NVLS runs across nodes only with CollNet on. */
export const nvlsAcrossNodesTimeUs = (): number => 0;
export const collnetDirectTimeUs = nvlsAcrossNodesTimeUs;
