"""Times the optimizer step (kernels/cases.json, "optimizer") on the GPU it runs on and writes what it measured.

    python3 test/validation/kernels/optimizer.py CASES.json OUT.json [--dry-run]

The step Megatron-LM runs after each global batch on the parameters one GPU updates (its stage's share, or with the
distributed optimizer its shard of it), in its parts:

- norm: the global gradient norm for clipping, one read of the fp32 gradients (torch._foreach_norm, then the norm of
  the norms; Megatron's multi_tensor_l2norm);
- adam: Adam over fp32 master weights, momentum and variance with fp32 gradients (torch.optim.Adam, fused=True: one
  multi-tensor kernel a group, as Apex's FusedAdam that Megatron runs): reads 16 bytes a parameter, writes 12;
- copy: the updated fp32 master weights cast into the bf16 weights the next step computes with
  (torch._foreach_copy_): reads 4, writes 2.

"step" runs the three back to back as one call, the norm read back to the host between them as Megatron reads it for
the clip coefficient. Three passes other plans add, each timed alone:

- zero: the whole stage's fp32 gradient buffer zeroed before the next step (Megatron's DDP buffer reset(), one
  contiguous buffer that every data-parallel rank holds unsharded): writes 4 bytes a stage parameter;
- cast: 16-bit gradients cast into fp32 main gradients (fp16 Megatron's main_grad.float(), DeepSpeed ZeRO's fp32
  partition): reads 2, writes 4;
- unscale: fp16's loss scale taken out of the fp32 gradients with the inf/NaN check
  (torch._amp_foreach_non_finite_check_and_unscale_, as Megatron's and PyTorch's grad scalers): reads 4, writes 4.

The parameters are the case's tensors (a stage's linears, norms and embedding, each cut by the data-parallel shards
when the optimizer is distributed), random, never zeros. Timing follows measure.py (timing.py): CUDA events through
triton.testing.do_bench, median, L2 flushed before each repeat. One more step runs under torch.profiler for its
kernels' GPU time (kernel_profile.py), apart from the host's. Results are written after each case, so a run cut short still leaves what it measured. --dry-run shrinks every
tensor by 1,024 and runs on the CPU to test the script.
"""

import json
import sys
import time

import torch

from kernel_profile import kernel_profile
from timing import bench_ms, environment

DRY = '--dry-run' in sys.argv
ARGS = [a for a in sys.argv[1:] if not a.startswith('--')]
CASES_PATH, OUT_PATH = ARGS[0], ARGS[1]
DEVICE = 'cpu' if DRY or not torch.cuda.is_available() else 'cuda'
SHRINK = 1024 if DRY else 1
result = {'errors': [], 'optimizer': []}


def save():
    with open(OUT_PATH, 'w') as f:
        json.dump(result, f, indent=1)


def tensors(c):
    """fp32 master weights with fp32 gradients, and the bf16 weights they are copied into."""
    sizes = [max(1, t['numel'] // SHRINK) for t in c['tensors'] for _ in range(t['count'])]
    master = [torch.empty(n, device=DEVICE, dtype=torch.float32).normal_(0, 0.02) for n in sizes]
    for p in master:
        p.grad = torch.empty_like(p).normal_(0, 1e-3)
    model = [torch.empty(n, device=DEVICE, dtype=torch.bfloat16) for n in sizes]
    return master, model


def grad_norm(master):
    return torch.linalg.vector_norm(torch.stack(torch._foreach_norm([p.grad for p in master])))


def extra_passes(c, master):
    """The zeroing of the whole stage's gradient buffer, the 16-bit gradients' cast and fp16's unscale, each timed alone."""
    buffer = torch.empty(max(1, c['bufferParameters'] // SHRINK), device=DEVICE, dtype=torch.float32)
    out = {'zeroMs': bench_ms(buffer.zero_, DEVICE), 'bufferParameters': buffer.numel()}
    del buffer
    grads16 = [torch.empty_like(p, dtype=torch.bfloat16).normal_(0, 1e-3) for p in master]
    main_grads = [p.grad for p in master]
    if hasattr(torch, '_foreach_copy_'):
        out['castMs'] = bench_ms(lambda: torch._foreach_copy_(main_grads, grads16), DEVICE)
    del grads16
    if DEVICE == 'cuda':
        found_inf = torch.zeros(1, device=DEVICE)
        inv_scale = torch.ones(1, device=DEVICE)
        out['unscaleMs'] = bench_ms(lambda: torch._amp_foreach_non_finite_check_and_unscale_(main_grads, found_inf, inv_scale), DEVICE)
    return out


def measure(c):
    master, model = tensors(c)
    n = sum(p.numel() for p in master)
    fused = DEVICE == 'cuda'
    adam = torch.optim.Adam(master, lr=1e-4, betas=(0.9, 0.95), eps=1e-8, fused=fused, foreach=None if fused else True)
    adam.step()  # creates the momentum and variance
    if hasattr(torch, '_foreach_copy_'):
        copy = lambda: torch._foreach_copy_(model, master)  # noqa: E731
    else:  # PyTorch before 2.1 (a dry run's)
        copy = lambda: [m.copy_(p) for m, p in zip(model, master)]  # noqa: E731

    def step():
        grad_norm(master).item()
        adam.step()
        copy()

    parts = {'normMs': bench_ms(lambda: grad_norm(master), DEVICE), 'adamMs': bench_ms(adam.step, DEVICE),
             'copyMs': bench_ms(copy, DEVICE), 'stepMs': bench_ms(step, DEVICE)}
    profile = kernel_profile(step, DEVICE)
    extra = extra_passes(c, master)
    finite = all(bool(torch.isfinite(p).all()) for p in master[:8])
    state_bytes = sum(s.numel() * s.element_size() for st in adam.state.values() for s in st.values() if torch.is_tensor(s) and s.dim() > 0)
    del adam, master, model
    return {'id': c['id'], 'parameters': n, 'tensors': sum(t['count'] for t in c['tensors']), 'fused': fused,
            'finite': finite, 'stateBytes': state_bytes, **parts, **extra, 'profile': profile}


def main():
    with open(CASES_PATH) as f:
        cases = json.load(f)['optimizer']
    result['environment'] = environment(DEVICE, DRY)
    result['measuredAt'] = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
    for c in cases:
        t0 = time.time()
        try:
            row = measure(c)
            result['optimizer'].append(row)
            print(f"{c['id']:<40} {row['parameters'] / 1e9:6.3f} B params  step {row['stepMs']:8.3f} ms  norm {row['normMs']:7.3f}  "
                  f"adam {row['adamMs']:8.3f}  copy {row['copyMs']:7.3f}  kernels {row['profile']['otherMs'] + row['profile']['gemmMs']:8.3f} "
                  f"n {row['profile']['kernels']}  zero {row['zeroMs']:7.3f}  cast {row.get('castMs', 0):7.3f}  "
                  f"unscale {row.get('unscaleMs', 0):7.3f}  ({time.time() - t0:.1f} s)", flush=True)
        except Exception as e:  # noqa: BLE001 - the report says which case failed and why
            result['optimizer'].append({'id': c['id'], 'error': f'{type(e).__name__}: {e}'})
            result['errors'].append(f"{c['id']}: {type(e).__name__}: {e}")
            print(f"{c['id']}: {type(e).__name__}: {e}", flush=True)
        if DEVICE == 'cuda':
            torch.cuda.empty_cache()
        save()
    save()


if __name__ == '__main__':
    main()
