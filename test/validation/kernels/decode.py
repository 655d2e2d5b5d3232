"""Times whole-model decode steps (kernels/cases.json, "decode"), or with --prefill whole-model prefills ("prefill"), on
the GPU it runs on and writes what it measured.

    python3 test/validation/kernels/decode.py CASES.json OUT.json [--prefill] [--fused] [--dry-run]

A decode step: each of a batch of sequences, holding `context` tokens of KV cache, gets one token through every layer
of a Llama-style model (RMSNorm; QKV linear; its K and V written into the cache; attention of the one query over the
cache; the output projection and residual; RMSNorm; the gated MLP, SiLU(gate) * up, down; residual) and the final
norm and logits, in bf16, on one GPU. Every layer has its own weights and cache, so the step reads them from HBM as a
serving engine does; the step is captured once as a CUDA graph and replayed, as vLLM and TensorRT-LLM replay theirs,
so the host's launch cost is not in it; one more eager step runs under torch.profiler, its GPU kernel time summed by
kind (kernel_profile.py: GEMM, attention, other). Rotary embedding is left out (one element-wise op on q and k a layer).
Attention over the cache runs through scaled_dot_product_attention with the query heads of one KV head as that
head's queries (grouped-query attention without copying the cache), the math backend excluded on the GPU.

A prefill: each of a batch of prompts of `prompt` tokens goes through every layer at once (causal attention over the
prompt, grouped-query attention through scaled_dot_product_attention's enable_gqa, or the KV heads repeated where that
is refused), its K and V written into the cache, and the last token's logits computed, as a serving engine computes
the first output token. Timed replayed from a CUDA graph and eagerly, profiled by kind as the decode step is.

With --fused, RMSNorm and SiLU(gate) * up are each compiled into one kernel (torch.compile), as serving engines fuse
them; the rest is unchanged.

Timing follows measure.py: CUDA events through triton.testing.do_bench (timing.py), median. Results are written
after each case, so a run cut short still leaves what it measured. --dry-run shrinks every size by 16 and runs on
the CPU to test the script.
"""

import json
import sys
import time

import torch
import torch.nn.functional as F

from kernel_profile import kernel_profile
from timing import environment, graph_and_eager_ms

DRY = '--dry-run' in sys.argv
PREFILL = '--prefill' in sys.argv
FUSED = '--fused' in sys.argv
KIND = 'prefill' if PREFILL else 'decode'
ARGS = [a for a in sys.argv[1:] if not a.startswith('--')]
CASES_PATH, OUT_PATH = ARGS[0], ARGS[1]
DEVICE = 'cpu' if DRY or not torch.cuda.is_available() else 'cuda'
DTYPE = torch.float32 if DEVICE == 'cpu' else torch.bfloat16
SHRINK = 16 if DRY else 1
result = {'errors': [], KIND: []}


def save():
    with open(OUT_PATH, 'w') as f:
        json.dump(result, f, indent=1)


def shrink(x):
    return max(1, x // SHRINK)


def rand(*shape):
    return torch.empty(*shape, device=DEVICE, dtype=DTYPE).normal_(0, 0.02)


def rms_norm(x, weight):
    return x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-5).to(x.dtype) * weight


def silu_mul(gate, up):
    return F.silu(gate) * up


if FUSED:
    rms_norm = torch.compile(rms_norm, dynamic=False)
    silu_mul = torch.compile(silu_mul, dynamic=False)


def attention(q, k, v):
    """q: [B, KV, G, d], the G query heads of each KV head; k, v: [B, KV, L, d]. No mask: a decode sees its whole past."""
    if hasattr(F, 'scaled_dot_product_attention'):
        return F.scaled_dot_product_attention(q, k, v)
    scores = torch.softmax((q @ k.transpose(-1, -2)) / q.shape[-1] ** 0.5, dim=-1)
    return scores @ v


