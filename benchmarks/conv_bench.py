#!/usr/bin/env python3
"""fftmux's convolutions against scipy.signal.fftconvolve on two workers, in one process:
fftmux.fftconvolve as a user calls it (the convolution object made each call: the filter
transformed, the plans taken from FFTW's wisdom), an fftmux.Convolution made once and
called on new signals (the filter's transform reused), and fftmux.oaconvolve beside
scipy.signal.oaconvolve where the filter is short. Medians of REPEAT rounds, the contenders
timed in turn each round; every result checked against scipy's.

    /usr/bin/python3 benchmarks/conv_bench.py [--repeat 11] > conv.csv
"""

import argparse
import statistics
import sys
import time

import numpy as np
import scipy.fft
import scipy.signal

import fftmux

# (name, signal shape, filter shape, dtype, axes)
CASES = [
    ("1d", (65536,), (101,), "float64", None),
    ("1d-long", (1048576,), (1001,), "float32", None),
    ("1d-complex", (100003,), (257,), "complex128", None),
    ("1d-batch", (64, 4096), (1, 63), "float32", [1]),
    ("2d", (512, 512), (15, 15), "float64", None),
    ("2d-large", (2048, 2048), (31, 31), "float32", None),
    ("3d", (64, 64, 64), (5, 5, 5), "float64", None),
]


def data(shape, dtype, rng):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def contenders(x, h, axes):
    """name -> call; the Convolution object is made here, once, outside the timing."""
    def scipy_fft():
        with scipy.fft.set_workers(2):
            return scipy.signal.fftconvolve(x, h, "same", axes=axes)

    def scipy_oa():
        with scipy.fft.set_workers(2):
            return scipy.signal.oaconvolve(x, h, "same", axes=axes)

    calls = {"scipy": scipy_fft,
             "fftmux": lambda: fftmux.fftconvolve(x, h, "same", axes=axes),
             "scipy_oa": scipy_oa,
             "fftmux_oa": lambda: fftmux.oaconvolve(x, h, "same", axes=axes)}
    if axes is None:
        conv = fftmux.Convolution(x.shape, h.shape, h, mode="same")
        calls["fftmux_object"] = lambda: conv(x)
    return calls


def median_ms(times):
    return statistics.median(times) * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    names = ["scipy", "fftmux", "fftmux_object", "scipy_oa", "fftmux_oa"]
    print("case,signal,filter,dtype," + ",".join(f"{n}_ms" for n in names) +
          ",scipy/fftmux,scipy/fftmux_object")
    for name, shape, kshape, dtype, axes in CASES:
        x, h = data(shape, dtype, rng), data(kshape, dtype, rng)
        calls = contenders(x, h, axes)
        reference = calls["scipy"]()
        scale = np.abs(reference).max()
        bound = 1e-4 if x.dtype in (np.float32, np.complex64) else 1e-10
        for label, call in calls.items():  # warm-up and check
            error = np.abs(call() - reference).max() / scale
            assert error < bound, (name, label, error)
        times = {label: [] for label in calls}
        for _ in range(args.repeat):
            for label, call in calls.items():
                start = time.perf_counter()
                call()
                times[label].append(time.perf_counter() - start)
        ms = {label: median_ms(t) for label, t in times.items()}
        cells = [f"{ms[n]:.3f}" if n in ms else "" for n in names]
        ratio = [f"{ms['scipy'] / ms[n]:.2f}" if n in ms else "" for n in
                 ("fftmux", "fftmux_object")]
        print(f"{name},{'x'.join(map(str, shape))},{'x'.join(map(str, kshape))},{dtype},"
              + ",".join(cells + ratio))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
