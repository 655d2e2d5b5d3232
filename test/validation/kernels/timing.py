"""How measure.py, layer.py, decode.py and optimizer.py time a call and describe the machine they ran on: the median milliseconds of CUDA events through triton.testing.do_bench
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


def graph_and_eager_ms(run, device):
    """A call replayed from a CUDA graph (two warm-up runs on a side stream, then one capture), as serving engines replay
    theirs, and the same call run eagerly; on the CPU the eager time for both."""
    import torch
    if device != 'cuda':
        ms = bench_ms(run, device)
        return ms, ms
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(2):
            run()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        run()
    ms = bench_ms(graph.replay, device)
    del graph
    return ms, bench_ms(run, device)


def environment(device, dry_run, **extra):
    """PyTorch's version, the device and, on a GPU, its name, SM count, memory and CUDA version."""
    import torch
    env = {'torch': torch.__version__, 'device': device, 'dryRun': dry_run, **extra}
    if device == 'cuda':
        p = torch.cuda.get_device_properties(0)
        env.update(name=p.name, smCount=p.multi_processor_count, memoryBytes=p.total_memory, cuda=torch.version.cuda)
    return env
