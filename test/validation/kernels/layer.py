"""Runs whole transformer layers (kernels/cases.json, "layers") on the GPU it runs on and writes what it measured.

    python3 test/validation/kernels/layer.py CASES.json OUT.json [--dry-run]

measure.py times each kernel alone; this script runs them together, as one GPU's share of a published plan's layer
(the shapes packages/planner/src/layer-time.ts costs, from kernel-cases.ts), forward and forward + backward, so the
report can say whether the planner's sum of kernels is what a layer costs before any communication. The layer is
Megatron-LM's ParallelTransformerLayer on one tensor-parallel rank with its collectives left out, in the [s, b, h]
layout: LayerNorm or RMSNorm; QKV linear (bias in the GEMM); rotary embedding; attention (flash through
scaled_dot_product_attention, or Megatron's unfused baddbmm, scale-mask-softmax, dropout, bmm); the projection and
fc2 without bias (skip_bias_add) and a bias-dropout-add; fc1, then bias-GeLU or SwiGLU; fc2.

Two variants: "eager", every element-wise step a PyTorch op; "fused", the steps Megatron fuses (bias-dropout-add,
bias-GeLU, SwiGLU, rotary, scale-mask-softmax) each compiled into one kernel by torch.compile, standing in for
Megatron's jit-scripted and CUDA fusions. Both run LayerNorm and RMSNorm as PyTorch's fused kernels. Differences from
Megatron left in: weight gradients are bf16, not accumulated into fp32 main_grad; flash attention runs without
attention dropout.

Timing follows measure.py: CUDA events through triton.testing.do_bench, median, random inputs (never zeros). One more
forward, and one more forward + backward, per case run under torch.profiler, and their GPU kernel time is summed by
kind (GEMM, attention, other) and counted. --dry-run shrinks the layers and runs on the CPU to test the script.
Results are written after each case, so a run cut short still leaves what it measured.
"""

import json
import sys
import time

import torch
import torch.nn.functional as F

from kernel_profile import kernel_profile
from timing import bench_ms

DRY = '--dry-run' in sys.argv
ARGS = [a for a in sys.argv[1:] if not a.startswith('--')]
CASES_PATH, OUT_PATH = ARGS[0], ARGS[1]
DEVICE = 'cpu' if DRY or not torch.cuda.is_available() else 'cuda'
DTYPE = torch.float32 if DEVICE == 'cpu' else torch.bfloat16
DROPOUT = 0.1
result = {'errors': [], 'layers': []}


def save():
    with open(OUT_PATH, 'w') as f:
        json.dump(result, f, indent=1)


def compiled(fn, fused):
    """Megatron's fusions: one kernel per element-wise step (torch.compile), or the plain ops where it is absent."""
    if fused and hasattr(torch, 'compile') and DEVICE == 'cuda':
        return torch.compile(fn, dynamic=True)
    return fn


def bias_dropout_add(y, bias, residual, p):
    if bias is not None:
        y = y + bias
    return residual + F.dropout(y, p, training=True) if p else residual + y


def bias_gelu(y, bias):
    return F.gelu(y + bias if bias is not None else y, approximate='tanh')


def swiglu(y):
    a, b = y.chunk(2, dim=-1)
    return F.silu(a) * b


def rms_norm(x, w, eps=1e-5):
    return (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps)).to(x.dtype) * w


def rotary(x, cos, sin):
    """Megatron's apply_rotary_pos_emb (rotate_half form) on [s, b, heads, d]."""
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin


def scale_mask_softmax(scores, mask, scale):
    return torch.softmax((scores * scale).masked_fill(mask, float('-inf')), dim=-1)


