"""Times the kernels of kernels/cases.json on the GPU it runs on and writes what it measured as JSON.

    python3 test/validation/kernels/measure.py CASES.json OUT.json [--long-attention] [--dry-run]

With --long-attention it times only the cases' "longAttention" (flash attention past the sweep's 32,768 tokens, which
the launch model was not fitted on) and writes them as its "attention".

What it measures, each a check of the planner's kernel model (packages/planner/src/kernel-time.ts):
  * GEMMs: each case's operands laid out as PyTorch lays out the pass (forward F.linear, input gradient,
    weight gradient into fp32), bf16 through torch.matmul, FP8 (e4m3) through torch._scaled_mm;
  * attention: torch's scaled_dot_product_attention with the flash (FlashAttention-2) and cuDNN backends,
    forward and forward + backward, causal and not;
  * element-wise kernels over one large bf16 tensor (copy, add, GELU, LayerNorm, dropout, softmax);
  * launch cost: eager launches of a tiny kernel (host-bound) and the same kernels replayed from a CUDA graph;
  * sustained GEMM rate, clock and power over ~20 s of back-to-back 8192^3 products.

Timing follows the device method: CUDA events through triton.testing.do_bench (median, L2 flushed between
repeats), random inputs (never zeros), a relative-error check of the first case of each kind against an
fp32 product of the same inputs. --dry-run shrinks every size by 16 and runs on the CPU to test the script.
Results are written after each section, so a run cut short still leaves what it measured.
"""

import json
import math
import subprocess
import sys
import time

import torch
import torch.nn.functional as F

from timing import bench_ms

DRY = '--dry-run' in sys.argv
LONG_ATTENTION = '--long-attention' in sys.argv
ARGS = [a for a in sys.argv[1:] if not a.startswith('--')]
CASES_PATH, OUT_PATH = ARGS[0], ARGS[1]
DEVICE = 'cpu' if DRY or not torch.cuda.is_available() else 'cuda'
SHRINK = 16 if DRY else 1
result = {'errors': []}


def save():
    with open(OUT_PATH, 'w') as f:
        json.dump(result, f, indent=1)


def sync():
    if DEVICE == 'cuda':
        torch.cuda.synchronize()


