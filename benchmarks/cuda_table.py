#!/usr/bin/env python3
"""Markdown tables from cuda_bench --json output: one row per problem with
direct cuFFT, our cufft variant (time ratio), native (default and the best
native variant) in GB/s, and the fused-shift rows.

    python3 benchmarks/cuda_table.py bench.json [shifts.json]
"""
import json
import sys
from collections import OrderedDict


def load(paths):
    rows = []
    for p in paths:
        with open(p) as f:
            rows += [json.loads(line) for line in f if line.strip()]
    return rows


def main(paths):
    rows = load(paths)
    by = OrderedDict()
    for r in rows:
        by.setdefault((r["group"], r["problem"]), {})[r["what"]] = r
    print("| problem | cuFFT GB/s | fftmux cufft / cuFFT time | native GB/s | best native variant GB/s | native / cuFFT throughput |")
    print("|---|---|---|---|---|---|")
    for (group, problem), w in by.items():
        if group == "copy":
            c = w["copy"]
            print(f"| {problem} | copy: {c['gbs']:.0f} | | | | |")
            continue
        d = w.get("cuFFT direct")
        if not d or not d["ok"]:
            continue
        cu = w.get("fftmux cufft")
        natives = [(k, v) for k, v in w.items() if k.startswith("fftmux native") and v["ok"]]
        nat = w.get("fftmux native")
        best = max(natives, key=lambda kv: kv[1]["gbs"]) if natives else None
        ratio = f"{cu['median_ms'] / d['median_ms']:.3f}" if cu and cu["ok"] else "failed"
        ng = f"{nat['gbs']:.0f}" if nat and nat["ok"] else "failed"
        bg = f"{best[1]['gbs']:.0f} ({best[0].replace('fftmux ', '')})" if best else "-"
        tp = f"{best[1]['gbs'] / d['gbs']:.2f}x" if best else "-"
        print(f"| {problem} | {d['gbs']:.0f} | {ratio} | {ng} | {bg} | {tp} |")
    shifts = [(k, w) for k, w in by.items() if any("shift" in x for x in w)]
    if not shifts:
        return
    print()
    print("| problem | plain cufft ms | + shift, separate pass | + shift, cuFFT LTO callback | plain native ms | + shift, native modulation |")
    print("|---|---|---|---|---|---|")
    for (group, problem), w in shifts:
        def cell(name, base=None):
            r = w.get(name)
            if not r:
                return "-"
            if not r["ok"]:
                return "plan failed"
            extra = f" ({100 * (r['median_ms'] / base - 1):+.0f}%)" if base else ""
            return f"{r['median_ms']:.3f}{extra}"
        pc = w.get("fftmux cufft", {}).get("median_ms")
        pn = w.get("fftmux native", {}).get("median_ms")
        print(f"| {problem} | {cell('fftmux cufft')} | {cell('cufft + shift (pass)', pc)} | "
              f"{cell('cufft + shift (callback)', pc)} | {cell('fftmux native')} | "
              f"{cell('native + shift (modulation)', pn)} |")


if __name__ == "__main__":
    main(sys.argv[1:])