def shrink(case):
    """The dry run's layer: every width a sixteenth (at least one head of 16), 128 tokens."""
    if not DRY:
        return case
    c = dict(case)
    c.update(hidden=max(64, case['hidden'] // 16), headDim=16, ffn=max(64, case['ffn'] // 16), seqLength=128,
             heads=max(2, case['heads'] // 8), kvHeads=max(1, case['kvHeads'] // 8))
    c['kvHeads'] = min(c['kvHeads'], c['heads'])
    return c


class Layer:
    def __init__(self, case, fused):
        self.c = case
        h, d, a, kv, f = case['hidden'], case['headDim'], case['heads'], case['kvHeads'], case['ffn']
        bias = case['linearBias']

        def param(*shape, scale=0.02):
            return (torch.randn(*shape, device=DEVICE, dtype=torch.float32) * scale).to(DTYPE).requires_grad_()

        self.norm_w = [param(h, scale=1) for _ in range(2)]
        self.norm_b = [param(h) for _ in range(2)] if case['normalization'] == 'layernorm' else [None, None]
        self.w_qkv, self.b_qkv = param((a + 2 * kv) * d, h), param((a + 2 * kv) * d) if bias else None
        self.w_proj, self.b_proj = param(h, a * d), param(h) if bias else None
        self.w_fc1, self.b_fc1 = param((2 if case['gatedMlp'] else 1) * f, h), param(f) if bias and not case['gatedMlp'] else None
        self.w_fc2, self.b_fc2 = param(h, f), param(h) if bias else None
        self.params = [p for p in [*self.norm_w, *self.norm_b, self.w_qkv, self.b_qkv, self.w_proj, self.b_proj,
                                   self.w_fc1, self.b_fc1, self.w_fc2, self.b_fc2] if p is not None]
        s = case['seqLength']
        self.p = DROPOUT if case['dropout'] else 0.0
        self.bda = compiled(bias_dropout_add, fused)
        self.bias_gelu = compiled(bias_gelu, fused)
        self.swiglu = compiled(swiglu, fused)
        self.rotary = compiled(rotary, fused)
        self.softmax = compiled(scale_mask_softmax, fused)
        # PyTorch's own RMSNorm is one fused kernel each way (as Transformer Engine's is); older versions lack it.
        self.rms = (lambda x, w: F.rms_norm(x, (h,), w)) if hasattr(F, 'rms_norm') else compiled(rms_norm, fused)
        if case['rotary']:
            inv = 1.0 / (10000 ** (torch.arange(0, d, 2, device=DEVICE, dtype=torch.float32) / d))
            freqs = torch.outer(torch.arange(s, device=DEVICE, dtype=torch.float32), inv)
            emb = torch.cat((freqs, freqs), dim=-1)[:, None, None, :]
            self.cos, self.sin = emb.cos().to(DTYPE), emb.sin().to(DTYPE)
        self.mask = torch.ones(s, s, device=DEVICE, dtype=torch.bool).triu(1)
        self.backend = None

    def norm(self, i, x):
        if self.norm_b[i] is None:
            return self.rms(x, self.norm_w[i])
        return F.layer_norm(x, (self.c['hidden'],), self.norm_w[i], self.norm_b[i])

    def attention(self, q, k, v):
        """q [s, b, a, d], k and v [s, b, kv, d] -> context [s, b, a·d]."""
        s, b, a, d = q.shape
        kv = k.shape[2]
        if self.c['attention'] == 'flash' and hasattr(F, 'scaled_dot_product_attention'):
            qt, kt, vt = (t.permute(1, 2, 0, 3) for t in (q, k, v))
            extra = {'enable_gqa': True} if kv != a else {}
            with sdpa_backend(self.backend):
                out = F.scaled_dot_product_attention(qt, kt, vt, is_causal=True, **extra)
            return out.permute(2, 0, 1, 3).reshape(s, b, a * d)
        if kv != a:
            k, v = (t.repeat_interleave(a // kv, dim=2) for t in (k, v))
        # Megatron CoreAttention: [s, b·a, d] views, baddbmm into [b·a, s, s], fused scale-mask-softmax, dropout, bmm.
        qb, kb, vb = (t.reshape(s, b * a, d).transpose(0, 1) for t in (q, k, v))
        scores = torch.bmm(qb, kb.transpose(1, 2))
        probs = self.softmax(scores, self.mask, 1.0 / d ** 0.5)
        if self.p:
            probs = F.dropout(probs, self.p, training=True)
        ctx = torch.bmm(probs, vb)  # [b·a, s, d]
        return ctx.view(b, a, s, d).permute(2, 0, 1, 3).reshape(s, b, a * d)

    def __call__(self, x):
        c = self.c
        a, kv, d = c['heads'], c['kvHeads'], c['headDim']
        s, b, _ = x.shape
        qkv = F.linear(self.norm(0, x), self.w_qkv, self.b_qkv).view(s, b, a + 2 * kv, d)
        q, k, v = qkv.split([a, kv, kv], dim=2)
        if c['rotary']:
            q, k = self.rotary(q, self.cos, self.sin), self.rotary(k, self.cos, self.sin)
        x = self.bda(F.linear(self.attention(q, k, v), self.w_proj), self.b_proj, x, self.p)
        y = F.linear(self.norm(1, x), self.w_fc1)
        y = self.swiglu(y) if c['gatedMlp'] else self.bias_gelu(y, self.b_fc1)
        return self.bda(F.linear(y, self.w_fc2), self.b_fc2, x, self.p)


# Transformer Engine runs cuDNN's fused attention on Hopper; the others are fallbacks, in PyTorch's order.
BACKENDS = ['CUDNN_ATTENTION', 'FLASH_ATTENTION', 'EFFICIENT_ATTENTION']


def sdpa_backend(name):
    if name is None:
        import contextlib
        return contextlib.nullcontext()
    from torch.nn.attention import SDPBackend, sdpa_kernel
    return sdpa_kernel(getattr(SDPBackend, name))


def pick_backend(layer, x, dy):
    """The first fused attention backend that runs this layer forward and backward (the math one never: it is unfused)."""
    if layer.c['attention'] != 'flash' or DEVICE != 'cuda':
        return None
    failures = []
    for name in BACKENDS:
        layer.backend = name
        try:
            layer(x).backward(dy)
            torch.cuda.synchronize()
            return name
        except Exception as e:  # noqa: BLE001 - try the next backend, and say why this one was not used
            failures.append(f'{name}: {type(e).__name__}: {e}'[:200])
    raise RuntimeError('no fused attention backend ran: ' + ' | '.join(failures))


def measure(case, variant):
    c = shrink(case)
    row = {'id': case['id'], 'variant': variant}
    try:
        layer = Layer(c, fused=variant == 'fused')
        s, b, h = c['seqLength'], c['microBatch'], c['hidden']
        x = torch.randn(s, b, h, device=DEVICE, dtype=torch.float32).to(DTYPE).requires_grad_()
        dy = torch.randn(s, b, h, device=DEVICE, dtype=torch.float32).to(DTYPE)
        row['attentionBackend'] = pick_backend(layer, x, dy)
        y = layer(x)
        row['finite'] = bool(torch.isfinite(y.float()).all())
        y.backward(dy)
        row['gradFinite'] = all(bool(torch.isfinite(p.grad.float()).all()) for p in layer.params + [x])

        def fwd_bwd():
            layer(x).backward(dy)
        grads = layer.params + [x]
        row['forwardMs'] = bench_ms(lambda: layer(x), DEVICE)
        row['forwardBackwardMs'] = bench_ms(fwd_bwd, DEVICE, grad_to_none=grads)
        row['forwardProfile'] = kernel_profile(lambda: layer(x), DEVICE)
        row['profile'] = kernel_profile(fwd_bwd, DEVICE, grads)
    except Exception as e:  # noqa: BLE001 - one failed case must not lose the others
        row['error'] = f'{type(e).__name__}: {e}'[:400]
    if DEVICE == 'cuda':
        torch.cuda.empty_cache()
    return row


def main():
    cases = json.load(open(CASES_PATH))['layers']
    env = {'torch': torch.__version__, 'device': DEVICE, 'dryRun': DRY}
    if DEVICE == 'cuda':
        p = torch.cuda.get_device_properties(0)
        env.update(name=p.name, smCount=p.multi_processor_count, cuda=torch.version.cuda)
    result['environment'] = env
    result['measuredAt'] = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
    for variant in ['eager', 'fused']:
        for case in cases:
            t0 = time.time()
            row = measure(case, variant)
            result['layers'].append(row)
            save()
            prof = row.get('profile', {})
            print(f"{variant:<6} {case['id']:<36} fwd {row.get('forwardMs', 0):8.3f} ms  fwd+bwd "
                  f"{row.get('forwardBackwardMs', 0):8.3f} ms  gemm {prof.get('gemmMs', 0):7.3f} attn "
                  f"{prof.get('attentionMs', 0):7.3f} other {prof.get('otherMs', 0):7.3f} n {prof.get('kernels', 0):4d}"
                  f"  ({time.time() - t0:.1f} s) {row.get('error', '')[:120]}", flush=True)


if __name__ == '__main__':
    main()
