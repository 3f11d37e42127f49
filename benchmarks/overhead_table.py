#!/usr/bin/env python3
"""Markdown table of fftmux's FFTW backend against direct FFTW calls, from
the JSON of fftw_overhead_bench (run with --benchmark_repetitions: medians
are used when present)."""
import json
import sys
from collections import defaultdict


def medians(report):
    times = defaultdict(dict)
    for b in report["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        precision, engine, shape = b["run_name"].split("/")[:3]
        times[(precision, shape)][engine] = b["real_time"] * {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b["time_unit"]]
    return times


def main(path):
    with open(path) as f:
        report = json.load(f)
    print("| precision | shape | direct FFTW (us) | fftmux (us) | ratio | added (us) |")
    print("|---|---|---:|---:|---:|---:|")
    def order(key):  # precision, then size
        precision, shape = key
        points = 1
        for n in shape.split("x"):
            points *= int(n)
        return precision, points

    times = medians(report)
    for (precision, shape) in sorted(times, key=order):
        t = times[(precision, shape)]
        if "direct" in t and "fftmux" in t:
            d, m = t["direct"], t["fftmux"]
            print(f"| {precision} | {shape} | {d:.3f} | {m:.3f} | {m / d:.3f} | {m - d:+.3f} |")


if __name__ == "__main__":
    main(sys.argv[1])
