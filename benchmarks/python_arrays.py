#!/usr/bin/env python3
"""fftmux's numpy-style functions on CuPy arrays and PyTorch tensors against cupy.fft and
torch.fft in the same process, as a user calls them (the plan cache warm, the result
allocated by the producer's pool): the median over repeats of the time per call, measured
by CUDA events on the producer's stream around QUEUE calls in a row. QUEUE = 1 counts the
host's time per call where it exceeds the GPU's; a longer queue hides it, as a program that
does not wait for each result does.

    python3 benchmarks/python_arrays.py [--repeat 30] [--queue 10] [--json out.json] [SIZE ...]

SIZE: 'N' (complex64, one transform of N points), 'NxB' (B transforms of N), or 'r2c:N...'.
"""

import argparse
import json
import statistics
import sys

import cupy
import torch

import fftmux

DEFAULT = ["134217728", "16777216x8", "4097x4096", "10007x1024", "r2c:1048576x64"]


def parse(size):
    kind, _, rest = size.rpartition(":")
    n, _, batch = rest.partition("x")
    return kind or "c2c", int(n), int(batch or 1)


def timed(call, stream, repeat, queue, warmup=3):
    """Median milliseconds per call of queue calls in a row on stream (CUDA events)."""
    for _ in range(warmup):
        call()
    times = []
    for _ in range(repeat):
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        start.record(stream)
        for _ in range(queue):
            call()
        end.record(stream)
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end) / queue)
    return statistics.median(times)


def measure(size, repeat, queue):
    kind, n, batch = parse(size)
    shape = (batch, n) if batch > 1 else (n,)
    rng = cupy.random.default_rng(1)
    x = rng.standard_normal(shape, dtype=cupy.float32)
    if kind == "c2c":
        x = x + 1j * rng.standard_normal(shape, dtype=cupy.float32)
    ours, theirs = (fftmux.rfft, cupy.fft.rfft) if kind == "r2c" else (fftmux.fft,
                                                                       cupy.fft.fft)
    stream = cupy.cuda.get_current_stream()
    row = {"size": size, "kind": kind, "n": n, "batch": batch, "queue": queue,
           "cupy_ms": timed(lambda: theirs(x), stream, repeat, queue),
           "fftmux_cupy_ms": timed(lambda: ours(x), stream, repeat, queue)}
    t = torch.as_tensor(x, device="cuda")
    tstream = cupy.cuda.Stream.from_external(torch.cuda.current_stream())
    torch_fft = torch.fft.rfft if kind == "r2c" else torch.fft.fft
    row["torch_ms"] = timed(lambda: torch_fft(t), tstream, repeat, queue)
    row["fftmux_torch_ms"] = timed(lambda: ours(t), tstream, repeat, queue)
    plan = fftmux.plan_cache.plans()[-1]
    row["fftmux_variant"] = f"{plan.backend}/{plan.variant}"
    return row


def release():
    """Hands the pools' memory back between sizes (2^27 elements take 1 GiB a side)."""
    cupy.get_default_memory_pool().free_all_blocks()
    torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sizes", nargs="*", default=DEFAULT)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--queue", type=int, default=10)
    ap.add_argument("--json")
    args = ap.parse_args()
    rows = []
    for size in args.sizes:
        rows.append(measure(size, args.repeat, args.queue))
        release()
    print(f"{'size':>16} {'cupy ms':>9} {'fftmux ms':>9} {'ratio':>6} {'torch ms':>9} "
          f"{'fftmux ms':>9} {'ratio':>6}  fftmux ran")
    for r in rows:
        print(f"{r['size']:>16} {r['cupy_ms']:9.3f} {r['fftmux_cupy_ms']:9.3f} "
              f"{r['fftmux_cupy_ms'] / r['cupy_ms']:6.3f} {r['torch_ms']:9.3f} "
              f"{r['fftmux_torch_ms']:9.3f} {r['fftmux_torch_ms'] / r['torch_ms']:6.3f}  "
              f"{r['fftmux_variant']}")
    if args.json:
        device = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
        with open(args.json, "w") as f:
            json.dump({"device": device, "cupy": cupy.__version__,
                       "torch": torch.__version__, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