def dim(x):
    return max(16, x // SHRINK) if SHRINK > 1 else x


def rand(*shape, dtype=torch.bfloat16):
    return torch.randn(*shape, device=DEVICE, dtype=torch.float32).to(dtype)


def rel_err(out, ref):
    out, ref = out.float(), ref.float()
    return float(torch.linalg.norm(out - ref) / torch.linalg.norm(ref))


def environment():
    env = {'torch': torch.__version__, 'device': DEVICE, 'dryRun': DRY}
    if DEVICE == 'cuda':
        p = torch.cuda.get_device_properties(0)
        env.update(name=p.name, smCount=p.multi_processor_count, memoryBytes=p.total_memory,
                   l2Bytes=getattr(p, 'L2_cache_size', None), cuda=torch.version.cuda,
                   cublasLt=str(torch.backends.cuda.preferred_blas_library()))
        try:
            q = 'name,driver_version,clocks.max.sm,clocks.max.mem,power.limit,temperature.gpu'
            env['nvidiaSmi'] = subprocess.run(['nvidia-smi', f'--query-gpu={q}', '--format=csv'],
                                              capture_output=True, text=True, timeout=30).stdout.strip()
        except Exception as e:  # noqa: BLE001 - the report says what was missing
            env['nvidiaSmi'] = f'unavailable: {e}'
    return env


def gemm_fn(case):
    """The operands and the call for one case, laid out as its pass runs in PyTorch."""
    s = case['shape']
    m, n, k, batch = dim(s['m']), dim(s['n']), dim(s['k']), s.get('batch', 1)
    p, fp8 = case['pass'], case['dtype'] == 'fp8'
    if fp8:
        f8 = torch.float8_e4m3fn
        a = rand(m, k, dtype=f8)
        bt = rand(n, k, dtype=f8)  # _scaled_mm wants b column-major: bt.t()
        one = torch.ones((), device=DEVICE, dtype=torch.float32)
        return (lambda: torch._scaled_mm(a, bt.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16),
                lambda: a.float() @ bt.float().t(), 'scaled_mm e4m3 -> bf16')
    if p == 'forward':  # x[T, in] . w[out, in]^T
        x, w = rand(m, k), rand(n, k)
        return lambda: F.linear(x, w), lambda: x.float() @ w.float().t(), 'F.linear'
    if p == 'dgrad':  # dy[T, out] . w[out, in]
        dy, w = rand(m, k), rand(k, n)
        return lambda: dy @ w, lambda: dy.float() @ w.float(), 'matmul'
    if p == 'wgrad':  # dy[T, out]^T . x[T, in] into an fp32 main_grad (Megatron's fused accumulation)
        dy, x = rand(k, n), rand(k, m)
        main = torch.zeros(n, m, device=DEVICE, dtype=torch.float32)
        ref = lambda: dy.float().t() @ x.float()  # noqa: E731
        try:
            torch.addmm(main, dy.t(), x, out_dtype=torch.float32)
            return lambda: torch.addmm(main, dy.t(), x, beta=0, out_dtype=torch.float32), ref, 'addmm out_dtype=fp32'
        except Exception:  # noqa: BLE001 - older torch: bf16 output, said in the record
            return lambda: dy.t() @ x, ref, 'matmul (bf16 out: no out_dtype)'
    if batch > 1:
        a, b = rand(batch, m, k), rand(batch, k, n)
        return lambda: torch.bmm(a, b), lambda: torch.bmm(a.float(), b.float()), 'bmm'
    a, b = rand(m, k), rand(k, n)
    return lambda: a @ b, lambda: a.float() @ b.float(), 'matmul'


def measure_gemms(cases):
    checked, rows = set(), []
    for case in cases:
        s = case['shape']
        row = {'id': case['id']}
        try:
            fn, ref, call = gemm_fn(case)
            kind = (case['pass'], case['dtype'], s.get('batch', 1) > 1)
            if kind not in checked:
                checked.add(kind)
                row['relErr'] = rel_err(fn(), ref())
            row['call'] = call
            row['ms'] = bench_ms(fn, DEVICE)
            flop = 2 * dim(s['m']) * dim(s['n']) * dim(s['k']) * s.get('batch', 1)
            row['tflops'] = flop / (row['ms'] * 1e-3) / 1e12
        except Exception as e:  # noqa: BLE001 - one failed case must not lose the others
            row['error'] = f'{type(e).__name__}: {e}'[:300]
        rows.append(row)
        if DEVICE == 'cuda':
            torch.cuda.empty_cache()
    return rows


def sdpa(backend_name):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    return sdpa_kernel(getattr(SDPBackend, backend_name))


def measure_attention(cases):
    rows = []
    for backend in ['FLASH_ATTENTION', 'CUDNN_ATTENTION']:
        for case in cases:
            b, h, s, d = case['batch'], case['heads'], dim(case['seqLength']), case['headDim']
            row = {'id': case['id'], 'backend': backend}
            try:
                q, k, v = (rand(b, h, s, d).requires_grad_() for _ in range(3))
                do = rand(b, h, s, d)
                with sdpa(backend):
                    fwd = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=case['causal'])  # noqa: E731

                    def fwd_bwd():
                        fwd().backward(do)
                    row['forwardMs'] = bench_ms(fwd, DEVICE)
                    row['forwardBackwardMs'] = bench_ms(fwd_bwd, DEVICE, grad_to_none=[q, k, v])
                # FLOPs: two matmuls of 2·s·s·d per head forward, five backward; causal skips half.
                flop = 4 * b * h * s * s * d * (0.5 if case['causal'] else 1)
                row['forwardTflops'] = flop / (row['forwardMs'] * 1e-3) / 1e12
                row['backwardTflops'] = 2.5 * flop / ((row['forwardBackwardMs'] - row['forwardMs']) * 1e-3) / 1e12
            except Exception as e:  # noqa: BLE001
                row['error'] = f'{type(e).__name__}: {e}'[:300]
            rows.append(row)
    return rows


def measure_elementwise(shape):
    rows_n, cols = dim(shape[0]), dim(shape[1])
    x, y, z = rand(rows_n, cols), rand(rows_n, cols), rand(rows_n, cols)
    w, bias = rand(cols), rand(cols)
    n, e = rows_n * cols, 2
    kernels = {
        # name: (call, HBM bytes it must move: each input read once, each output written once)
        'copy': (lambda: z.copy_(x), 2 * e * n),
        'add': (lambda: torch.add(x, y, out=z), 3 * e * n),
        'gelu': (lambda: F.gelu(x, approximate='tanh'), 2 * e * n),
        'layerNorm': (lambda: F.layer_norm(x, (cols,), w, bias), 2 * e * n),
        'dropout': (lambda: F.dropout(x, 0.1, training=True), (2 * e + 1) * n),
        'softmax': (lambda: F.softmax(x, dim=-1), 2 * e * n),
    }
    rows = []
    for name, (fn, nbytes) in kernels.items():
        row = {'id': name, 'bytes': nbytes}
        try:
            row['ms'] = bench_ms(fn, DEVICE)
            row['bytesPerSecond'] = nbytes / (row['ms'] * 1e-3)
        except Exception as e:  # noqa: BLE001
            row['error'] = f'{type(e).__name__}: {e}'[:300]
        rows.append(row)
    return rows