class Model:
    def __init__(self, c):
        h, d = shrink(c['hidden']), c['headDim']
        self.heads, self.kv_heads, self.d = shrink(c['heads']), max(1, shrink(c['kvHeads'])), d
        self.hidden = self.heads * d
        h = self.hidden
        ffn, vocab, n = shrink(c['ffn']), shrink(c['vocab']), shrink(c['layers'])
        qkv = (self.heads + 2 * self.kv_heads) * d
        self.layers = [dict(norm1=rand(h), qkv=rand(qkv, h), proj=rand(h, self.heads * d), norm2=rand(h),
                            fc1=rand(2 * ffn, h), fc2=rand(h, ffn)) for _ in range(n)]
        self.norm = rand(h)
        self.logits = rand(vocab, h)
        self.weight_bytes = sum(t.numel() * t.element_size() for layer in self.layers for t in layer.values()) \
            + (self.norm.numel() + self.logits.numel()) * self.norm.element_size()

    def cache(self, batch, context):
        shape = (batch, self.kv_heads, context, self.d)
        return [(rand(*shape), rand(*shape)) for _ in self.layers]

    def step(self, x, caches, position):
        """One token for each sequence of x [B, h]; its K and V overwrite the cache's slot `position` (a fixed slot, so
        the graph replays the same work: the cache length, not its content, sets the step's cost)."""
        b = x.shape[0]
        g = self.heads // self.kv_heads
        for layer, (k_cache, v_cache) in zip(self.layers, caches):
            r = x
            qkv = F.linear(rms_norm(x, layer['norm1']), layer['qkv'])
            q, k, v = qkv.split([self.heads * self.d, self.kv_heads * self.d, self.kv_heads * self.d], dim=-1)
            k_cache[:, :, position] = k.view(b, self.kv_heads, self.d)
            v_cache[:, :, position] = v.view(b, self.kv_heads, self.d)
            o = attention(q.view(b, self.kv_heads, g, self.d), k_cache, v_cache)
            x = r + F.linear(o.reshape(b, self.heads * self.d), layer['proj'])
            r = x
            gate, up = F.linear(rms_norm(x, layer['norm2']), layer['fc1']).chunk(2, dim=-1)
            x = r + F.linear(silu_mul(gate, up), layer['fc2'])
        return F.linear(rms_norm(x, self.norm), self.logits)

    def prefill(self, x, caches):
        """A prompt of P tokens for each sequence of x [B, P, h]: its K and V fill the cache's first P slots; the logits
        of its last token only, the first output token's."""
        b, p, _ = x.shape
        for layer, (k_cache, v_cache) in zip(self.layers, caches):
            r = x
            qkv = F.linear(rms_norm(x, layer['norm1']), layer['qkv'])
            q, k, v = qkv.split([self.heads * self.d, self.kv_heads * self.d, self.kv_heads * self.d], dim=-1)
            q = q.view(b, p, self.heads, self.d).transpose(1, 2)
            k = k.view(b, p, self.kv_heads, self.d).transpose(1, 2)
            v = v.view(b, p, self.kv_heads, self.d).transpose(1, 2)
            k_cache[:, :, :p] = k
            v_cache[:, :, :p] = v
            o = causal_attention(q, k, v)
            x = r + F.linear(o.transpose(1, 2).reshape(b, p, self.heads * self.d), layer['proj'])
            r = x
            gate, up = F.linear(rms_norm(x, layer['norm2']), layer['fc1']).chunk(2, dim=-1)
            x = r + F.linear(silu_mul(gate, up), layer['fc2'])
        return F.linear(rms_norm(x[:, -1], self.norm), self.logits)


GQA = {'native': None}


def causal_attention(q, k, v):
    """q [B, H, P, d], k and v [B, KV, P, d]: causal self-attention, each KV head serving H / KV query heads. Grouped
    natively (enable_gqa) where the kernels accept it, else with the KV heads repeated (a copy of K and V)."""
    if not hasattr(F, 'scaled_dot_product_attention'):
        g = q.shape[1] // k.shape[1]
        k, v = k.repeat_interleave(g, dim=1), v.repeat_interleave(g, dim=1)
        p = q.shape[2]
        mask = torch.ones(p, p, dtype=torch.bool, device=q.device).tril()
        scores = ((q @ k.transpose(-1, -2)) / q.shape[-1] ** 0.5).masked_fill(~mask, float('-inf'))
        return torch.softmax(scores, dim=-1) @ v
    if GQA['native'] is not False and q.shape[1] != k.shape[1]:
        try:
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
            GQA['native'] = True
            return out
        except (TypeError, RuntimeError):
            GQA['native'] = False
    if q.shape[1] != k.shape[1]:
        g = q.shape[1] // k.shape[1]
        k, v = k.repeat_interleave(g, dim=1), v.repeat_interleave(g, dim=1)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def sdpa_context():
    if DEVICE != 'cuda':
        import contextlib
        return contextlib.nullcontext()
    from torch.nn.attention import SDPBackend, sdpa_kernel
    return sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.CUDNN_ATTENTION])


