#!/usr/bin/env python3
"""RESULTS.md of each machine class under benchmarks/results/, from its raw files.

Each class folder (benchmarks/results/<class>/) holds the raw CSV and JSON of
the latest run of each benchmark and a meta.json naming the machine and, for
each data set, its file, date, commit and command. This script writes
<class>/RESULTS.md from them, and each README.md block marked
"<!-- results.py: CLASS DATASET -->" as that data set's first table; the same
files always give the same text.

  benchmarks/results.py            # rewrite every RESULTS.md and README's tables
  benchmarks/results.py --check    # exit 1 if one differs from what the files give
"""
import argparse
import csv
import glob
import json
import os
import re
import statistics
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from overhead_table import medians  # noqa: E402

RESULTS = os.path.join(HERE, "results")


def read_csv(folder, name):
    with open(os.path.join(folder, name), newline="") as f:
        return list(csv.DictReader(f))


def table(header, rows, right=()):
    """Markdown table; columns whose index is in `right` are right-aligned."""
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---:" if i in right else "---" for i in range(len(header))) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out


def span(values, digits=0):
    """'a' or 'a-b' over the values, rounded to `digits` decimals."""
    lo, hi = f"{min(values):.{digits}f}", f"{max(values):.{digits}f}"
    return lo if lo == hi else f"{lo}-{hi}"


def pow2_first(n):
    n = int(n)
    return (n & (n - 1) != 0, n)


def run_times(rows, dataset):
    """{(build, kind, precision, n, batch, backend, variant): [median_us, ...]}"""
    times = defaultdict(list)
    for r in rows:
        if r["dataset"] == dataset:
            key = (r["build"], r["kind"], r["precision"], r["n"], r["batch"], r["backend"],
                   r["variant"])
            times[key].append(float(r["median_us"]))
    return times


ENGINES = [("cuda", "native", "cuda/native"), ("vulkan", "default", "vulkan"),
           ("opengl", "default", "opengl")]


def standing(folder, ds):
    times = run_times(read_csv(folder, ds["file"]), ds["id"])
    by_problem = defaultdict(dict)
    for (build, kind, prec, n, batch, backend, variant), t in times.items():
        by_problem[(kind, prec, n, batch)][(backend, variant)] = statistics.mean(t)
    out = ["Each backend's time over cuFFT's (below 1: faster than cuFFT):", ""]
    rows = []
    for (kind, prec, n, batch) in sorted(by_problem, key=lambda k: pow2_first(k[2])):
        if (kind, prec) != ("c2c", "f32"):
            continue
        t = by_problem[(kind, prec, n, batch)]
        cufft = t[("cuda", "cufft")]
        rows.append([n, batch, f"{cufft:.0f}"] +
                    [f"{t[(b, v)] / cufft:.2f}" if (b, v) in t else "" for b, v, _ in ENGINES])
    out += table(["N", "batch", "cuFFT us"] + [e[2] for e in ENGINES], rows, right=range(6))
    rows = []
    for (kind, prec, n, batch) in sorted(by_problem, key=lambda k: (k[0], k[1], int(k[2]))):
        if kind == "c2c":
            continue
        t = by_problem[(kind, prec, n, batch)]
        cufft, native = t[("cuda", "cufft")], t[("cuda", "native")]
        rows.append([f"{kind} {prec}", n, batch, f"{cufft:.0f}", f"{native:.0f}",
                     f"{native / cufft:.2f}"])
    if rows:
        out += ["", "Real transforms on cuda/native (N reals a line):", ""]
        out += table(["kind", "N", "batch", "cuFFT us", "cuda/native us", "over cuFFT"], rows,
                     right=range(1, 6))
    return out


