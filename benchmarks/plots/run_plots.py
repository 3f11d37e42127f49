#!/usr/bin/env python3
"""Plot of one-process-a-plan timings (benchmarks/results/<class>/fftmux-run.csv).

Each backend's time over cuFFT's against the transform length, for the
batched 1D C2C F32 set of a data set (default: standing):

  python3 benchmarks/plots/run_plots.py benchmarks/results/h200/fftmux-run.csv \
      docs/img/h200_1d_c2c.png [--dataset standing] [--title TEXT]
"""
import argparse
import csv
import statistics
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ENGINES = [("cuda", "native", "cuda/native", "tab:green"), ("vulkan", "default", "vulkan", "tab:red"),
           ("opengl", "default", "opengl", "tab:blue")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("png")
    parser.add_argument("--dataset", default="standing")
    parser.add_argument("--title", default="Batched 1D C2C F32, 2^27 elements a call, device data")
    args = parser.parse_args()
    times = defaultdict(list)
    with open(args.csv, newline="") as f:
        for r in csv.DictReader(f):
            if (r["dataset"], r["kind"], r["precision"]) == (args.dataset, "c2c", "f32"):
                times[(int(r["n"]), r["backend"], r["variant"])].append(float(r["median_us"]))
    lengths = sorted({n for n, _, _ in times})
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for backend, variant, label, color in ENGINES:
        for pow2, marker in ((True, "o-"), (False, "s")):
            xs = [n for n in lengths if ((n & (n - 1)) == 0) == pow2 and (n, backend, variant) in times]
            ys = [statistics.mean(times[(n, backend, variant)]) /
                  statistics.mean(times[(n, "cuda", "cufft")]) for n in xs]
            ax.plot(xs, ys, marker, color=color, label=label if pow2 else None,
                    markersize=4 if pow2 else 5, fillstyle="full" if pow2 else "none")
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1, label="cuFFT")
    ax.set_xscale("log", base=2)
    ax.set_ylim(0, 1.5)
    ax.set_xlabel("N (lines: powers of two; squares: other lengths)")
    ax.set_ylabel("time over cuFFT's (below 1: faster)")
    ax.set_title(args.title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)


if __name__ == "__main__":
    main()
