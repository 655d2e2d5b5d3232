"""How measure.py and layer.py time a call: the median milliseconds of CUDA events through triton.testing.do_bench
(L2 flushed before each repeat, the gradients of `grad_to_none` cleared), or the median of three host-clock runs on the
CPU (the scripts' --dry-run)."""

import time


def bench_ms(fn, device, grad_to_none=None):
    if device == 'cuda':
        import triton.testing
        return triton.testing.do_bench(fn, warmup=25, rep=100, grad_to_none=grad_to_none, return_mode='median')
    fn()
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return sorted(times)[1]