def convolutions(folder, ds):
    times = run_times(read_csv(folder, ds["file"]), ds["id"])
    cufft = {k[1:5]: statistics.mean(t) for k, t in times.items() if k[6] == "cufft"}
    rows = []
    order = lambda k: (k[1] != "c2c", k[2], int(k[3]), k[5], k[6], k[0])  # noqa: E731
    for key in sorted(times, key=order):
        build, kind, prec, n, batch, backend, variant = key
        if variant == "cufft":
            continue
        ref = cufft.get((kind, prec, n, batch))
        ratio = f"{statistics.mean(times[key]) / ref:.2f}" if ref else ""
        rows.append([f"{kind} {prec} {n} x{batch}", f"{backend}/{variant}", build,
                     span(times[key]), ratio])
    out = ["Medians of each run (a range where the problem ran twice); over cuFFT: the mean of",
           "the engine's runs over the mean of cuFFT's (build 9759d91):", ""]
    out += table(["problem", "engine", "build", "us", "over cuFFT"], rows, right=(3, 4))
    out += ["", "cuFFT: " + ", ".join(f"{k[0]} {k[1]} {k[2]} {span(t)} us"
                                      for k, t in sorted(
                                          ((k[1:4], t) for k, t in times.items()
                                           if k[6] == "cufft"), key=lambda x: x[0]))]
    return out


def verify(folder, ds):
    rows = [[r["build"], r["backend"] + ("/" + r["variant"] if r["variant"] else ""),
             f"{r['shape']} x{r['batch']}", r["options"], r["relative_error"], r["bound"],
             r["status"]] for r in read_csv(folder, ds["file"])]
    return table(["build", "engine", "problem", "options", "error", "bound", "result"], rows)


def gpu_check(folder, ds):
    with open(os.path.join(folder, ds["file"])) as f:
        g = json.load(f)
    out = table(["suite", "passed", "failed", "skipped"],
                [[name, s["passed"], s["failed"], s["skipped"]]
                 for name, s in sorted(g["suites"].items())], right=(1, 2, 3))
    out += ["", f"Suites: {g['seconds']} s. Verified CLI runs:", ""]
    out += [f"- `fftmux run {c['args']}`: {c['status']}" for c in g["cli"]]
    return out


def occupancy(folder, ds):
    rows = read_csv(folder, ds["file"])
    invocations = sorted({int(r["invocations"]) for r in rows})
    cells = {(r["shared_kib"], r["live_floats"], int(r["invocations"])): r["groups_per_sm"]
             for r in rows}
    keys = sorted({(r["shared_kib"], r["live_floats"]) for r in rows},
                  key=lambda k: (float(k[0]), int(k[1])))
    out = ["Workgroups resident at once on an SM, by shared memory a group and invocations:", ""]
    out += table(["shared KiB", "live floats a thread"] + [f"{i} invocations" for i in invocations],
                 [[s, lf] + [cells[(s, lf, i)] for i in invocations] for s, lf in keys],
                 right=range(2 + len(invocations)))
    return out


def quick(folder, ds):
    rows = read_csv(folder, ds["file"])
    problems, cells = [], {}
    for r in rows:
        if r["problem"] not in problems:
            problems.append(r["problem"])
        if r["engine"] == "copy":
            cells[(r["problem"], "copy")] = f"{r['gbps']} GB/s"
        else:
            unit = "µs" if r["unit"] == "us" else r["unit"]
            cells[(r["problem"], r["engine"])] = (f"{r['median']} {unit}, {r['gbps']} GB/s, "
                                                 f"{r['gflops']} GF/s")
    engines = ["fftmux:fftw", "fftmux:opengl", "fftmux:vulkan", "fftw", "copy"]
    out = table(["problem", "fftmux:fftw", "fftmux:opengl", "fftmux:vulkan", "fftw", "copy limit"],
                [[p] + [cells[(p, e)] for e in engines] for p in problems], right=range(1, 6))
    us = {(r["problem"], r["engine"]): float(r["median"]) * (1000 if r["unit"] == "ms" else 1)
          for r in rows if r["engine"] != "copy"}
    ratios = sorted(us[(p, "fftw")] / us[(p, "fftmux:fftw")] for p in problems)
    slow = sorted(us[(p, "fftmux:" + g)] / us[(p, "fftw")]
                  for p in problems for g in ("vulkan", "opengl"))
    out += ["", f"FFTW's time over fftmux:fftw's: median {statistics.median(ratios):.2f} "
                f"({ratios[0]:.2f} to {ratios[-1]:.2f}). Vulkan and OpenGL on llvmpipe/lavapipe: "
                f"median {statistics.median(slow):.1f}x FFTW's time."]
    return out