def measure_launch():
    """Per-kernel cost of a tiny kernel: eager from the host, and back-to-back from a CUDA graph."""
    a = torch.zeros(1024, device=DEVICE)
    count = 5000 if not DRY else 200
    out = {'kernels': count}
    for _ in range(100):
        a.add_(1)
    sync()
    t0 = time.perf_counter()
    for _ in range(count):
        a.add_(1)
    sync()
    out['eagerUs'] = (time.perf_counter() - t0) / count * 1e6
    if DEVICE == 'cuda':
        g = torch.cuda.CUDAGraph()
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            for _ in range(3):
                a.add_(1)
        torch.cuda.current_stream().wait_stream(s)
        with torch.cuda.graph(g):
            for _ in range(1000):
                a.add_(1)
        g.replay()
        sync()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(5):
            g.replay()
        end.record()
        sync()
        out['graphUs'] = start.elapsed_time(end) / 5000 * 1e3
    return out


def measure_sustained(seconds=20):
    """Back-to-back 8192^3 bf16 products: rate, SM clock, power and temperature each second."""
    n = dim(8192)
    a, b = rand(n, n), rand(n, n)
    c = torch.empty(n, n, device=DEVICE, dtype=torch.bfloat16)
    flop = 2 * n ** 3
    nvml = None
    if DEVICE == 'cuda':
        try:
            import pynvml
            pynvml.nvmlInit()
            nvml = (pynvml, pynvml.nvmlDeviceGetHandleByIndex(0))
        except Exception:  # noqa: BLE001 - rates alone still say whether it throttles
            nvml = None
    samples, t_end = [], time.time() + (seconds if not DRY else 1)
    while time.time() < t_end:
        reps = 100 if not DRY else 2
        t0 = time.perf_counter()
        for _ in range(reps):
            torch.matmul(a, b, out=c)
        sync()
        dt = time.perf_counter() - t0
        sample = {'tflops': reps * flop / dt / 1e12}
        if nvml:
            lib, handle = nvml
            sample['smClockMHz'] = lib.nvmlDeviceGetClockInfo(handle, lib.NVML_CLOCK_SM)
            sample['powerW'] = lib.nvmlDeviceGetPowerUsage(handle) / 1000
            sample['temperatureC'] = lib.nvmlDeviceGetTemperature(handle, lib.NVML_TEMPERATURE_GPU)
        samples.append(sample)
    return samples


def section(name, fn):
    t0 = time.time()
    try:
        result[name] = fn()
    except Exception as e:  # noqa: BLE001
        result['errors'].append(f'{name}: {type(e).__name__}: {e}'[:500])
    print(f'{name}: {time.time() - t0:.1f} s', flush=True)
    save()


def main():
    cases = json.load(open(CASES_PATH))
    result['environment'] = environment()
    result['measuredAt'] = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
    save()
    if LONG_ATTENTION:
        section('attention', lambda: measure_attention(cases['longAttention']))
        for row in result.get('attention', []):
            print(f"{row['id']:<30} {row['backend']:<16} fwd {row.get('forwardMs', 0):9.2f} ms  fwd+bwd {row.get('forwardBackwardMs', 0):9.2f} ms "
                  f"{row.get('error', '')[:80]}")
        print('errors', result['errors'])
        return
    section('launch', measure_launch)
    section('elementwise', lambda: measure_elementwise(cases['elementwiseShape']))
    section('gemm', lambda: measure_gemms(cases['gemm']))
    section('attention', lambda: measure_attention(cases['attention']))
    section('sustained', measure_sustained)
    for row in result.get('gemm', []):
        if 'error' in row or row['id'].startswith('square') or row['id'].endswith('wgrad'):
            print(f"{row['id']:<44} {row.get('tflops', 0):8.1f} TFLOP/s {row.get('error', '')}")
    for row in result.get('attention', []):
        print(f"{row['id']:<30} {row['backend']:<16} fwd {row.get('forwardTflops', 0):6.1f} "
              f"bwd {row.get('backwardTflops', 0):6.1f} TFLOP/s {row.get('error', '')[:80]}")
    for row in result.get('elementwise', []):
        print(f"{row['id']:<12} {row.get('bytesPerSecond', 0) / 1e12:6.2f} TB/s {row.get('error', '')}")
    print('launch', result.get('launch'))
    s = result.get('sustained') or []
    if s:
        print('sustained first', s[0], 'last', s[-1])
    print('errors', result['errors'])


if __name__ == '__main__':
    main()