def measure(model, c):
    batch, context = c['batch'], shrink(c['context'])
    caches = model.cache(batch, context)
    kv_bytes = sum(k.numel() * k.element_size() * 2 for k, _ in caches)
    x = rand(batch, model.hidden)
    position = context - 1
    with torch.no_grad(), sdpa_context():
        logits = model.step(x, caches, position)
        finite = bool(torch.isfinite(logits).all())
        ms, eager_ms = graph_and_eager_ms(lambda: model.step(x, caches, position), DEVICE)
        # The kernels of one eager step by kind: the linears' GEMMs read the weights, attention the cache.
        profile = kernel_profile(lambda: model.step(x, caches, position), DEVICE)
    del caches
    return {'id': c['id'], 'batch': batch, 'context': context, 'ms': ms, 'eagerMs': eager_ms, 'finite': finite,
            'weightBytes': model.weight_bytes, 'kvCacheBytes': kv_bytes, 'profile': profile,
            'bytesPerSecond': (model.weight_bytes + kv_bytes) / (ms * 1e-3)}


def measure_prefill(model, c):
    batch, prompt = c['batch'], shrink(c['prompt'])
    caches = model.cache(batch, prompt)
    x = rand(batch, prompt, model.hidden)
    run = lambda: model.prefill(x, caches)  # noqa: E731
    with torch.no_grad(), sdpa_context():
        logits = run()
        finite = bool(torch.isfinite(logits).all())
        ms, eager_ms = graph_and_eager_ms(run, DEVICE)
        profile = kernel_profile(run, DEVICE)
    del caches, x
    return {'id': c['id'], 'batch': batch, 'prompt': prompt, 'ms': ms, 'eagerMs': eager_ms, 'finite': finite,
            'gqaNative': GQA['native'] if model.kv_heads < model.heads else None, 'weightBytes': model.weight_bytes, 'profile': profile}


def main():
    with open(CASES_PATH) as f:
        cases = json.load(f)[KIND]
    result['environment'] = environment(DEVICE, DRY, fused=FUSED)
    result['measuredAt'] = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
    by_model = {}
    for c in cases:
        by_model.setdefault(c['model'], []).append(c)
    for name, group in by_model.items():
        model = Model(group[0])
        for c in group:
            t0 = time.time()
            try:
                row = measure_prefill(model, c) if PREFILL else measure(model, c)
                result[KIND].append(row)
                k = row['profile']
                rate = '' if PREFILL else f"{row['bytesPerSecond'] / 1e12:5.2f} TB/s  "
                print(f"{c['id']:<24} {row['ms']:8.3f} ms  eager {row['eagerMs']:8.3f} ms  {rate}"
                      f"gemm {k['gemmMs']:7.3f} attn {k['attentionMs']:7.3f} "
                      f"other {k['otherMs']:7.3f} n {k['kernels']:4d}  ({time.time() - t0:.1f} s)", flush=True)
            except Exception as e:  # noqa: BLE001 - the report says which case failed and why
                result[KIND].append({'id': c['id'], 'error': f'{type(e).__name__}: {e}'})
                result['errors'].append(f"{c['id']}: {type(e).__name__}: {e}")
                print(f"{c['id']}: {type(e).__name__}: {e}", flush=True)
            if DEVICE == 'cuda':
                torch.cuda.empty_cache()
            save()
        del model
        if DEVICE == 'cuda':
            torch.cuda.empty_cache()
    save()


if __name__ == '__main__':
    main()