def overhead(folder, ds):
    with open(os.path.join(folder, ds["file"])) as f:
        times = medians(json.load(f))

    def points(key):
        n = 1
        for x in key[1].split("x"):
            n *= int(x)
        return key[0], n

    rows = []
    for key in sorted(times, key=points):
        d, m = times[key]["direct"], times[key]["fftmux"]
        rows.append([key[0], key[1], f"{d:.3f}", f"{m:.3f}", f"{m / d:.3f}", f"{m - d:+.3f}"])
    return table(["precision", "shape", "direct FFTW (us)", "fftmux (us)", "ratio", "added (us)"],
                 rows, right=range(2, 6))


def count(folder, ds):
    rows = read_csv(folder, ds["file"])
    return table(["precision", "n", "FFTW direct (instructions/call)", "fftmux (instructions/call)",
                  "added", "ratio"],
                 [[r["precision"], r["n"], r["fftw_instructions"], r["fftmux_instructions"],
                   r["added"], r["ratio"]] for r in rows], right=range(1, 6))


def read_json(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


def routing(folder, ds):
    """route_quality: the untuned route against the fastest backend forced."""
    data = read_json(folder, ds["file"])
    rows = [[r["problem"], r["auto"], f"{r['auto_seconds'] * 1e6:.1f}", r["best"],
             f"{r['best_seconds'] * 1e6:.1f}", f"{r['ratio']:.2f}"] for r in data["rows"]]
    return ([f"{len(rows)} problems; the route's time over the fastest contender's: worst "
             f"{data['worst_ratio']:.2f}, {data['over_1_5']} over 1.5.", ""] +
            table(["problem", "auto", "us", "fastest", "us", "ratio"], rows, right=(2, 4, 5)))


def autotune(folder, ds):
    """autotune_check: the race's time and routes against the exhaustive sweep's."""
    data = read_json(folder, ds["file"])
    s = data["summary"]
    out = [f"The race: {s['race_seconds']:.0f} s, {s['race_measurements']} measurements; the "
           f"sweep: {s['sweep_seconds']:.0f} s, {s['sweep_measurements']}. The race's route "
           f"over the sweep's, worst {s['worst_race_over_sweep']:.2f}; interpolated routes over "
           f"the best, worst {s['worst_interpolated_over_best']:.2f}.", ""]
    out += table(["problem", "race", "sweep", "ratio (sweep's times)", "ratio (timed again)"],
                 [[r["problem"], r["race"], r["sweep"], f"{r['sweep_ratio']:.2f}",
                   f"{r['ratio']:.2f}"] for r in data["routes"]], right=(3, 4))
    out += ["", "Sizes between the tuned ones, routed by interpolation:", ""]
    out += table(["problem", "route", "fastest", "ratio"],
                 [[r["problem"], r["route"], r["best"], f"{r['ratio']:.2f}"]
                  for r in data["between"]], right=(3,))
    return out


def pace(folder, ds):
    """autotune_pace.py: the default set's parts, their wall time, planning and checks."""
    parts = read_json(folder, ds["file"])["parts"]

    def summed(p, key):
        xs = [x[key] for x in p["problems"] if key in x]
        return f"{sum(xs):.0f}" if xs else ""

    out = table(["part", "problems", "seconds", "s a problem", "candidates planned",
                 "planning s (all threads)", "checks s (all threads)", "skipped"],
                [[p["part"], len(p["problems"]), f"{p['seconds']:.0f}",
                  f"{p['seconds'] / len(p['problems']):.1f}",
                  sum(x["planned"] for x in p["problems"]), summed(p, "plan_seconds"),
                  summed(p, "check_seconds"), sum(x["skipped"] for x in p["problems"])]
                 for p in parts],
                right=range(1, 8))
    return out


def distributed(folder, ds):
    """distributed_bench: fftw-mpi against FFTW-MPI called directly, by ranks."""
    rows = read_csv(folder, ds["file"])
    return table(["problem", "ranks", "FFTW-MPI (ms)", "fftmux (ms)",
                  "fftmux / FFTW-MPI - 1 (median of pairs)"],
                 [[r["problem"], r["ranks"], r["fftw_mpi_ms"], r["fftmux_ms"], r["added"]]
                  for r in rows], right=range(1, 5))


SUITE_ENGINES = ["fftmux:cuda", "fftmux:cuda/native", "fftmux:vulkan", "fftmux:opengl", "vkfft"]
PRIMES = {4093, 4097, 10007}


def suite_class(r):
    """The shape class of a fftmux_bench row, as benchmarks/gpu_suite.sh tables them."""
    n = int(r["shape"].split("x")[0])
    if r["set"] == "thesis":
        return "single 2D " + r["placement"]
    if r["set"] == "host":
        return "1D from host memory"
    if r["rank"] > 1:
        return f"{r['rank']}D {r['kind'].upper()} {r['precision'].upper()}"
    if r["kind"] != "c2c":
        return f"1D R2C/C2R {r['precision'].upper()}"
    size = "primes" if n in PRIMES else "powers of two" if n & (n - 1) == 0 else "smooth"
    return f"1D C2C {r['precision'].upper()} {size}"


def suite(folder, ds):
    """gpu_suite.sh: each engine's forward time over cuFFT's, by shape class; plan times."""
    # The suite may run in parts (sets, precisions): ds["file"] is a pattern of their bench.json.
    rows = [r for path in sorted(glob.glob(os.path.join(folder, ds["file"])))
            for r in read_json(folder, path)["rows"] if r["status"] == "ok" and r["class"] == "gpu"]
    forward = defaultdict(dict)
    for r in rows:
        if r["phase"] == "forward":
            forward[(r["set"], r["problem"])][r["engine"]] = r
    ratios = defaultdict(lambda: defaultdict(list))
    for engines in forward.values():
        if "cufft" not in engines:
            continue
        cufft = engines["cufft"]["median_s"]
        for name in SUITE_ENGINES:
            if name in engines:
                ratios[suite_class(engines["cufft"])][name].append(engines[name]["median_s"] / cufft)
    out = ["Forward time over cuFFT's in the same run (below 1: faster), by shape class: the",
           "median and the range over its problems (each problem's list is in table.md):", ""]
    cell = lambda v: f"{statistics.median(v):.2f} ({span(v, 2)})" if v else ""  # noqa: E731
    engines = [e for e in SUITE_ENGINES if any(ratios[c][e] for c in ratios)]
    out += table(["class", "problems"] + engines,
                 [[c, max(len(v) for v in ratios[c].values())] + [cell(ratios[c][e])
                                                                    for e in engines]
                  for c in sorted(ratios)], right=(1,))
    picks = defaultdict(lambda: defaultdict(int))  # rows of harnesses that record the variant
    for problem in forward.values():
        for name, r in problem.items():
            if r.get("variant") and "/" not in name:
                picks[name][r["variant"]] += 1
    if picks:
        out += ["", "The variants the backends picked, with their problem counts: " +
                "; ".join(f"{e} " + ", ".join(f"{v} {n}" for v, n in sorted(p.items()))
                          for e, p in sorted(picks.items())) + "."]
    plans = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r["phase"] in ("plan_cold", "plan_warm"):
            plans[r["engine"]][r["phase"]].append(r["median_s"] * 1e3)
    out += ["", "Plan creation of both directions, ms (median and range over the problems):", ""]
    out += table(["engine", "cold", "warm"],
                 [[e, f"{statistics.median(p['plan_cold']):.1f} ({span(p['plan_cold'], 1)})",
                   f"{statistics.median(p['plan_warm']):.2f} ({span(p['plan_warm'], 2)})"]
                  for e, p in sorted(plans.items()) if p["plan_cold"] and p["plan_warm"]])
    summary = os.path.join(folder, ds.get("verify", "verify.txt"))
    if os.path.isfile(summary):
        with open(summary) as f:
            out += ["", "Verification in the same run (tests/cuda/gpu_check.sh and the correctness",
                    "matrix on vulkan and opengl):", ""] + ["    " + line.rstrip() for line in f]
    return out


def r2r(folder, ds):
    """r2r_bench: DCT-II and DCT-IV through fftmux against FFTW's r2r called directly."""
    rows = read_csv(folder, ds["file"])
    return table(["kind", "precision", "shape", "batch", "route", "FFTW (ms)",
                  "FFTW, 1 thread (ms)", "fftmux (ms)", "fftmux / FFTW",
                  "fftmux / the faster FFTW"],
                 [[r["kind"], r["precision"], r["shape"], r["batch"], r["route"], r["fftw_ms"],
                   r["fftw_1thread_ms"], r["fftmux_ms"], r["ratio"], r["ratio_to_best"]]
                  for r in rows], right=(3, 5, 6, 7, 8, 9))


def fftconvolve(folder, ds):
    """conv_bench.py: fftmux's convolutions against scipy.signal's on two workers."""
    rows = read_csv(folder, ds["file"])
    names = ["scipy", "fftmux", "fftmux_object", "scipy_oa", "fftmux_oa"]
    return table(["case", "signal", "filter", "dtype", "scipy fftconvolve (ms)",
                  "fftmux.fftconvolve (ms)", "fftmux.Convolution, reused (ms)",
                  "scipy oaconvolve (ms)", "fftmux.oaconvolve (ms)", "scipy / fftmux",
                  "scipy / Convolution"],
                 [[r["case"], r["signal"], r["filter"], r["dtype"]] +
                  [r[f"{n}_ms"] for n in names] + [r["scipy/fftmux"], r["scipy/fftmux_object"]]
                  for r in rows], right=tuple(range(4, 11)))


def half(folder, ds):
    """fftmux_bench --set half: F16 against cuFFT's half plans and against F32, device data."""
    data = read_json(folder, ds["file"])
    forward = defaultdict(dict)
    for r in data["rows"]:
        if r["status"] == "ok" and r["phase"] in ("forward", "copy"):
            forward[(r["kind"], r["shape"], r["precision"])][r["engine"]] = r
    us = lambda r: f"{r['median_s'] * 1e6:.0f}" if r else ""  # noqa: E731
    ratio = lambda a, b: f"{a['median_s'] / b['median_s']:.2f}" if a and b else ""  # noqa: E731
    rows = []
    for (kind, shape, precision), f16 in forward.items():
        if precision != "f16" or "fftmux:cuda" not in f16:
            continue
        mine, peer = f16["fftmux:cuda"], f16.get("cufft")
        f32 = forward.get((kind, shape, "f32"), {}).get("fftmux:cuda")
        copy = f16.get("cudaMemcpy")
        rows.append([f"{kind} {shape} x{mine['batch']}", us(peer), us(mine), ratio(mine, peer),
                     us(f32), ratio(mine, f32), f"{mine['gbps']:.0f}",
                     f"{copy['gbps']:.0f}" if copy else "", f"{mine['forward_error']:.1e}",
                     f"{peer['forward_error']:.1e}" if peer else "declines"])
    return table(["problem", "cuFFT F16 us", "fftmux F16 us", "over cuFFT F16", "fftmux F32 us",
                  "F16 over F32", "F16 GB/s", "copy GB/s", "F16 error", "cuFFT F16 error"],
                 rows, right=range(1, 10))


def dct(folder, ds):
    """fftmux_bench --set dct: each backend's DCT-II and DCT-IV over its own C2C of the same
    shape (the goal on a GPU: 1.15 at most), and against the peers' DCTs run directly (FFTW's
    r2r plans on a CPU, VkFFT's on a GPU)."""
    data = read_json(folder, ds["file"])
    forward = defaultdict(dict)
    for r in data["rows"]:
        if r["status"] == "ok" and r["phase"] == "forward":
            forward[(r["kind"], r["shape"], r["precision"])][r["engine"]] = r
    us = lambda r: f"{r['median_s'] * 1e6:.0f}" if r else ""  # noqa: E731
    ratio = lambda a, b: f"{a['median_s'] / b['median_s']:.2f}" if a and b else ""  # noqa: E731
    rows = []
    for (kind, shape, precision), engines in sorted(forward.items()):
        if kind == "c2c":
            continue
        c2c = forward.get(("c2c", shape, precision), {})
        peer = engines.get("vkfft") or engines.get("fftw")
        for engine, mine in sorted(engines.items()):
            if engine.startswith("fftmux:"):
                rows.append([f"{kind} {precision} {shape} x{mine['batch']}", engine[7:],
                             us(mine), us(c2c.get(engine)), ratio(mine, c2c.get(engine)),
                             us(peer), ratio(mine, peer)])
    return table(["problem", "backend", "DCT us", "C2C us", "DCT / C2C",
                  "peer's DCT us (VkFFT, else FFTW)", "over the peer"], rows, right=range(2, 7))


def conv_device(folder, ds):
    """conv_device_bench's CSV: each device convolution beside the two FFTs of separate calls."""
    rows = read_csv(folder, ds["file"])
    head = list(rows[0].keys()) if rows else []
    return table(head, [[r[h] for h in head] for r in rows], right=range(3, len(head)))


RENDER = {"standing": standing, "convolutions": convolutions, "verify": verify,
          "gpu-check": gpu_check, "occupancy": occupancy, "quick": quick, "overhead": overhead,
          "count": count, "routing": routing, "autotune": autotune,
          "distributed": distributed, "suite": suite, "r2r": r2r, "fftconvolve": fftconvolve,
          "half": half, "pace": pace, "dct": dct, "conv-device": conv_device}


def results_md(folder):
    with open(os.path.join(folder, "meta.json")) as f:
        meta = json.load(f)
    out = [f"# Results: {meta['title']}", "",
           "Generated by `benchmarks/results.py` from the raw files in this folder and its",
           "`meta.json`; edit those, not this file.", ""]
    out += table(["", ""], meta["machine"]) + [""]
    if "method" in meta:
        out += [meta["method"], ""]
    for ds in meta["datasets"]:
        stamp = f"{ds['date']}, commit {ds['commit']}"
        if "generator" in ds:
            stamp += f", generator v{ds['generator']}"
        out += [f"## {ds['title']}", "", f"`{ds['file']}` ({stamp}):", "", f"    {ds['command']}",
                ""]
        if "notes" in ds:
            out += [ds["notes"], ""]
        out += RENDER[ds.get("render", ds["id"])](folder, ds) + [""]
    return "\n".join(out)


README = os.path.join(HERE, "..", "README.md")
MARK = re.compile(r"<!-- results\.py: (\S+) (\S+) -->\n(.*?)<!-- results\.py: end -->\n", re.S)


def first_table(lines):
    """The first markdown table of a renderer's lines."""
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    return lines[start:end]


def readme_text(text):
    """README.md with each marked block (class, data set) the first table of that data set."""
    def block(m):
        folder = os.path.join(RESULTS, m.group(1))
        with open(os.path.join(folder, "meta.json")) as f:
            ds = next(d for d in json.load(f)["datasets"] if d["id"] == m.group(2))
        rows = first_table(RENDER[ds.get("render", ds["id"])](folder, ds))
        return (f"<!-- results.py: {m.group(1)} {m.group(2)} -->\n" + "\n".join(rows) +
                "\n<!-- results.py: end -->\n")
    return MARK.sub(block, text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed RESULTS.md instead of writing it")
    args = parser.parse_args()
    stale, outputs = [], []
    for name in sorted(os.listdir(RESULTS)):
        folder = os.path.join(RESULTS, name)
        if not os.path.isfile(os.path.join(folder, "meta.json")):
            continue
        outputs.append((os.path.join(folder, "RESULTS.md"), results_md(folder)))
    with open(README, encoding="utf-8") as f:
        outputs.append((os.path.normpath(README), readme_text(f.read())))
    for path, text in outputs:
        if args.check:
            try:
                with open(path, encoding="utf-8") as f:
                    current = f.read()
            except FileNotFoundError:
                current = None
            if current != text:
                stale.append(path)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    for path in stale:
        print(f"{path} differs from what its raw files give: run benchmarks/results.py",
              file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
