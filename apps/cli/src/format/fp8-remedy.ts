import type { Retry } from './inference-remedy.ts';

/** How the remedy names request fields: by flag for a request built from flags, else by JSON path. */
interface Terms {
  readonly fromFlags: boolean;
}

/**
 * Serving GPUs with FP8 tensor cores, newest last (hardware/gpus.ts: Hopper and Blackwell have them;
 * V100 and A100 do not). A suggestion, not a list to check against: the planner says which GPU refuses.
 */
const FP8_GPUS = [['H100', 'h100-sxm'], ['H200', 'h200'], ['B200', 'b200']] as const;

const joinOr = (items: readonly string[]): string =>
  (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`);

/**
 * What to serve with instead when FP8 weights are refused on a GPU without FP8 tensor cores (an A100):
 * 16-bit weights with an FP8 KV cache, which such a GPU runs (attention computes in 16 bits, the cache
 * converts on load, as vLLM's --kv-cache-dtype fp8 does on Ampere), checked by asking again with it
 * (bf16, or fp16 where the GPU has no BF16 either, a V100); or FP8 weights on a GPU that has them.
 * Undefined when the request did not ask for FP8 weights, or asks again refused for precision whatever it is.
 */
export function fp8Remedy(request: Record<string, unknown>, t: Terms, retry: Retry): string | undefined {
  if (request.precision !== 'fp8') return undefined;
  const sixteen = (['bf16', 'fp16'] as const).find((p) => retry({ set: { precision: p, kvCachePrecision: 'fp8' } }) !== undefined);
  const names = FP8_GPUS.map(([n]) => n);
  const ids = FP8_GPUS.map(([, id]) => (t.fromFlags ? id : `"${id}"`));
  const gpus = `FP8 weights on ${joinOr(names)} GPUs (${t.fromFlags ? '--gpu' : 'cluster.gpu'} ${joinOr(ids)})`;
  if (sixteen === undefined) return `use ${gpus}`;
  const kv = t.fromFlags ? `--precision ${sixteen} --kv-cache-precision fp8` : `precision "${sixteen}", kvCachePrecision "fp8"`;
  return `serve ${sixteen.toUpperCase()} weights with an FP8 KV cache, which runs on it (${kv}), or ${gpus}`;
}
