"""How layer.py and decode.py split a run's GPU time by kind of kernel: one run under torch.profiler, each kernel's time
summed as GEMM, attention or other (element-wise, norms, copies), and counted; on the CPU (the scripts' --dry-run), the
top-level operators' host time instead."""

import re

import torch

ATTENTION_KERNEL = re.compile(r'flash|fmha|cudnn|sdpa|attn|attention', re.I)
GEMM_KERNEL = re.compile(r'gemm|nvjet|cutlass|xmma|cublas|s\d+816|s1688|wgmma|gmma', re.I)


def event_us(e):
    for attr in ('device_time_total', 'cuda_time_total', 'self_cpu_time_total'):
        value = getattr(e, attr, None)
        if value:
            return value
    return 0


def kernel_profile(fn, device, grads=()):
    """One run under torch.profiler: GPU kernel time by kind (GEMM, attention, other) and the kernel count.

    The gradients are cleared before it, as do_bench clears them before each timed run: the profiled backward writes
    them rather than accumulating into them."""
    from torch.profiler import ProfilerActivity, profile
    cuda = device == 'cuda'
    fn()
    for g in grads:
        g.grad = None
    if cuda:
        torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA if cuda else ProfilerActivity.CPU]) as prof:
        fn()
        if cuda:
            torch.cuda.synchronize()
    out = {'gemmMs': 0.0, 'attentionMs': 0.0, 'otherMs': 0.0, 'kernels': 0}
    top = {}
    for e in prof.events():
        if str(getattr(e, 'device_type', '')).split('.')[-1] != ('CUDA' if cuda else 'CPU'):
            continue
        if not cuda and e.cpu_parent is not None:
            continue
        us = event_us(e)
        name = e.name
        if re.search(r'memcpy|memset', name, re.I):
            continue
        kind = 'attentionMs' if ATTENTION_KERNEL.search(name) else 'gemmMs' if GEMM_KERNEL.search(name) else 'otherMs'
        out[kind] += us / 1e3
        out['kernels'] += 1
        top[name[:90]] = top.get(name[:90], 0) + us / 1e3
    out['topKernels'] = sorted(([n, round(ms, 4)] for n, ms in top.items()), key=lambda r: -r[1])[:20]
    return out
